package org.example.evolution;

/** Schema evolution (crates/hessian/tests/java_types.rs): the Rust side has fewer or more fields. */
public class Account implements java.io.Serializable {
  public long id;
  public String owner;
  public double balance;
}
