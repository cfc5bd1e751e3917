/** A linked node for object-graph cases of the Hessian 1 / Burlap catalogue (cycles, sharing). */
public class LegacyNode implements java.io.Serializable {
  public String name;
  public LegacyNode next;

  public LegacyNode() {}

  public LegacyNode(String name) { this.name = name; }
}
