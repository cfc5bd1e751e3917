package seed.serial;

/** The seed's Money: a ValueObject with its cents, serialized by Java's default mechanism. */
public class Money extends ValueObject {
  private static final long serialVersionUID = 1L;
  private int cents;

  public Money(int cents) {
    super(cents + " cents.");
    this.cents = cents;
  }

  public int getCents() { return cents; }
}
