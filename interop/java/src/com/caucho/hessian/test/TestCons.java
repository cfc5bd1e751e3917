package com.caucho.hessian.test;

/**
 * Cons cell of Caucho's TestHessian2 catalogue (wire: fields {@code _first}, {@code _rest}); used to
 * build a circular structure. Equality is left to the catalogue checker, which follows cycles.
 */
public class TestCons implements java.io.Serializable {
  private Object _first;
  private Object _rest;

  public TestCons() {}

  public TestCons(Object first, Object rest) { _first = first; _rest = rest; }

  public Object getFirst() { return _first; }

  public void setFirst(Object first) { _first = first; }

  public Object getRest() { return _rest; }

  public void setRest(Object rest) { _rest = rest; }

  @Override public String toString() { return "TestCons[" + (_first == this ? "<self>" : _first) + ", " + (_rest == this ? "<self>" : "...") + "]"; }
}
