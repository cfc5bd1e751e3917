package org.example.gateway;

/** The exception GatewayApi.fail declares. */
public class GatewayException extends Exception {
  public GatewayException(String message) {
    super(message);
  }
}
