package com.acme.inventory;

/** No item of this id; the message holds characters Caucho escapes in the fault's message. */
public class NotFoundException extends Exception {
  private long id;

  public NotFoundException(long id) {
    super("no item " + id + " <unknown id & not in stock>");
    this.id = id;
  }

  /** An exception whose message is null (getMessage() == null). */
  public NotFoundException(long id, String message) {
    super(message);
    this.id = id;
  }

  public long getId() {
    return id;
  }
}
