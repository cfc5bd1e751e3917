package org.example.codegen;

/** A class the generator cannot map (a BigDecimal field): its error names the class and the field. */
public class Ledger implements java.io.Serializable {
  public java.math.BigDecimal balance;
}
