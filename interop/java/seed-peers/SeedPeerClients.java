import com.squarespace.hopper.types.Order;
import java.net.URL;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Service;
import org.example.remoting.Item;
import org.springframework.remoting.httpinvoker.HttpInvokerProxyFactoryBean;
import org.springframework.remoting.httpinvoker.SimpleHttpInvokerRequestExecutor;

/**
 * The clients of SeedPeerServer, loaded by SeedJavaClient by name for the modes spring and jaxws
 * (so that SeedJavaClient itself compiles with the Hessian jar alone).
 */
public final class SeedPeerClients {
  private SeedPeerClients() {}

  /** A client of the W1/W2 service at url in mode spring or jaxws. */
  public static RpcBenchService bench(String url, String mode) throws Exception {
    switch (mode) {
      case "spring": {
        HttpInvokerProxyFactoryBean f = new HttpInvokerProxyFactoryBean();
        f.setServiceUrl(url);
        f.setServiceInterface(RpcBenchService.class);
        f.setHttpInvokerRequestExecutor(new SimpleHttpInvokerRequestExecutor());
        f.afterPropertiesSet();
        return (RpcBenchService) f.getObject();
      }
      case "jaxws": {
        Service service = Service.create(new URL(url + "?wsdl"), new QName("urn:seed", "SeedSoapBenchService"));
        SeedSoapBench port = service.getPort(new QName("urn:seed", "SeedSoapBenchPort"), SeedSoapBench.class);
        // calls go to url itself, not to the address the WSDL names (the server's own port): so a
        // counting relay at url sees them
        ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, url);
        return new RpcBenchService() {
          public List<Item> getItems(int n) { return port.getItems(n).item; }

          public Order exchange(Order o) { return port.exchange(o); }
        };
      }
      default:
        throw new IllegalArgumentException("unknown mode " + mode);
    }
  }
}
