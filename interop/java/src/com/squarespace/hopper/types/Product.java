package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class Product implements java.io.Serializable {
  public String sku;
  public String name;
  public Money price;

  public Product() {}

  public Product(String sku, String name, Money price) { this.sku = sku; this.name = name; this.price = price; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Product)) return false;
    Product x = (Product) o;
    return true && Objects.equals(sku, x.sku) && Objects.equals(name, x.name) && Objects.equals(price, x.price);
  }

  @Override public int hashCode() { return Objects.hash(sku, name, price); }

  @Override public String toString() { return "Product{" + "sku=" + sku + "," + "name=" + name + "," + "price=" + price + "," + "}"; }
}
