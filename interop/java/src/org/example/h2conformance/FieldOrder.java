package org.example.h2conformance;

import java.util.Date;
import java.util.List;

/**
 * Mixed field types declared compound-first, to pin down 4.0.38's field order: primitive and
 * {@code java.lang.*} fields (except {@code Object}) are written before the others.
 */
public class FieldOrder implements java.io.Serializable {
  public Object first;
  public List<Object> items;
  public Date when;
  public String name;
  public int count;
  public Integer boxed;

  public FieldOrder() {}

  public FieldOrder(Object first, List<Object> items, Date when, String name, int count, Integer boxed) {
    this.first = first;
    this.items = items;
    this.when = when;
    this.name = name;
    this.count = count;
    this.boxed = boxed;
  }
}
