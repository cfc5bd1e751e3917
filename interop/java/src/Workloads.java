import com.squarespace.hopper.types.*;
import org.example.remoting.Item;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/** The W1-W3 data sets of docs/workloads.md, built exactly as specified. */
public final class Workloads {
  private Workloads() {}

  /** W1: getItems(n). */
  public static List<Item> items(int n) {
    List<Item> l = new ArrayList<>(n);
    for (int i = 0; i < n; i++) l.add(Item.of(i));
    return l;
  }

  private static LineItem line(int k) {
    return new LineItem(new Product(String.format("SKU-%04d", k), "Product " + k, new com.squarespace.hopper.types.Money(k * 1000, "EUR")),
        k, new com.squarespace.hopper.types.Money(k * k * 1000, "EUR"));
  }

  /** W2: the specified request of exchange(Order). */
  public static Order request() {
    List<LineItem> lines = new ArrayList<>();
    for (int k = 1; k <= 3; k++) lines.add(line(k));
    return new Order(1001L, new Customer(42L, "Ada Lovelace", "ada@example.org",
        new Address("12 Analytical Row", "London", "N1 9GU", "GB")), lines,
        new com.squarespace.hopper.types.Money(14000, "EUR"), new Date(1200000000000L));
  }

  /** W2: the specified reply of exchange(Order). */
  public static Order reply() {
    List<LineItem> lines = new ArrayList<>();
    for (int k = 4; k <= 5; k++) lines.add(line(k));
    return new Order(1002L, new Customer(42L, "Ada Lovelace", "ada@example.org",
        new Address("1 Difference Engine Way", "Cambridge", "CB2 1TN", "GB")), lines,
        new com.squarespace.hopper.types.Money(41000, "EUR"), new Date(1200000060000L));
  }

  /** W3: one Money (cents = 1000). */
  public static Money money() { return new Money(1000); }

  /** W3: n Money instances, cents = i * 100. */
  public static List<Money> moneys(int n) {
    List<Money> l = new ArrayList<>(n);
    for (int i = 0; i < n; i++) l.add(new Money(i * 100));
    return l;
  }
}
