package com.caucho.hessian.test;

import java.util.Objects;

/** One-field object of Caucho's TestHessian2 catalogue (wire: class {@code TestObject}, field {@code _value}). */
public class TestObject implements java.io.Serializable {
  private Object _value;

  public TestObject() {}

  public TestObject(Object value) { _value = value; }

  public Object getValue() { return _value; }

  @Override public boolean equals(Object o) {
    return o instanceof TestObject && Objects.equals(_value, ((TestObject) o)._value);
  }

  @Override public int hashCode() { return Objects.hashCode(_value); }

  @Override public String toString() { return "TestObject[" + _value + "]"; }
}
