package com.caucho.hessian.test;

/** Field-less class number 13 of Caucho's TestHessian2 `replyObject_16` (17 class definitions). */
public class A13 implements java.io.Serializable {
  @Override public boolean equals(Object o) { return o != null && o.getClass() == getClass(); }

  @Override public int hashCode() { return 13; }

  @Override public String toString() { return "A13"; }
}
