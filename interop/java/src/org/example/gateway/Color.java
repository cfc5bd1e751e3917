package org.example.gateway;

/** An enum parameter and result of GatewayApi. */
public enum Color {
  RED,
  GREEN,
  BLUE
}
