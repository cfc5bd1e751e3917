package org.example.h2conformance;

/** A subclass, to pin down where inherited fields go in 4.0.38's field order. */
public class FieldOrderChild extends FieldOrder {
  public Object extraObject;
  public long extra;

  public FieldOrderChild() {}
}
