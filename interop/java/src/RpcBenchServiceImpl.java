import com.squarespace.hopper.types.Order;
import org.example.remoting.Item;
import java.util.List;

/** Java implementation of the W1/W2 service, served by RpcJavaServer. */
public class RpcBenchServiceImpl implements RpcBenchService {
  private final Order request = Workloads.request();
  private final Order reply = Workloads.reply();

  public List<Item> getItems(int n) {
    if (n < 0 || n > 1000000) throw new IllegalArgumentException("getItems: n must be in 0..=1000000, got " + n);
    return Workloads.items(n);
  }

  public Order exchange(Order o) {
    if (!request.equals(o)) throw new IllegalArgumentException("exchange: the order is not the W2 request");
    return reply;
  }
}
