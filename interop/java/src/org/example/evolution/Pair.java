package org.example.evolution;

/** A generic container (crates/hessian/tests/java_types.rs). */
public class Pair<A, B> implements java.io.Serializable {
  public A first;
  public B second;
}
