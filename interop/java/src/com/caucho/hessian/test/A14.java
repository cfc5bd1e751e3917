package com.caucho.hessian.test;

/** Field-less class number 14 of Caucho's TestHessian2 `replyObject_16` (17 class definitions). */
public class A14 implements java.io.Serializable {
  @Override public boolean equals(Object o) { return o != null && o.getClass() == getClass(); }

  @Override public int hashCode() { return 14; }

  @Override public String toString() { return "A14"; }
}
