package org.example.jetty;

import com.caucho.burlap.server.BurlapServlet;
import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import java.util.function.Consumer;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 on 127.0.0.1, as the Jetty programs of the tests
 * and benchmarks run it (JettyBench, JettyFaults, com.acme.inventory.InventoryJetty): one
 * HTTP/1.1 connector, Jetty's defaults otherwise (QueuedThreadPool of up to 200 threads).
 */
public final class HessianJetty {
  private HessianJetty() {}

  /**
   * Serves {@code impl} as {@code api} at {@code path} on the port in {@code args[0]} (0 or none:
   * any free one); prints "PORT n" once started and serves until killed.
   */
  public static void serve(String[] args, Class<?> api, Object impl, String path) throws Exception {
    serveAll(args, new String[] {path}, new Class<?>[] {api}, new Object[] {impl}, false);
  }

  /**
   * Serves each {@code impls[i]} as {@code apis[i]} at {@code paths[i]}, one HessianServlet each
   * (with {@code burlap}, also one BurlapServlet each at "/burlap" + {@code paths[i]}), on the
   * port in {@code args[0]} (0 or none: any free one); prints "PORT n" once started and serves
   * until killed.
   */
  public static void serveAll(String[] args, String[] paths, Class<?>[] apis, Object[] impls, boolean burlap)
      throws Exception {
    serveContext(args, context -> {
      for (int i = 0; i < paths.length; i++) {
        HessianServlet servlet = new HessianServlet();
        servlet.setHomeAPI(apis[i]);
        servlet.setHome(impls[i]);
        context.addServlet(new ServletHolder(servlet), paths[i]);
        if (burlap) {
          BurlapServlet b = new BurlapServlet();
          b.setAPIClass(apis[i]);
          b.setService(impls[i]);
          context.addServlet(new ServletHolder(b), "/burlap" + paths[i]);
        }
      }
    });
  }

  /**
   * Serves the servlets {@code mount} adds to the root context, on the port in {@code args[0]}
   * (0 or none: any free one); prints "PORT n" once started and serves until killed.
   */
  public static void serveContext(String[] args, Consumer<ServletContextHandler> mount) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    mount.accept(context);
    server.setHandler(context);

    server.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
