import com.squarespace.hopper.types.Order;
import java.rmi.registry.LocateRegistry;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.example.remoting.Item;

/**
 * The Java clients of the seed suite: SeedJavaClient URL MODE WORKLOAD PREWARM WARMUP MEASURED [N...]
 * <ul>
 *   <li>MODE: h2, h1, hybrid, burlap (Caucho's proxies, as RpcJavaClient makes them), rmi (URL
 *       is then rmi://127.0.0.1:PORT/bench), or spring and jaxws (the clients of
 *       interop/java/seed-peers/SeedPeerClients.java, loaded by name: they need Spring's and
 *       JAX-WS's jars, which the seed suite adds to the class path);
 *   <li>WORKLOAD: w1 (getItems(n) for every N) or w2 (exchange of the W2 request);
 *   <li>PREWARM calls of getItems(100) first (PREWARM is COUNT or COUNT/SECONDS: at most that
 *       many seconds of them), for the JIT, then per point WARMUP calls and MEASURED timed calls.
 * </ul>
 * Every reply is checked (W1: its length and the first, middle and last item; W2: the whole graph
 * against the specified reply); a wrong reply prints "FAIL why" and exits 1. Prints per point
 * "POINT x n=.. mean_us=.. median_us=.. p99_us=.. min_us=.. max_us=..".
 */
public final class SeedJavaClient {
  private SeedJavaClient() {}

  interface Bench {
    List<Item> getItems(int n) throws Exception;

    Order exchange(Order o) throws Exception;
  }

  static Bench bench(String url, String mode) throws Exception {
    if (mode.equals("rmi")) {
      java.net.URI u = new java.net.URI(url);
      SeedRmiBench r = (SeedRmiBench) LocateRegistry.getRegistry(u.getHost(), u.getPort()).lookup("bench");
      return new Bench() {
        public List<Item> getItems(int n) throws Exception { return r.getItems(n); }

        public Order exchange(Order o) throws Exception { return r.exchange(o); }
      };
    }
    RpcBenchService p = mode.equals("spring") || mode.equals("jaxws")
        ? (RpcBenchService) Class.forName("SeedPeerClients").getMethod("bench", String.class, String.class).invoke(null, url, mode)
        : RpcJavaClient.proxy(RpcBenchService.class, url, mode, false);
    return new Bench() {
      public List<Item> getItems(int n) { return p.getItems(n); }

      public Order exchange(Order o) { return p.exchange(o); }
    };
  }

  static void fail(String why) {
    System.out.println("FAIL " + why);
    System.out.flush();
    System.exit(1);
  }

  static void checkItems(List<Item> l, int n) {
    if (l == null || l.size() != n) fail("getItems(" + n + ") answered " + (l == null ? "null" : l.size() + " items"));
    for (int i : new int[] {0, n / 2, n - 1}) {
      if (n > 0 && !Item.of(i).equals(l.get(i))) fail("getItems(" + n + ") item " + i + " is wrong: " + l.get(i));
    }
  }

  static long once(Bench b, String workload, int n, Order request, Order reply) throws Exception {
    long t0 = System.nanoTime();
    if (workload.equals("w1")) {
      List<Item> l = b.getItems(n);
      long t = System.nanoTime() - t0;
      checkItems(l, n);
      return t;
    }
    Order o = b.exchange(request);
    long t = System.nanoTime() - t0;
    if (!reply.equals(o)) fail("exchange answered a different graph: " + o);
    return t;
  }

  public static void main(String[] args) throws Exception {
    String url = args[0], mode = args[1], workload = args[2];
    String[] pw = args[3].split("/");
    int prewarm = Integer.parseInt(pw[0]), warmup = Integer.parseInt(args[4]), measured = Integer.parseInt(args[5]);
    long prewarmEnd = System.nanoTime() + (long) ((pw.length > 1 ? Double.parseDouble(pw[1]) : 1e6) * 1e9);
    int[] sizes = workload.equals("w1")
        ? Arrays.stream(Arrays.copyOfRange(args, 6, args.length)).mapToInt(Integer::parseInt).toArray()
        : new int[] {0};
    Bench b = bench(url, mode);
    Order request = Workloads.request(), reply = Workloads.reply();
    for (int i = 0; i < prewarm && System.nanoTime() < prewarmEnd; i++) once(b, workload, 100, request, reply);
    for (int n : sizes) {
      for (int i = 0; i < warmup; i++) once(b, workload, n, request, reply);
      long[] t = new long[measured];
      for (int i = 0; i < measured; i++) t[i] = once(b, workload, n, request, reply);
      Arrays.sort(t);
      double sum = 0;
      for (long x : t) sum += x;
      int rank = Math.max(1, Math.min(measured, (int) Math.ceil(measured * 0.99))) - 1;
      System.out.println(String.format(Locale.ROOT,
          "POINT %d n=%d mean_us=%.3f median_us=%.3f p99_us=%.3f min_us=%.3f max_us=%.3f", n, measured,
          sum / measured / 1e3, t[measured / 2] / 1e3, t[rank] / 1e3, t[0] / 1e3, t[measured - 1] / 1e3));
    }
    System.out.flush();
    System.exit(0);
  }
}
