package com.acme.inventory;

import org.example.jetty.HessianJetty;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 serving InventoryImpl at /inventory on
 * 127.0.0.1. Prints "PORT n" once started and serves until killed. Usage: InventoryJetty [port]
 */
public class InventoryJetty {
  public static void main(String[] args) throws Exception {
    HessianJetty.serve(args, Inventory.class, new InventoryImpl(), "/inventory");
  }
}
