package com.example.greeter;

/** The name was empty; `position` says which argument. */
public class BlankNameException extends Exception {
  private int position;

  public BlankNameException(String message, int position) {
    super(message);
    this.position = position;
  }

  public int getPosition() {
    return position;
  }
}
