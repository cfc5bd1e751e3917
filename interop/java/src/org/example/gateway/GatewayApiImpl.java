package org.example.gateway;

import java.util.List;
import java.util.Map;

/** The implementation of GatewayApi. */
public class GatewayApiImpl implements GatewayApi {
  public String primitives(int i, long l, double d, boolean b, char c, String s) {
    return "int " + i + ", long " + l + ", double " + d + ", boolean " + b + ", char " + c + ", String " + s;
  }

  public String boxed(Integer i, Long l, Double d) {
    return i + " " + l + " " + d;
  }

  public Point move(Point p, int dx, int dy) {
    return new Point(p.label, p.x + dx, p.y + dy, p.tags);
  }

  public int sum(int[] values) {
    int s = 0;
    for (int v : values) {
      s += v;
    }
    return s;
  }

  public String total(List<Long> values) {
    long s = 0;
    for (Long v : values) {
      s += v;
    }
    return (values.isEmpty() ? "none" : values.get(0).getClass().getName()) + " " + s;
  }

  public String lookup(Map<String, Integer> map, String key) {
    Object v = map.get(key);
    return key + "=" + v + " (" + (v == null ? "null" : v.getClass().getName()) + ")";
  }

  public Color next(Color c) {
    return Color.values()[(c.ordinal() + 1) % Color.values().length];
  }

  public String add(int a) {
    return "add(int) " + a;
  }

  public String add(int a, int b) {
    return "add(int, int) " + (a + b);
  }

  public String add(String a, String b) {
    return "add(String, String) " + a + b;
  }

  public String scale(int factor) {
    return "scale(int) " + factor;
  }

  public String scale(double factor) {
    return "scale(double) " + factor;
  }

  public String fail(String message) throws GatewayException {
    throw new GatewayException(message);
  }
}
