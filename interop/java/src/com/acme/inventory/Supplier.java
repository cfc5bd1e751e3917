package com.acme.inventory;

/** The supplier of an item. */
public class Supplier implements java.io.Serializable {
  public String name;
  public String country;

  public String toString() {
    return "Supplier(" + name + ", " + country + ")";
  }
}
