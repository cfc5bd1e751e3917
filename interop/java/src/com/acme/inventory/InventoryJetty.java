package com.acme.inventory;

import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 serving InventoryImpl at /inventory on
 * 127.0.0.1. Prints "PORT n" once started and serves until killed. Usage: InventoryJetty [port]
 */
public class InventoryJetty {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    HessianServlet servlet = new HessianServlet();
    servlet.setHomeAPI(Inventory.class);
    servlet.setHome(new InventoryImpl());
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    context.addServlet(new ServletHolder(servlet), "/inventory");
    server.setHandler(context);
    server.start();
    System.out.println("PORT " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
