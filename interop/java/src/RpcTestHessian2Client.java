import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;

/** Calls every method of RpcTestHessian2 at a URL (RpcJavaClient URL MODE test2). */
public final class RpcTestHessian2Client {
  private RpcTestHessian2Client() {}

  public static void run(String url, String mode) throws Exception {
    RpcTestHessian2 s = RpcJavaClient.proxy(RpcTestHessian2.class, url, mode, false);
    Method[] methods = RpcTestHessian2.class.getMethods();
    Arrays.sort(methods, Comparator.comparing(Method::getName));
    for (Method m : methods) {
      String name = m.getName();
      try {
        if (name.equals("methodNull") || name.equals("replyNull")) {
          Object r = m.invoke(s);
          RpcJavaClient.check(name, r == null, "got " + r);
        } else if (name.startsWith("reply")) {
          Object r = m.invoke(s);
          String diff = H2Catalogue.argMismatch("arg" + name.substring(5), r);
          RpcJavaClient.check(name, diff == null, diff);
        } else if (name.startsWith("arg")) {
          Object r = m.invoke(s, H2Catalogue.value("reply" + name.substring(3)));
          RpcJavaClient.check(name, Boolean.TRUE.equals(r), String.valueOf(r));
        }
      } catch (Throwable t) {
        RpcJavaClient.check(name, false, RpcJavaClient.unwrap(t).toString());
      }
    }
  }
}
