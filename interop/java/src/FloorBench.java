import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.server.HessianSkeleton;
import com.squarespace.hopper.types.Order;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Executors;

/**
 * The floor of a Java to Java W2 round trip (issue 26 item 4): how much of it is Hessian work at
 * all. One server JVM ({@code FloorBench server}) answers /bench with Caucho's HessianSkeleton
 * behind com.sun.net.httpserver, exactly as RpcJavaServer does, and /raw with the W2 reply's bytes
 * (as /bench writes them), without reading the request's. One client JVM ({@code FloorBench pair})
 * interleaves, round by round in rotating order, three clients:
 *   h2        Caucho's HessianProxyFactory calling /bench (Hessian 2 on both sides, the benchmark's
 *             Hessian 2 row)
 *   raw_bench the W2 request's bytes (as Caucho's proxy writes them), pre-encoded once, posted with
 *             HttpURLConnection (the headers Caucho's proxy sends) to /bench, the reply's bytes read
 *             and compared, not decoded: Hessian work on the server side only
 *   raw       the same to /raw: no Hessian work on either side, HTTP and loopback alone
 * Prints a line per client (median, mean, p10, p90 in µs) and the ratios of the medians to h2's, in
 * 5 consecutive blocks of rounds too (the spread). The share of Hessian work in a round trip is
 * 1 - raw/h2; the server's share alone 1 - raw/raw_bench.
 *
 * {@code FloorBench codec [ITERATIONS]} times, in this JVM, the four Hessian steps of a W2 round
 * trip (client writes the call, server reads it, server writes the reply, client reads it), each
 * plain (Caucho's Hessian2Output and Hessian2Input, class definitions written and read) and under a
 * type map (the map's classes pre-defined: Negotiation.RecordingOutput seeded, PlannedInput), to
 * give the class definitions' own cost: the most the extension can save per round trip. Prints
 * ns per step (median of 7 runs) and the sums.
 * Usage: FloorBench server [port] | FloorBench pair BASE_URL WARMUP WARMUP_MS CALLS | FloorBench codec [N]
 */
public class FloorBench {
  public static void main(String[] args) throws Throwable {
    if (args[0].equals("server")) server(args.length > 1 ? Integer.parseInt(args[1]) : 0);
    else if (args[0].equals("codec")) codec(args.length > 1 ? Integer.parseInt(args[1]) : 100000);
    else pair(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
  }

  /** The W2 call's bytes as Caucho's proxy writes them (Hessian 2 call). */
  static byte[] request() throws Exception {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bo);
    out.call("exchange", new Object[] {Workloads.request()});
    out.flush();
    return bo.toByteArray();
  }

