import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 (Debian's libjetty9-java), serving
 * RpcBenchServiceImpl (W1 getItems, W2 exchange) at /bench on 127.0.0.1, for the server
 * benchmark (crates/hessian-bench/src/bin/server_bench.rs). Jetty's defaults otherwise (one
 * HTTP/1.1 connector, QueuedThreadPool of up to 200 threads). Prints "PORT n" once started and
 * serves until killed. Needs the Jetty jars on the class path (JETTY_JARS in
 * crates/hessian-testkit/src/java.rs). Usage: JettyBench [port]
 */
public class JettyBench {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);

    HessianServlet servlet = new HessianServlet();
    servlet.setHomeAPI(RpcBenchService.class);
    servlet.setHome(new RpcBenchServiceImpl());
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    context.addServlet(new ServletHolder(servlet), "/bench");
    server.setHandler(context);

    server.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
