package com.acme.inventory;

/** A restock that cannot be done; thrown with a cause. */
public class StockException extends Exception {
  private int requested;

  public StockException(String message, int requested, Throwable cause) {
    super(message, cause);
    this.requested = requested;
  }

  public int getRequested() {
    return requested;
  }
}
