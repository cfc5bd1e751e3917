package org.example.evolution;

/** Hides Animal's `name` with its own: Caucho writes both fields, the subclass's first. */
public class Dog extends Animal {
  public String name;
  public boolean good;
}
