import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 serving RpcFaultServiceImpl at /faults on
 * 127.0.0.1 (its {@code chain} throws an exception with a cause chain), for the tests of how
 * `hessian call` reports a Java fault and Jetty's HTML error page
 * (crates/hessian-cli/tests/explain.rs). Prints "PORT n" once started and serves until killed.
 * Usage: JettyFaults [port]
 */
public class JettyFaults {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);

    HessianServlet servlet = new HessianServlet();
    servlet.setHomeAPI(RpcFaultService.class);
    servlet.setHome(new RpcFaultServiceImpl());
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    context.addServlet(new ServletHolder(servlet), "/faults");
    server.setHandler(context);

    server.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
