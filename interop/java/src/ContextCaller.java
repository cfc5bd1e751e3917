import com.caucho.hessian.client.HessianConnection;
import com.caucho.hessian.client.HessianProxy;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.io.HessianRemoteObject;
import java.lang.reflect.Proxy;
import java.net.URL;

/**
 * Calls {@code whoami()} of a service the way a Java application does: HessianProxyFactory with
 * HTTP basic authentication (setUser/setPassword) and, through a HessianProxy subclass, an extra
 * request header {@code X-Tenant}. Prints the answer, or the exception's class and message. For
 * the call context test (crates/hessian-rpc/tests/call_context.rs).
 * Usage: ContextCaller url user password tenant
 */
public class ContextCaller {
  /** The service's interface. */
  public interface Whoami {
    String whoami();
  }

  public static void main(String[] args) throws Exception {
    final String tenant = args[3];
    HessianProxyFactory factory = new HessianProxyFactory() {
      @Override
      public Object create(Class<?> api, URL url, ClassLoader loader) {
        HessianProxy handler = new HessianProxy(url, this, api) {
          @Override
          protected void addRequestHeaders(HessianConnection conn) {
            super.addRequestHeaders(conn);
            conn.addHeader("X-Tenant", tenant);
          }
        };
        return Proxy.newProxyInstance(loader, new Class<?>[] {api, HessianRemoteObject.class}, handler);
      }
    };
    factory.setUser(args[1]);
    factory.setPassword(args[2]);
    Whoami service = (Whoami) factory.create(Whoami.class, args[0]);
    try {
      System.out.println(service.whoami());
    } catch (Exception e) {
      System.out.println("exception " + e.getClass().getName() + ": " + e.getMessage());
    }
  }
}
