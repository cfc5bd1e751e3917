package org.example.codegen;

/** A Java enum for the code generator's test (crates/hessian-codegen/tests/codegen.rs). */
public enum Color { RED, DARK_GREEN, BLUE }
