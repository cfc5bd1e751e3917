import com.caucho.hessian.client.HessianProxyFactory;

/** The implementation of RpcFaultService. */
public class RpcFaultServiceImpl implements RpcFaultService {
  public String chain(String message) {
    ArithmeticException root = new ArithmeticException("/ by zero");
    java.io.IOException io = new java.io.IOException("disk gone", root);
    throw new IllegalStateException(message, io);
  }

  public String loop() {
    IllegalStateException a = new IllegalStateException("a");
    IllegalArgumentException b = new IllegalArgumentException("b", a);
    a.initCause(b);
    throw a;
  }

  /** What a Rust service's fault becomes for a Java caller. */
  public interface Thrower { String fail(String message); }

  public String catchFrom(String url) {
    try {
      Thrower t = (Thrower) new HessianProxyFactory().create(Thrower.class, url);
      t.fail("from rust");
      return "no exception";
    } catch (IllegalArgumentException e) {
      return "caught IllegalArgumentException: " + e.getMessage();
    } catch (Exception e) {
      return "caught other " + e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
