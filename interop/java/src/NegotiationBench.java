import com.caucho.hessian.client.HessianConnection;
import com.caucho.hessian.client.HessianConnectionFactory;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.client.HessianURLConnectionFactory;
import com.caucho.hessian.io.AbstractHessianInput;
import com.squarespace.hopper.types.Order;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.util.Arrays;

/**
 * One Java client's W2 exchange round trips for the negotiation benchmark
 * (crates/hessian-bench/src/negotiation.rs, the binary negotiation_bench).
 * Usage: NegotiationBench MODE URL WARMUP CALLS, MODE one of
 *   h1   Caucho's HessianProxyFactory, Hessian 1 call and Hessian 1 reply
 *   h2   Caucho's HessianProxyFactory, Hessian 2 call and reply
 *   h21  NegotiatingProxyFactory (Hessian 2 with the type negotiation extension)
 * Every reply is checked against the W2 reply (a wrong one exits 1). Bytes are HTTP bodies, counted
 * under Caucho's proxy by a wrapping HessianConnectionFactory and by NegotiatingProxyFactory's own
 * call record (a resent call counts both attempts). Prints one line:
 * RESULT mode=… calls=… mean_us=… median_us=… p99_us=… min_us=… max_us=… req_bytes=… reply_bytes=…
 * first_req_bytes=… first_reply_bytes=… resends=…  (bytes per measured call, averaged)
 *
 * Interleaved: NegotiationBench pair H2_URL H21_URL WARMUP WARMUP_MS CALLS [H1_URL]
 * One JVM, two clients: Caucho's HessianProxyFactory (Hessian 2, type maps off) calling H2_URL and
 * NegotiatingProxyFactory (2.1) calling H21_URL, and with H1_URL a third, Caucho's proxy in
 * Hessian 1 calling H1_URL. Each client's first call (for 2.1 the plain call that establishes the
 * maps), then warm-up rounds until both WARMUP rounds and WARMUP_MS milliseconds have passed (the
 * JIT of this JVM and of the servers), then CALLS measured rounds; in each round one call of each
 * client, in an order that rotates from round to round (order(): with two clients the Hessian 2
 * call first in even rounds, the 2.1 call first in odd ones), so that a drift in the machine's
 * load falls on all alike. Prints a RESULT line per client (mode=h2, mode=h21, mode=h1, as above,
 * plus warmup_rounds=… warmup_ms=…) and then each client's round trips, round by round, in
 * nanoseconds: "NS h2 t0 t1 …", "NS h21 t0 t1 …" (and "NS h1 …").
 */
public class NegotiationBench {
  /** Bytes of the current call's request and reply bodies, under Caucho's proxy. */
  static long reqBytes, replyBytes;

  /** Wraps Caucho's URL connections, counting the bytes of their bodies. */
  static final class CountingFactory implements HessianConnectionFactory {
    final HessianURLConnectionFactory inner = new HessianURLConnectionFactory();

    public void setHessianProxyFactory(HessianProxyFactory f) { inner.setHessianProxyFactory(f); }

    public HessianConnection open(URL url) throws IOException {
      HessianConnection c = inner.open(url);
      return new HessianConnection() {
        public void addHeader(String k, String v) { c.addHeader(k, v); }
        public OutputStream getOutputStream() throws IOException {
          return new FilterOutputStream(c.getOutputStream()) {
            @Override public void write(int b) throws IOException { reqBytes++; out.write(b); }
            @Override public void write(byte[] b, int off, int len) throws IOException { reqBytes += len; out.write(b, off, len); }
          };
        }
        public void sendRequest() throws IOException { c.sendRequest(); }
        public int getStatusCode() { return c.getStatusCode(); }
        public String getStatusMessage() { return c.getStatusMessage(); }
        public String getContentEncoding() { return c.getContentEncoding(); }
        public InputStream getInputStream() throws IOException {
          return new FilterInputStream(c.getInputStream()) {
            @Override public int read() throws IOException {
              int b = in.read();
              if (b >= 0) replyBytes++;
              return b;
            }
            @Override public int read(byte[] b, int off, int len) throws IOException {
              int n = in.read(b, off, len);
              if (n > 0) replyBytes += n;
              return n;
            }
            @Override public void close() throws IOException {
              // the decoder stops at the end of the reply value: count (and consume) the rest
              byte[] rest = new byte[512];
              for (int n; (n = in.read(rest)) > 0;) replyBytes += n;
              in.close();
            }
          };
        }
        public void close() throws IOException { c.close(); }
        public void destroy() throws IOException { c.destroy(); }
      };
    }
  }

  /** One client: a proxy and how its calls' bytes are counted. */
  static final class Bench {
    final String mode;
    final HessianProxyFactory factory;
    final NegotiatingProxyFactory negotiating;
    final RpcBenchService service;
    final Order request = Workloads.request(), expected = Workloads.reply();
    /** Bytes of the last call's request and reply bodies. */
    long req, rep;

    Bench(String mode, String url) throws Exception {
      this.mode = mode;
      HessianProxyFactory f;
      NegotiatingProxyFactory n = null;
      switch (mode) {
        case "h1":
          f = new HessianProxyFactory() {
            @Override public AbstractHessianInput getHessianInput(InputStream is) { return getHessian1Input(is); }
          };
          f.setHessian2Reply(false);
          break;
        case "h2":
          f = new HessianProxyFactory();
          f.setHessian2Request(true);
          break;
        case "h21":
          f = n = new NegotiatingProxyFactory();
          break;
        default:
          throw new IllegalArgumentException("unknown mode " + mode);
      }
      if (n == null) {
        CountingFactory counting = new CountingFactory();
        counting.setHessianProxyFactory(f);
        f.setConnectionFactory(counting);
      }
      f.setReadTimeout(60000);
      f.setConnectTimeout(10000);
      factory = f;
      negotiating = n;
      service = (RpcBenchService) f.create(RpcBenchService.class, url);
    }

