package seed.serial;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * The seed's ReallyEfficientMoney: Externalizable with no Serializable superclass, so the stream
 * describes one class with no fields; writes only its cents and rebuilds the text on read.
 */
public class ReallyEfficientMoney implements Externalizable {
  private static final long serialVersionUID = 1L;
  private int cents;
  private String text;

  public ReallyEfficientMoney() {}

  public ReallyEfficientMoney(int cents) {
    this.cents = cents;
    this.text = cents + " cents.";
  }

  public int getCents() { return cents; }

  @Override public String toString() { return text; }

  @Override public boolean equals(Object o) {
    return o instanceof ReallyEfficientMoney && ((ReallyEfficientMoney) o).cents == cents
        && java.util.Objects.equals(((ReallyEfficientMoney) o).text, text);
  }

  @Override public int hashCode() { return cents; }

  @Override public void writeExternal(ObjectOutput out) throws IOException {
    out.writeInt(cents);
  }

  @Override public void readExternal(ObjectInput in) throws IOException {
    cents = in.readInt();
    text = cents + " cents.";
  }
}
