package com.example.greeter;

import java.util.Date;
import java.util.LinkedHashMap;

/** A greeting: its text, when it was made, and word counts in order. */
public class Greeting implements java.io.Serializable {
  public String text;
  public Date at;
  public LinkedHashMap<String, Integer> words;
}
