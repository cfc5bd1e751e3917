package com.squarespace.hopper.types;

import java.util.Objects;

/** Workload W2 type (see docs/workloads.md). */
public class Money implements java.io.Serializable {
  public int cents;
  public String currency;

  public Money() {}

  public Money(int cents, String currency) { this.cents = cents; this.currency = currency; }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Money)) return false;
    Money x = (Money) o;
    return true && Objects.equals(cents, x.cents) && Objects.equals(currency, x.currency);
  }

  @Override public int hashCode() { return Objects.hash(cents, currency); }

  @Override public String toString() { return "Money{" + "cents=" + cents + "," + "currency=" + currency + "," + "}"; }
}
