package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class Customer implements java.io.Serializable {
  public long id;
  public String name;
  public String email;
  public Address address;

  public Customer() {}

  public Customer(long id, String name, String email, Address address) { this.id = id; this.name = name; this.email = email; this.address = address; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Customer)) return false;
    Customer x = (Customer) o;
    return true && Objects.equals(id, x.id) && Objects.equals(name, x.name) && Objects.equals(email, x.email) && Objects.equals(address, x.address);
  }

  @Override public int hashCode() { return Objects.hash(id, name, email, address); }

  @Override public String toString() { return "Customer{" + "id=" + id + "," + "name=" + name + "," + "email=" + email + "," + "address=" + address + "," + "}"; }
}
