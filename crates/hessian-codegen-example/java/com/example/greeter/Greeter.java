package com.example.greeter;

/** The Java service of the build.rs example. */
public interface Greeter {
  /** A greeting for `name`; BlankNameException for an empty name. */
  Greeting greet(String name, int times) throws BlankNameException;
}
