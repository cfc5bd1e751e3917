import com.squarespace.hopper.types.Order;
import org.example.remoting.Item;
import java.util.List;

/** The W1/W2 service of the Serving conventions (path /bench). */
public interface RpcBenchService {
  /** W1: the list of n items. */
  List<Item> getItems(int n);

  /** W2: answers the reply graph when given the request graph; throws otherwise. */
  Order exchange(Order request);
}
