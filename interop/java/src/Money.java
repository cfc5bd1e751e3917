import java.util.Objects;

/** Workload W3 type (remote name {@code Money}, default package): text = cents + " cents.". */
public class Money implements java.io.Serializable {
  public int cents;
  public String text;

  public Money() {}

  public Money(int cents) { this.cents = cents; this.text = cents + " cents."; }

  @Override public boolean equals(Object o) {
    return o instanceof Money && ((Money) o).cents == cents && Objects.equals(((Money) o).text, text);
  }

  @Override public int hashCode() { return cents; }

  @Override public String toString() { return "Money{" + cents + "," + text + "}"; }
}
