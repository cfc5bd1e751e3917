package org.example.gateway;

import java.io.Serializable;
import java.util.List;

/**
 * A parameter class whose declaration order differs from the order Caucho's serializer writes
 * (label, x, y, then tags).
 */
public class Point implements Serializable {
  public List<String> tags;
  public String label;
  public int x;
  public int y;

  public Point() {}

  public Point(String label, int x, int y, List<String> tags) {
    this.label = label;
    this.x = x;
    this.y = y;
    this.tags = tags;
  }
}
