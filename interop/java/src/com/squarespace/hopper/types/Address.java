package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class Address implements java.io.Serializable {
  public String street;
  public String city;
  public String zip;
  public String country;

  public Address() {}

  public Address(String street, String city, String zip, String country) { this.street = street; this.city = city; this.zip = zip; this.country = country; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Address)) return false;
    Address x = (Address) o;
    return true && Objects.equals(street, x.street) && Objects.equals(city, x.city) && Objects.equals(zip, x.zip) && Objects.equals(country, x.country);
  }

  @Override public int hashCode() { return Objects.hash(street, city, zip, country); }

  @Override public String toString() { return "Address{" + "street=" + street + "," + "city=" + city + "," + "zip=" + zip + "," + "country=" + country + "," + "}"; }
}
