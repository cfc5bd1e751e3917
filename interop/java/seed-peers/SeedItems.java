import java.util.List;
import org.example.remoting.Item;

/** The reply of SeedSoapBench.getItems: with bare SOAP parameters, JAXB needs a class, not a List. */
public class SeedItems {
  public List<Item> item;

  public SeedItems() {}

  public SeedItems(List<Item> item) { this.item = item; }
}
