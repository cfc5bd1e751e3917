import com.caucho.burlap.client.BurlapProxyFactory;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.io.AbstractHessianInput;
import com.squarespace.hopper.types.Order;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Arrays;
import java.util.List;

/**
 * Java's proxies calling a server: RpcJavaClient URL MODE SUITE [ARGS].
 * MODE: h2 (Hessian 2 calls), hybrid (Java's default: c 2 0 call, Hessian 2 reply),
 * h1 (pure Hessian 1, with a factory whose reply input is Hessian 1), burlap.
 * SUITE: bench (every W1 size and W2, plus the W2 fault), overload, faults, test2 (every method of
 * RpcTestHessian2), refs (RpcRefsService: one object passed as two arguments), timing [W2 calls].
 * Prints "ok NAME" or "FAIL NAME: why" per check and exits 1 if any failed.
 * With -Dhessian.user=U -Dhessian.password=P the Hessian factories send HTTP basic
 * authentication (setUser/setPassword); https URLs use the JVM's trust store
 * (-Djavax.net.ssl.trustStore=...).
 */
public class RpcJavaClient {
  static int failed = 0, passed = 0;

  static void check(String name, boolean ok, String why) {
    if (ok) { passed++; System.out.println("ok " + name); }
    else { failed++; System.out.println("FAIL " + name + ": " + why); }
  }

  /** A Hessian factory for MODE; "h1" reads replies with Hessian 1 (4.0.38 would use Hessian 2). */
  static HessianProxyFactory hessianFactory(String mode) {
    HessianProxyFactory f;
    if (mode.equals("h1")) {
      f = new HessianProxyFactory() {
        @Override public AbstractHessianInput getHessianInput(InputStream is) { return getHessian1Input(is); }
      };
      f.setHessian2Reply(false);
    } else {
      f = new HessianProxyFactory();
      if (mode.equals("h2")) f.setHessian2Request(true);
      else if (!mode.equals("hybrid")) throw new IllegalArgumentException("unknown mode " + mode);
    }
    f.setReadTimeout(60000);
    f.setConnectTimeout(10000);
    String user = System.getProperty("hessian.user");
    if (user != null) {
      f.setUser(user);
      f.setPassword(System.getProperty("hessian.password", ""));
    }
    return f;
  }

  @SuppressWarnings("unchecked")
  static <T> T proxy(Class<T> api, String url, String mode, boolean overload) throws Exception {
    if (mode.equals("burlap")) {
      BurlapProxyFactory f = new BurlapProxyFactory();
      f.setOverloadEnabled(overload);
      return (T) f.create(api, url);
    }
    HessianProxyFactory f = hessianFactory(mode);
    f.setOverloadEnabled(overload);
    return (T) f.create(api, url);
  }

  /** The exception a proxy call threw, unwrapped. */
  static Throwable unwrap(Throwable t) {
    while ((t instanceof UndeclaredThrowableException || t instanceof InvocationTargetException) && t.getCause() != null)
      t = t.getCause();
    return t;
  }

  static final int[] SIZES = {1, 10, 50, 100, 250, 500, 1000, 2500, 5000};

  static void bench(String url, String mode) throws Exception {
    RpcBenchService s = proxy(RpcBenchService.class, url, mode, false);
    for (int n : SIZES) {
      List<?> got = s.getItems(n);
      check("getItems(" + n + ")", Workloads.items(n).equals(got), "got " + (got == null ? null : got.size() + " items"));
    }
    Order r = s.exchange(Workloads.request());
    check("exchange(request)", Workloads.reply().equals(r), "got " + r);
    try {
      s.exchange(Workloads.reply());
      check("exchange(wrong order) faults", false, "no exception");
    } catch (Throwable t) {
      Throwable e = unwrap(t);
      check("exchange(wrong order) faults", e instanceof IllegalArgumentException
          && String.valueOf(e.getMessage()).contains("exchange"), e.toString());
    }
  }