  static void server(int port) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
    server.setExecutor(Executors.newFixedThreadPool(8));
    RpcJavaServer.mount(server, "/bench", new RpcBenchServiceImpl(), RpcBenchService.class);
    // the reply's bytes, as the skeleton writes them for the W2 request
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    new HessianSkeleton(new RpcBenchServiceImpl(), RpcBenchService.class)
        .invoke(new ByteArrayInputStream(request()), bo);
    byte[] reply = bo.toByteArray();
    server.createContext("/raw", (HttpExchange ex) -> {
      try {
        ex.getRequestBody().readAllBytes();
        ex.getResponseHeaders().set("Content-Type", "x-application/hessian");
        ex.sendResponseHeaders(200, reply.length);
        ex.getResponseBody().write(reply);
      } finally {
        ex.close();
      }
    });
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
  }

  interface Client { void call() throws Exception; }

  static byte[] post(URL url, byte[] body) throws Exception {
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setDoOutput(true);
    c.setRequestMethod("POST");
    c.setRequestProperty("Content-Type", "x-application/hessian");
    c.setRequestProperty("Accept-Encoding", "deflate");
    try (OutputStream os = c.getOutputStream()) {
      os.write(body);
    }
    if (c.getResponseCode() != 200) throw new IllegalStateException("status " + c.getResponseCode());
    try (InputStream is = c.getInputStream()) {
      return is.readAllBytes();
    }
  }

  static void pair(String base, int warmup, long warmupMs, int calls) throws Exception {
    HessianProxyFactory f = new HessianProxyFactory();
    f.setHessian2Request(true);
    RpcBenchService h2 = (RpcBenchService) f.create(RpcBenchService.class, base + "/bench");
    Order expected = Workloads.reply(), request = Workloads.request();
    byte[] req = request();
    URL bench = new URL(base + "/bench"), raw = new URL(base + "/raw");
    byte[] replyBytes = post(bench, req);
    String[] names = {"h2", "raw_bench", "raw"};
    Client[] clients = {
      () -> { if (!expected.equals(h2.exchange(request))) throw new IllegalStateException("wrong h2 reply"); },
      () -> { if (!Arrays.equals(post(bench, req), replyBytes)) throw new IllegalStateException("wrong raw_bench reply"); },
      () -> { if (!Arrays.equals(post(raw, req), replyBytes)) throw new IllegalStateException("wrong raw reply"); },
    };
    int k = clients.length;
    long start = System.nanoTime();
    long rounds = 0;
    for (; rounds < warmup || (System.nanoTime() - start) / 1_000_000 < warmupMs; rounds++)
      for (int j = 0; j < k; j++) clients[(int) ((rounds + j) % k)].call();
    long[][] t = new long[k][calls];
    for (int i = 0; i < calls; i++)
      for (int j = 0; j < k; j++) {
        int c = (i + j) % k;
        long t0 = System.nanoTime();
        clients[c].call();
        t[c][i] = System.nanoTime() - t0;
      }
    System.out.printf(Locale.ROOT, "floor: %d warm-up rounds, %d measured rounds of %d interleaved calls, request %d B, reply %d B%n",
        rounds, calls, k, req.length, replyBytes.length);
    double h2Median = median(t[0], 0, calls);
    for (int c = 0; c < k; c++) {
      long[] s = t[c].clone();
      Arrays.sort(s);
      double mean = Arrays.stream(s).average().orElse(0);
      StringBuilder blocks = new StringBuilder();
      double lo = Double.MAX_VALUE, hi = 0;
      for (int b = 0; b < 5; b++) {
        int from = calls * b / 5, to = calls * (b + 1) / 5;
        double r = median(t[c], from, to) / median(t[0], from, to);
        lo = Math.min(lo, r);
        hi = Math.max(hi, r);
      }
      System.out.printf(Locale.ROOT,
          "RESULT client=%s median_us=%.1f mean_us=%.1f p10_us=%.1f p90_us=%.1f median_ratio_to_h2=%.3f blocks=%.3f-%.3f%n",
          names[c], s[calls / 2] / 1000.0, mean / 1000.0, s[calls / 10] / 1000.0, s[calls * 9 / 10] / 1000.0,
          s[calls / 2] / h2Median, lo, hi);
    }
  }

  static double median(long[] t, int from, int to) {
    long[] s = Arrays.copyOfRange(t, from, to);
    Arrays.sort(s);
    return s[s.length / 2];
  }

  interface Step { Object run() throws Throwable; }

  static volatile Object sink;

  /** Median ns per run of step over 7 timed runs of n (after 3 untimed). */
  static double time(Step step, int n) throws Throwable {
    double[] r = new double[7];
    for (int k = -3; k < r.length; k++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) sink = step.run();
      if (k >= 0) r[k] = (System.nanoTime() - t0) / (double) n;
    }
    Arrays.sort(r);
    return r[r.length / 2];
  }

  static void codec(int n) throws Throwable {
    com.caucho.hessian.io.SerializerFactory factory = new com.caucho.hessian.io.SerializerFactory();
    Order request = Workloads.request(), reply = Workloads.reply();
    // the plain messages (H 02 00 …) and their maps, with the classes written under them
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    Negotiation.RecordingOutput ro = new Negotiation.RecordingOutput(bo);
    ro.setSerializerFactory(factory);
    ro.call("exchange", new Object[] {request});
    ro.flush();
    byte[] call = bo.toByteArray();
    TypeMap callMap = TypeMap.ofMessage(call);
    Class<?>[] callClasses = ro.classesOf(callMap);
    bo = new ByteArrayOutputStream();
    ro = new Negotiation.RecordingOutput(bo);
    ro.setSerializerFactory(factory);
    ro.writeReply(reply);
    ro.flush();
    byte[] rep = bo.toByteArray();
    TypeMap replyMap = TypeMap.ofMessage(rep);
    Class<?>[] replyClasses = ro.classesOf(replyMap);
    // the referring messages' tails (after H 02 01 T 30 digest)
    ByteArrayOutputStream rb = new ByteArrayOutputStream();
    Negotiation.RecordingOutput seeded = new Negotiation.RecordingOutput(rb);
    seeded.setSerializerFactory(factory);
    seeded.seed(callMap, callClasses);
    seeded.call("exchange", new Object[] {request});
    seeded.flush();
    byte[] callTail = Arrays.copyOfRange(rb.toByteArray(), 3, rb.size()); // after H 02 00
    rb = new ByteArrayOutputStream();
    seeded = new Negotiation.RecordingOutput(rb);
    seeded.setSerializerFactory(factory);
    seeded.seed(replyMap, replyClasses);
    seeded.writeReply(reply);
    seeded.flush();
    byte[] replyTail = Arrays.copyOfRange(rb.toByteArray(), 3, rb.size());
    System.out.printf(Locale.ROOT, "codec: call %d B plain, %d B tail under its map of %d classes; reply %d B, %d B, %d classes%n",
        call.length, callTail.length, callMap.size(), rep.length, replyTail.length, replyMap.size());
    String[] names = {"client writes the call", "server reads the call", "server writes the reply", "client reads the reply"};
    Step[] plain = {
      () -> { ByteArrayOutputStream b = new ByteArrayOutputStream(); Hessian2Output o = new Hessian2Output(b);
        o.setSerializerFactory(factory); o.call("exchange", new Object[] {request}); o.flush(); return b; },
      () -> { com.caucho.hessian.io.Hessian2Input in = new com.caucho.hessian.io.Hessian2Input(
          new ByteArrayInputStream(call, 3, call.length - 3)); in.setSerializerFactory(factory);
        in.readCall(); in.readMethod(); in.readMethodArgLength(); Object o = in.readObject(Order.class); in.completeCall(); return o; },
      () -> { ByteArrayOutputStream b = new ByteArrayOutputStream(); Hessian2Output o = new Hessian2Output(b);
        o.setSerializerFactory(factory); o.writeReply(reply); o.flush(); return b; },
      () -> { com.caucho.hessian.io.Hessian2Input in = new com.caucho.hessian.io.Hessian2Input(
          new ByteArrayInputStream(rep, 3, rep.length - 3)); in.setSerializerFactory(factory); return in.readReply(Order.class); },
    };
    Step[] mapped = {
      () -> { ByteArrayOutputStream b = new ByteArrayOutputStream(); Negotiation.RecordingOutput o = new Negotiation.RecordingOutput(b);
        o.setSerializerFactory(factory); o.seed(callMap, callClasses); o.call("exchange", new Object[] {request}); o.flush();
        if (!o.wroteOnly()) throw new IllegalStateException(); return b; },
      () -> { PlannedInput in = new PlannedInput(new ByteArrayInputStream(callTail), factory); in.seed(callMap);
        in.readCall(); in.readMethod(); in.readMethodArgLength(); Object o = in.readObject(Order.class); in.completeCall(); return o; },
      () -> { ByteArrayOutputStream b = new ByteArrayOutputStream(); Negotiation.RecordingOutput o = new Negotiation.RecordingOutput(b);
        o.setSerializerFactory(factory); o.seed(replyMap, replyClasses); o.writeReply(reply); o.flush();
        if (!o.wroteOnly()) throw new IllegalStateException(); return b; },
      () -> { PlannedInput in = new PlannedInput(new ByteArrayInputStream(replyTail), factory); in.seed(replyMap);
        return in.readReply(Order.class); },
    };
    if (!request.equals(plain[1].run()) || !request.equals(mapped[1].run()) || !reply.equals(plain[3].run())
        || !reply.equals(mapped[3].run()))
      throw new IllegalStateException("codec: a message does not read back");
    double sp = 0, sm = 0;
    for (int i = 0; i < 4; i++) {
      double p = time(plain[i], n), m = time(mapped[i], n);
      sp += p;
      sm += m;
      System.out.printf(Locale.ROOT, "CODEC step=\"%s\" plain_ns=%.0f map_ns=%.0f saved_ns=%.0f%n", names[i], p, m, p - m);
    }
    System.out.printf(Locale.ROOT, "CODEC total plain_ns=%.0f map_ns=%.0f saved_ns=%.0f%n", sp, sm, sp - sm);
  }
}
