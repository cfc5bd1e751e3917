import com.squarespace.hopper.types.Order;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
 *
 * <p>Command mode, SeedJavaClient URL MODE serve (the seed suite's rounds keep one client per row
 * alive and warm): reads one command a line from stdin and answers one line on stdout, until EOF:
 * <ul>
 *   <li>{@code prewarm COUNT SECONDS}: at most COUNT calls of getItems(100), for at most SECONDS;
 *   <li>{@code w1 N WARMUP MEASURED}: WARMUP calls of getItems(N), then MEASURED timed ones;
 *   <li>{@code w2 WARMUP MEASURED}: the same with exchange of the W2 request;
 *   <li>{@code use URL}: a new client of URL (the seed suite's counting relay in front of the
 *       same server) for the commands that follow, {@code use counted} (rmi: the "bench-counted"
 *       stub, whose sockets count, see SeedCountingSockets) or {@code use direct} (the first);
 *   <li>{@code bytes}: answers "BYTES up down", the bytes the counting RMI sockets wrote and read
 *       so far in this JVM.
 * </ul>
 * Every reply is checked as above; the answer is "TIMES us1 us2 ..." (the measured calls' round
 * trips in microseconds, none for prewarm) or "FAIL why" (the client stays up for the next line).
 */
public final class SeedJavaClient {
  private SeedJavaClient() {}

  interface Bench {
    List<Item> getItems(int n) throws Exception;

    Order exchange(Order o) throws Exception;
  }

  static Bench bench(String url, String mode) throws Exception {
    return bench(url, mode, "bench");
  }

  static Bench bench(String url, String mode, String rmiName) throws Exception {
    if (mode.equals("rmi")) {
      java.net.URI u = new java.net.URI(url);
      SeedRmiBench r = (SeedRmiBench) LocateRegistry.getRegistry(u.getHost(), u.getPort()).lookup(rmiName);
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

  /** A wrong reply. */
  static final class Failed extends RuntimeException {
    Failed(String why) {
      super(why);
    }
  }

  static void fail(String why) {
    throw new Failed(why);
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
    if (args.length == 3 && args[2].equals("serve")) {
      serve(args[0], args[1]);
      System.exit(0);
    }
    try {
      measure(args);
    } catch (Failed f) {
      System.out.println("FAIL " + f.getMessage());
      System.out.flush();
      System.exit(1);
    }
  }

  /** The command mode (see the class comment). */
  static void serve(String url, String mode) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Order request = Workloads.request(), reply = Workloads.reply();
    Bench b = null, direct = null;
    for (String line; (line = in.readLine()) != null; ) {
      String[] f = line.trim().split("\\s+");
      StringBuilder out = new StringBuilder("TIMES");
      try {
        if (direct == null) direct = b = bench(url, mode);
        switch (f[0]) {
          case "use": {
            if (f.length < 2) fail("use needs URL, counted or direct");
            b = f[1].equals("direct") ? direct : f[1].equals("counted") ? bench(url, mode, "bench-counted") : bench(f[1], mode);
            break;
          }
          case "bytes": {
            out = new StringBuilder("BYTES " + SeedCountingSockets.UP.get() + " " + SeedCountingSockets.DOWN.get());
            break;
          }
          case "prewarm": {
            int count = Integer.parseInt(f[1]);
            long end = System.nanoTime() + (long) (Double.parseDouble(f[2]) * 1e9);
            for (int i = 0; i < count && System.nanoTime() < end; i++) once(b, "w1", 100, request, reply);
            break;
          }
          case "w1":
          case "w2": {
            boolean w1 = f[0].equals("w1");
            int n = w1 ? Integer.parseInt(f[1]) : 0, k = w1 ? 2 : 1;
            int warmup = Integer.parseInt(f[k]), measured = Integer.parseInt(f[k + 1]);
            for (int i = 0; i < warmup; i++) once(b, f[0], n, request, reply);
            long[] t = new long[measured];
            for (int i = 0; i < measured; i++) t[i] = once(b, f[0], n, request, reply);
            for (long x : t) out.append(String.format(Locale.ROOT, " %.3f", x / 1e3));
            break;
          }
          default:
            fail("unknown command: " + line);
        }
      } catch (Throwable e) {
        String why = e instanceof Failed ? e.getMessage() : e.toString();
        out = new StringBuilder("FAIL " + why.replace('\n', ' ').replace('\r', ' '));
      }
      System.out.println(out);
      System.out.flush();
    }
  }

  static void measure(String[] args) throws Exception {
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