  static void faults(String url, String mode) throws Exception {
    RpcBenchService s = proxy(RpcBenchService.class, url, mode, false);
    try {
      s.getItems(-1);
      check("getItems(-1) faults", false, "no exception");
    } catch (Throwable t) {
      Throwable e = unwrap(t);
      check("getItems(-1) faults", e instanceof IllegalArgumentException
          && String.valueOf(e.getMessage()).contains("getItems"), e.toString());
    }
    RpcOverloadService o = proxy(RpcOverloadService.class, url, mode, false);
    try {
      o.dialect();
      check("unknown method faults", false, "no exception");
    } catch (Throwable t) {
      Throwable e = unwrap(t);
      check("unknown method faults", String.valueOf(e.getMessage()).contains("The service has no method named: dialect"),
          e.toString());
    }
  }

  static void overload(String url, String mode) throws Exception {
    RpcOverloadService o = proxy(RpcOverloadService.class, url, mode, true);
    check("add_int", "int:4".equals(o.add(4)), o.add(4));
    // BurlapProxy mangles by arity only (name__N), so it cannot tell add(int,int) from add(String,String)
    if (!mode.equals("burlap")) check("add_int_int", "int,int:7".equals(o.add(3, 4)), o.add(3, 4));
    check("add_string_string", "string,string:ab".equals(o.add("a", "b")), o.add("a", "b"));
    RpcOverloadService plain = proxy(RpcOverloadService.class, url, mode, false);
    check("add by arity (add__1)", "int:5".equals(plain.add(5)), plain.add(5));
    System.out.println("dialect " + plain.dialect());
  }

  static void refs(String url, String mode) throws Exception {
    RpcRefsService s = proxy(RpcRefsService.class, url, mode, false);
    com.squarespace.hopper.types.Money m = new com.squarespace.hopper.types.Money(5000, "EUR");
    check("same(m, m)", s.same(m, m), "the server saw two different values");
    List<com.squarespace.hopper.types.Money> l = s.second(m, new java.util.ArrayList<>(List.of(m, m)));
    check("second(m, [m, m])", l.size() == 2 && m.equals(l.get(0)) && m.equals(l.get(1)), String.valueOf(l));
  }

  static double[] stats(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    double sum = 0;
    for (long x : s) sum += x;
    return new double[] {sum / s.length / 1000.0, s[s.length / 2] / 1000.0, s[(int) Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] / 1000.0};
  }

  static void timing(String url, String mode, int w2Calls) throws Exception {
    RpcBenchService s = proxy(RpcBenchService.class, url, mode, false);
    for (int n : SIZES) {
      for (int i = 0; i < 10; i++) s.getItems(n);
      long[] t = new long[100];
      for (int i = 0; i < t.length; i++) {
        long t0 = System.nanoTime();
        List<?> l = s.getItems(n);
        t[i] = System.nanoTime() - t0;
        if (l.size() != n) throw new IllegalStateException("short list");
      }
      double[] st = stats(t);
      System.out.printf("RESULT W1 n=%d mean_us=%.1f median_us=%.1f p99_us=%.1f%n", n, st[0], st[1], st[2]);
    }
    Order req = Workloads.request();
    for (int i = 0; i < Math.min(1000, w2Calls); i++) s.exchange(req);
    long[] t = new long[w2Calls];
    for (int i = 0; i < t.length; i++) {
      long t0 = System.nanoTime();
      s.exchange(req);
      t[i] = System.nanoTime() - t0;
    }
    double[] st = stats(t);
    System.out.printf("RESULT W2 calls=%d mean_us=%.1f median_us=%.1f p99_us=%.1f%n", w2Calls, st[0], st[1], st[2]);
  }

  public static void main(String[] args) throws Exception {
    String url = args[0], mode = args[1], suite = args[2];
    switch (suite) {
      case "bench": bench(url, mode); break;
      case "faults": faults(url, mode); break;
      case "overload": overload(url, mode); break;
      case "refs": refs(url, mode); break;
      case "timing": timing(url, mode, args.length > 3 ? Integer.parseInt(args[3]) : 5000); break;
      case "test2": RpcTestHessian2Client.run(url, mode); break;
      default: throw new IllegalArgumentException("unknown suite " + suite);
    }
    System.out.println("summary: passed=" + passed + " failed=" + failed);
    System.exit(failed == 0 ? 0 : 1);
  }
}
