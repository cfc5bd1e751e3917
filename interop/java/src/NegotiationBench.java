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
 * (crates/hessian-bench/src/bin/negotiation_bench.rs).
 * Usage: NegotiationBench MODE URL WARMUP CALLS, MODE one of
 *   h1   Caucho's HessianProxyFactory, Hessian 1 call and Hessian 1 reply
 *   h2   Caucho's HessianProxyFactory, Hessian 2 call and reply
 *   h21  NegotiatingProxyFactory (Hessian 2 with the type negotiation extension)
 * Every reply is checked against the W2 reply (a wrong one exits 1). Bytes are HTTP bodies, counted
 * under Caucho's proxy by a wrapping HessianConnectionFactory and by NegotiatingProxyFactory's own
 * call record (a resent call counts both attempts). Prints one line:
 * RESULT mode=… calls=… mean_us=… median_us=… p99_us=… min_us=… max_us=… req_bytes=… reply_bytes=…
 * first_req_bytes=… first_reply_bytes=… resends=…  (bytes per measured call, averaged)
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

  public static void main(String[] args) throws Exception {
    String mode = args[0], url = args[1];
    int warmup = Integer.parseInt(args[2]), calls = Integer.parseInt(args[3]);
    HessianProxyFactory f;
    NegotiatingProxyFactory negotiating = null;
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
        f = negotiating = new NegotiatingProxyFactory();
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + mode);
    }
    if (negotiating == null) {
      CountingFactory counting = new CountingFactory();
      counting.setHessianProxyFactory(f);
      f.setConnectionFactory(counting);
    }
    f.setReadTimeout(60000);
    f.setConnectTimeout(10000);
    RpcBenchService s = (RpcBenchService) f.create(RpcBenchService.class, url);
    Order request = Workloads.request(), expected = Workloads.reply();
    long[] t = new long[calls];
    long req = 0, rep = 0, firstReq = 0, firstRep = 0;
    for (int i = 0; i < warmup + calls; i++) {
      reqBytes = replyBytes = 0;
      long t0 = System.nanoTime();
      Order got = s.exchange(request);
      long dt = System.nanoTime() - t0;
      if (!expected.equals(got)) {
        System.out.println("FAIL call " + i + ": wrong reply " + got);
        System.exit(1);
      }
      long q = reqBytes, r = replyBytes;
      if (negotiating != null) {
        NegotiatingProxyFactory.CallRecord c = negotiating.lastCall();
        q = c.resent ? c.firstAttemptBytes + c.requestBytes : c.requestBytes;
        r = c.replyBytes;
      }
      if (i == 0) { firstReq = q; firstRep = r; }
      if (i >= warmup) {
        t[i - warmup] = dt;
        req += q;
        rep += r;
      }
    }
    long[] sorted = t.clone();
    Arrays.sort(sorted);
    double sum = 0;
    for (long x : sorted) sum += x;
    int n = sorted.length;
    double p99 = sorted[(int) Math.min(n - 1, Math.max(0, Math.ceil(n * 0.99) - 1))] / 1000.0;
    System.out.printf(java.util.Locale.ROOT,
        "RESULT mode=%s calls=%d mean_us=%.1f median_us=%.1f p99_us=%.1f min_us=%.1f max_us=%.1f req_bytes=%.1f"
            + " reply_bytes=%.1f first_req_bytes=%d first_reply_bytes=%d resends=%d%n",
        mode, n, sum / n / 1000.0, sorted[n / 2] / 1000.0, p99, sorted[0] / 1000.0, sorted[n - 1] / 1000.0,
        (double) req / n, (double) rep / n, firstReq, firstRep, negotiating == null ? 0 : negotiating.resends.get());
  }
}
