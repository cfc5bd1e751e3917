package org.example.gateway;

import java.util.List;
import java.util.Map;

/**
 * The Java interface `hessian gateway --api` is tested with (crates/hessian-cli/tests/gateway.rs):
 * primitives and their boxes, an object, an enum, an array, a list, a map, overloads by count and
 * by type, and a declared exception. Served by JettyGateway at /api.
 */
public interface GatewayApi {
  /** Its arguments as Java sees them: "int 7, long 8, double 1.5, boolean true, char x, String s". */
  String primitives(int i, long l, double d, boolean b, char c, String s);

  /** Its boxed arguments, "null" for a null. */
  String boxed(Integer i, Long l, Double d);

  /** The point moved by (dx, dy). */
  Point move(Point p, int dx, int dy);

  /** The sum of the values. */
  int sum(int[] values);

  /** The sum of the values, with the class of the first element: "java.lang.Long 6". */
  String total(List<Long> values);

  /** The value of the key, as "key=value (java.lang.Integer)". */
  String lookup(Map<String, Integer> map, String key);

  /** The next color. */
  Color next(Color c);

  /** Overloads by count and by type. */
  String add(int a);

  /** Overloads by count and by type. */
  String add(int a, int b);

  /** Overloads by count and by type. */
  String add(String a, String b);

  /** Overloads a plain JSON number fits both of. */
  String scale(int factor);

  /** Overloads a plain JSON number fits both of. */
  String scale(double factor);

  /** Throws GatewayException(message). */
  String fail(String message) throws GatewayException;
}
