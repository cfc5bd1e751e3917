package org.example.h2conformance;

/**
 * Every primitive field type, to pin down how 4.0.38 writes them inside an object: byte and
 * short as int, float as double, char as a one-character string.
 */
public class PrimitiveFields implements java.io.Serializable {
  public boolean z = true;
  public byte b = -7;
  public short s = -300;
  public int i = 100000;
  public long l = 1L << 40;
  public float f = 1.5f;
  public double d = 0.1;
  public char c = '\u00e9';
}
