package org.example.codegen;

/** A superclass: its fields follow the subclass's in Caucho's order, kind by kind. */
public class Shape implements java.io.Serializable {
  public String label;
  public Color color;
  public transient int cachedHash;
  public static int COUNT = 0;
}
