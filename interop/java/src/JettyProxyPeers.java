import com.caucho.burlap.server.BurlapServlet;
import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * The servers behind `hessian proxy` in its tests (crates/hessian-cli/tests/proxy.rs): Caucho's
 * HessianServlet serving TestHessian2 at /test2 and W1/W2 (RpcBenchService) at /bench, and
 * Caucho's BurlapServlet serving W1/W2 at /burlap/bench, in one embedded Jetty 9.4 on 127.0.0.1
 * (Jetty's defaults otherwise). Prints "PORT n" once started and serves until killed.
 * Usage: JettyProxyPeers [port]
 */
public class JettyProxyPeers {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");

    HessianServlet test2 = new HessianServlet();
    test2.setHomeAPI(RpcTestHessian2.class);
    test2.setHome(RpcTestHessian2Impl.create());
    context.addServlet(new ServletHolder(test2), "/test2");

    HessianServlet bench = new HessianServlet();
    bench.setHomeAPI(RpcBenchService.class);
    bench.setHome(new RpcBenchServiceImpl());
    context.addServlet(new ServletHolder(bench), "/bench");

    BurlapServlet burlap = new BurlapServlet();
    burlap.setAPIClass(RpcBenchService.class);
    burlap.setService(new RpcBenchServiceImpl());
    context.addServlet(new ServletHolder(burlap), "/burlap/bench");

    server.setHandler(context);
    server.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
