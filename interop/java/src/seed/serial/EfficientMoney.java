package seed.serial;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * The seed's EfficientMoney: the same ValueObject subclass, Externalizable, writing only its cents
 * and rebuilding the string form on read (the ValueObject superclass is still described in the
 * stream, since it is Serializable).
 */
public class EfficientMoney extends ValueObject implements Externalizable {
  private static final long serialVersionUID = 1L;
  private int cents;

  public EfficientMoney() {}

  public EfficientMoney(int cents) {
    super(cents + " cents.");
    this.cents = cents;
  }

  public int getCents() { return cents; }

  @Override public void writeExternal(ObjectOutput out) throws IOException {
    out.writeInt(cents);
  }

  @Override public void readExternal(ObjectInput in) throws IOException {
    cents = in.readInt();
    setStringifiedRepresentation(cents + " cents.");
  }
}