    /** One checked call: its round trip in ns (its bytes in req, rep); exits 1 on a wrong reply. */
    long call(long i) {
      reqBytes = replyBytes = 0;
      long t0 = System.nanoTime();
      Order got = service.exchange(request);
      long dt = System.nanoTime() - t0;
      if (!expected.equals(got)) {
        System.out.println("FAIL " + mode + " call " + i + ": wrong reply " + got);
        System.exit(1);
      }
      req = reqBytes;
      rep = replyBytes;
      if (negotiating != null) {
        NegotiatingProxyFactory.CallRecord c = negotiating.lastCall();
        req = c.resent ? c.firstAttemptBytes + c.requestBytes : c.requestBytes;
        rep = c.replyBytes;
      }
      return dt;
    }

    long resends() { return negotiating == null ? 0 : negotiating.resends.get(); }
  }

  /** The RESULT line of `t` (measured round trips, ns) and the bytes counted. */
  static void result(String mode, long[] t, long req, long rep, long firstReq, long firstRep, long resends, String extra) {
    long[] sorted = t.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (long x : sorted) sum += x;
    int n = sorted.length;
    double p99 = sorted[(int) Math.min(n - 1, Math.max(0, Math.ceil(n * 0.99) - 1))] / 1000.0;
    System.out.printf(java.util.Locale.ROOT,
        "RESULT mode=%s calls=%d mean_us=%.1f median_us=%.1f p99_us=%.1f min_us=%.1f max_us=%.1f req_bytes=%.1f"
            + " reply_bytes=%.1f first_req_bytes=%d first_reply_bytes=%d resends=%d%s%n",
        mode, n, sum / n / 1000.0, sorted[n / 2] / 1000.0, p99, sorted[0] / 1000.0, sorted[n - 1] / 1000.0,
        (double) req / n, (double) rep / n, firstReq, firstRep, resends, extra);
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("pair")) {
      pair(args[1], args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]), Integer.parseInt(args[5]),
          args.length > 6 ? args[6] : null);
      return;
    }
    String mode = args[0], url = args[1];
    int warmup = Integer.parseInt(args[2]), calls = Integer.parseInt(args[3]);
    Bench b = new Bench(mode, url);
    long[] t = new long[calls];
    long req = 0, rep = 0, firstReq = 0, firstRep = 0;
    for (int i = 0; i < warmup + calls; i++) {
      long dt = b.call(i);
      if (i == 0) { firstReq = b.req; firstRep = b.rep; }
      if (i >= warmup) {
        t[i - warmup] = dt;
        req += b.req;
        rep += b.rep;
      }
    }
    result(mode, t, req, rep, firstReq, firstRep, b.resends(), "");
  }

  /**
   * The order of k clients in round r (as the Rust side's hessian_bench::rotation::order): round r
   * starts with client r mod k and goes forward in even rounds, backward in odd ones; with two
   * clients, which one goes first alternates.
   */
  static int[] order(int k, long r) {
    int[] o = new int[k];
    int start = (int) (r % k);
    for (int j = 0; j < k; j++) o[j] = r % 2 == 0 ? (start + j) % k : (start + k - j) % k;
    return o;
  }

  /** The interleaved mode (see the class comment). */
  static void pair(String h2Url, String h21Url, int warmup, long warmupMs, int calls, String h1Url) throws Exception {
    Bench[] b = h1Url == null
        ? new Bench[] {new Bench("h2", h2Url), new Bench("h21", h21Url)}
        : new Bench[] {new Bench("h2", h2Url), new Bench("h21", h21Url), new Bench("h1", h1Url)};
    int k = b.length;
    long[][] t = new long[k][calls];
    long[] req = new long[k], rep = new long[k], firstReq = new long[k], firstRep = new long[k];
    for (int c = 0; c < k; c++) {
      b[c].call(0);
      firstReq[c] = b[c].req;
      firstRep[c] = b[c].rep;
    }
    long start = System.nanoTime();
    long rounds = 1;
    for (; rounds < warmup || (System.nanoTime() - start) / 1_000_000 < warmupMs; rounds++) {
      for (int c : order(k, rounds)) b[c].call(rounds);
    }
    long warmedMs = (System.nanoTime() - start) / 1_000_000;
    for (int i = 0; i < calls; i++) {
      for (int c : order(k, i)) {
        t[c][i] = b[c].call(rounds + i);
        req[c] += b[c].req;
        rep[c] += b[c].rep;
      }
    }
    String extra = " warmup_rounds=" + rounds + " warmup_ms=" + warmedMs;
    for (int c = 0; c < k; c++)
      result(b[c].mode, t[c], req[c], rep[c], firstReq[c], firstRep[c], b[c].resends(), extra);
    for (int c = 0; c < k; c++) {
      StringBuilder line = new StringBuilder("NS ").append(b[c].mode);
      for (long x : t[c]) line.append(' ').append(x);
      System.out.println(line);
    }
    System.out.flush();
  }
}
