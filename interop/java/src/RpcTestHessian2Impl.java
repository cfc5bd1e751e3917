import java.lang.reflect.Proxy;

/** The Java TestHessian2 service: a dynamic proxy answering from H2Catalogue. */
public final class RpcTestHessian2Impl {
  private RpcTestHessian2Impl() {}

  /** A service object implementing RpcTestHessian2. */
  public static RpcTestHessian2 create() {
    return (RpcTestHessian2) Proxy.newProxyInstance(RpcTestHessian2.class.getClassLoader(),
        new Class<?>[] {RpcTestHessian2.class}, (proxy, m, args) -> {
          String name = m.getName();
          if (name.equals("methodNull") || name.equals("replyNull")) return null;
          if (name.startsWith("reply")) return H2Catalogue.value(name);
          if (name.startsWith("arg")) {
            String diff = H2Catalogue.argMismatch(name, args[0]);
            return diff == null ? Boolean.TRUE : name + ": " + diff;
          }
          if (name.equals("toString")) return "RpcTestHessian2Impl";
          if (name.equals("hashCode")) return 0;
          if (name.equals("equals")) return proxy == args[0];
          throw new UnsupportedOperationException(name);
        });
  }
}
