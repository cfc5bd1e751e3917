package org.example.evolution;

/** A superclass whose field `name` a subclass hides (crates/hessian/tests/java_types.rs). */
public class Animal implements java.io.Serializable {
  public String name;
  public int legs;
}
