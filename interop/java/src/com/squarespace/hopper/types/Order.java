package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class Order implements java.io.Serializable {
  public long id;
  public Customer customer;
  public java.util.List<LineItem> lines;
  public Money total;
  public java.util.Date placed;

  public Order() {}

  public Order(long id, Customer customer, java.util.List<LineItem> lines, Money total, java.util.Date placed) { this.id = id; this.customer = customer; this.lines = lines; this.total = total; this.placed = placed; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Order)) return false;
    Order x = (Order) o;
    return true && Objects.equals(id, x.id) && Objects.equals(customer, x.customer) && Objects.equals(lines, x.lines) && Objects.equals(total, x.total) && Objects.equals(placed, x.placed);
  }

  @Override public int hashCode() { return Objects.hash(id, customer, lines, total, placed); }

  @Override public String toString() { return "Order{" + "id=" + id + "," + "customer=" + customer + "," + "lines=" + lines + "," + "total=" + total + "," + "placed=" + placed + "," + "}"; }
}
