package com.caucho.hessian.test;

/** Field-less class number 4 of Caucho's TestHessian2 `replyObject_16` (17 class definitions). */
public class A4 implements java.io.Serializable {
  @Override public boolean equals(Object o) { return o != null && o.getClass() == getClass(); }

  @Override public int hashCode() { return 4; }

  @Override public String toString() { return "A4"; }
}
