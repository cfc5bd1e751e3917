import com.squarespace.hopper.types.Order;
import javax.jws.WebService;

/** JAX-WS implementation of SeedSoapBench: the answers of RpcBenchServiceImpl. */
@WebService(endpointInterface = "SeedSoapBench", targetNamespace = "urn:seed", serviceName = "SeedSoapBenchService",
    portName = "SeedSoapBenchPort")
public class SeedSoapBenchImpl implements SeedSoapBench {
  private final RpcBenchServiceImpl impl = new RpcBenchServiceImpl();

  public SeedItems getItems(int n) { return new SeedItems(impl.getItems(n)); }

  public Order exchange(Order o) { return impl.exchange(o); }
}
