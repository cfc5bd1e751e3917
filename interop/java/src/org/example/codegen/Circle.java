package org.example.codegen;

import java.util.List;
import java.util.Map;

/** A subclass with every kind of field the generator maps (crates/hessian-codegen/tests/codegen.rs). */
public class Circle extends Shape {
  public double radius;
  public Integer zIndex;
  public byte[] thumbnail;
  public int[] samples;
  public Map<String, Long> tags;
  public List<Circle> children;
  public Circle parent;
  public Object extra;
  public java.util.Date drawn;
  public boolean visible;
}
