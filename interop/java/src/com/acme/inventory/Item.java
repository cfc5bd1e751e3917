package com.acme.inventory;

import java.util.Date;
import java.util.List;

/** An item: a long, a String, a double, a Date, a boolean, a boxed Integer, a nested Supplier and a List. */
public class Item implements java.io.Serializable {
  public long id;
  public String name;
  public double price;
  public Date added;
  public boolean active;
  public Integer reorderLevel;
  public Supplier supplier;
  public List<String> tags;

  public String toString() {
    return "Item(" + id + ", " + name + ", " + price + ", " + (added == null ? null : added.getTime()) + ", "
        + active + ", " + reorderLevel + ", " + supplier + ", " + tags + ")";
  }
}
