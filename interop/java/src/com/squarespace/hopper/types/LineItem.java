package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class LineItem implements java.io.Serializable {
  public Product product;
  public int quantity;
  public Money total;

  public LineItem() {}

  public LineItem(Product product, int quantity, Money total) { this.product = product; this.quantity = quantity; this.total = total; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof LineItem)) return false;
    LineItem x = (LineItem) o;
    return true && Objects.equals(product, x.product) && Objects.equals(quantity, x.quantity) && Objects.equals(total, x.total);
  }

  @Override public int hashCode() { return Objects.hash(product, quantity, total); }

  @Override public String toString() { return "LineItem{" + "product=" + product + "," + "quantity=" + quantity + "," + "total=" + total + "," + "}"; }
}
