package seed.serial;

import java.io.Serializable;

/**
 * The seed's value-object base class (experiment 3 of the seed suite): a value object keeps its
 * string form and caches its hash code, all as serializable fields, so that default Java
 * serialization writes all three for every subclass instance.
 */
public abstract class ValueObject implements Serializable {
  private static final long serialVersionUID = 1L;
  private String stringifiedRepresentation;
  private boolean alreadyHashed;
  private int hashCode;

  /** For Externalizable subclasses, which must have a public no-argument constructor. */
  protected ValueObject() {}

  protected ValueObject(String stringifiedRepresentation) {
    this.stringifiedRepresentation = stringifiedRepresentation;
  }

  /** Sets the string form (used by subclasses that rebuild it after reading). */
  protected void setStringifiedRepresentation(String s) {
    stringifiedRepresentation = s;
    alreadyHashed = false;
  }

  @Override public String toString() { return stringifiedRepresentation; }

  @Override public int hashCode() {
    if (!alreadyHashed) {
      hashCode = stringifiedRepresentation == null ? 0 : stringifiedRepresentation.hashCode();
      alreadyHashed = true;
    }
    return hashCode;
  }

  @Override public boolean equals(Object o) {
    return o != null && o.getClass() == getClass()
        && java.util.Objects.equals(((ValueObject) o).stringifiedRepresentation, stringifiedRepresentation);
  }
}
