package com.acme.inventory;

import java.util.List;

/**
 * A batch that failed: fields of every kind, so that Caucho's field order (primitive and
 * java.lang fields, then Throwable's detailMessage and cause, then the others) shows even when
 * the nested object and the list are null.
 */
public class BatchException extends Exception {
  private int count;
  private Supplier supplier;
  private List<String> ids;
  private String note;

  public BatchException(String message, int count, Supplier supplier, List<String> ids, String note) {
    super(message);
    this.count = count;
    this.supplier = supplier;
    this.ids = ids;
    this.note = note;
  }

  public int getCount() {
    return count;
  }

  public Supplier getSupplier() {
    return supplier;
  }

  public List<String> getIds() {
    return ids;
  }

  public String getNote() {
    return note;
  }
}
