package org.example.h2conformance;

/** An enum: 4.0.38 writes a constant as an object with one field, {@code name}. */
public enum Color { RED, GREEN }
