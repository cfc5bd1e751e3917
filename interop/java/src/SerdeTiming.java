import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.HessianInput;
import com.caucho.hessian.io.HessianOutput;
import com.caucho.hessian.io.SerializerFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * JIT-warmed serialization cost of the Java reference for the serde benchmark
 * (crates/hessian-bench/benches/serde.rs): W1 (the 5000-item list getItems returns) in Hessian 2
 * and Hessian 1, W3 (one Money, and a list of 10,000) in Hessian 2, each encoded and decoded.
 *
 * <pre>
 * SerdeTiming [WARMUP_S [MEASURE_S [jdk]]]   seconds per case, default 3 and 3
 * </pre>
 *
 * Encode: a new Hessian2Output/HessianOutput per message on a reset, reused ByteArrayOutputStream,
 * writeObject, flush, close, as a sender does. Decode: a new Hessian2Input/HessianInput per message
 * on the bytes, readObject into the Java classes. The memory streams are the JDK's classes without
 * their per-call lock (Sink, Source): Hessian 1 reads and writes one byte per stream call, and the
 * JDK's synchronized ByteArrayOutputStream.write(int)/ByteArrayInputStream.read() would time the
 * lock, not the codec (Hessian 2 buffers, so it barely notices); "jdk" uses the JDK's streams. One SerializerFactory is shared by all, as a
 * server shares it. Every case first runs WARMUP_S seconds (all cases are warmed before any is
 * measured, so the JIT's type profiles are settled), then MEASURE_S seconds of samples; a sample
 * times BATCH messages back to back (BATCH > 1 only for the sub-microsecond single Money). Every
 * result is checked outside the timed window (size, a rotating element, and fully at the end), so
 * the work cannot be dropped. Prints one line per case:
 *
 * <pre>
 * java CASE FORMAT encode|decode median_us=.. mean_us=.. min_us=.. bytes=.. samples=.. batch=.. gcs=..
 * </pre>
 * times per message in microseconds; gcs = garbage collections during the measurement. A first
 * line "java info ..." records the VM, its collectors, its JIT and its options.
 */
public final class SerdeTiming {
  static final SerializerFactory FACTORY = new SerializerFactory();
  static boolean jdkStreams;
  static ByteArrayOutputStream BOS;

  /** ByteArrayOutputStream without the lock on every write. */
  static final class Sink extends ByteArrayOutputStream {
    Sink(int size) {
      super(size);
    }

    private void room(int n) {
      if (count + n > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + n));
    }

    @Override public void write(int b) {
      room(1);
      buf[count++] = (byte) b;
    }

    @Override public void write(byte[] b, int off, int len) {
      room(len);
      System.arraycopy(b, off, buf, count, len);
      count += len;
    }

    @Override public void reset() {
      count = 0;
    }
  }

  /** ByteArrayInputStream without the lock on every read. */
  static final class Source extends InputStream {
    private final byte[] b;
    private int pos;

    Source(byte[] b) {
      this.b = b;
    }

    @Override public int read() {
      return pos < b.length ? b[pos++] & 0xff : -1;
    }

    @Override public int read(byte[] to, int off, int len) {
      if (len == 0) return 0;
      if (pos >= b.length) return -1;
      int n = Math.min(len, b.length - pos);
      System.arraycopy(b, pos, to, off, n);
      pos += n;
      return n;
    }
  }

  static InputStream source(byte[] b) {
    return jdkStreams ? new ByteArrayInputStream(b) : new Source(b);
  }

  interface Op {
    /** Does one message; returns what check() inspects. */
    Object run() throws Exception;
  }

  interface Check {
    /** Throws unless the result of message number i is right. */
    void check(Object result, long i) throws Exception;
  }

  static final class Case {
    final String name;
    final int batch;
    final Op op;
    final Check check;
    final int bytes;

    Case(String name, int batch, int bytes, Op op, Check check) {
      this.name = name;
      this.batch = batch;
      this.bytes = bytes;
      this.op = op;
      this.check = check;
    }

    /** Runs `batch` messages and returns the nanoseconds they took; checks the last one after. */
    long sample(long i) throws Exception {
      Object last = null;
      long t0 = System.nanoTime();
      for (int k = 0; k < batch; k++) last = op.run();
      long t1 = System.nanoTime();
      check.check(last, i);
      return t1 - t0;
    }
  }

  static byte[] encodeH2(Object v) throws Exception {
    encodeH2Into(v);
    return BOS.toByteArray();
  }

  static ByteArrayOutputStream encodeH2Into(Object v) throws Exception {
    BOS.reset();
    Hessian2Output out = new Hessian2Output(BOS);
    out.setSerializerFactory(FACTORY);
    out.writeObject(v);
    out.flush();
    out.close();
    return BOS;
  }

  static ByteArrayOutputStream encodeH1Into(Object v) throws Exception {
    BOS.reset();
    HessianOutput out = new HessianOutput(BOS);
    out.setSerializerFactory(FACTORY);
    out.writeObject(v);
    out.flush();
    out.close();
    return BOS;
  }

  static Object decodeH2(byte[] b) throws Exception {
    Hessian2Input in = new Hessian2Input(source(b));
    in.setSerializerFactory(FACTORY);
    Object o = in.readObject();
    in.close();
    return o;
  }

  static Object decodeH1(byte[] b) throws Exception {
    HessianInput in = new HessianInput(source(b));
    in.setSerializerFactory(FACTORY);
    Object o = in.readObject();
    in.close();
    return o;
  }

  static void fail(String why) {
    throw new IllegalStateException(why);
  }

  /** An encode check: the same number of bytes as the reference encoding every time. */
  static Check sizeIs(int n) {
    return (r, i) -> {
      if (((ByteArrayOutputStream) r).size() != n) fail("encoded " + ((ByteArrayOutputStream) r).size() + " bytes, expected " + n);
    };
  }

  /** A decode check for a list: its size and element i % size, compared with the workload. */
  static Check listMatches(List<?> expected) {
    return (r, i) -> {
      List<?> got = (List<?>) r;
      if (got.size() != expected.size()) fail("decoded " + got.size() + " elements, expected " + expected.size());
      int k = (int) (i % expected.size());
      if (!expected.get(k).equals(got.get(k))) fail("element " + k + " decoded as " + got.get(k));
    };
  }

  static List<Case> cases() throws Exception {
    List<Case> cs = new ArrayList<>();
    List<?> items = Workloads.items(5000);
    byte[] itemsH2 = encodeH2(items);
    encodeH1Into(items);
    byte[] itemsH1 = BOS.toByteArray();
    Money money = Workloads.money();
    byte[] moneyH2 = encodeH2(money);
    List<?> moneys = Workloads.moneys(10000);
    byte[] moneysH2 = encodeH2(moneys);

    cs.add(new Case("w1-5000 h2 encode", 1, itemsH2.length, () -> encodeH2Into(items), sizeIs(itemsH2.length)));
    cs.add(new Case("w1-5000 h2 decode", 1, itemsH2.length, () -> decodeH2(itemsH2), listMatches(items)));
    cs.add(new Case("w1-5000 h1 encode", 1, itemsH1.length, () -> encodeH1Into(items), sizeIs(itemsH1.length)));
    cs.add(new Case("w1-5000 h1 decode", 1, itemsH1.length, () -> decodeH1(itemsH1), listMatches(items)));
    cs.add(new Case("w3-1 h2 encode", 1000, moneyH2.length, () -> encodeH2Into(money), sizeIs(moneyH2.length)));
    cs.add(new Case("w3-1 h2 decode", 1000, moneyH2.length, () -> decodeH2(moneyH2), (r, i) -> {
      if (!money.equals(r)) fail("decoded " + r);
    }));
    cs.add(new Case("w3-10000 h2 encode", 1, moneysH2.length, () -> encodeH2Into(moneys), sizeIs(moneysH2.length)));
    cs.add(new Case("w3-10000 h2 decode", 1, moneysH2.length, () -> decodeH2(moneysH2), listMatches(moneys)));

    // Full checks before anything is timed: the encodings decode to the workloads.
    if (!items.equals(decodeH2(itemsH2)) || !items.equals(decodeH1(itemsH1))) fail("W1 does not round-trip");
    if (!money.equals(decodeH2(moneyH2)) || !moneys.equals(decodeH2(moneysH2))) fail("W3 does not round-trip");
    return cs;
  }

  static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) n += Math.max(0, gc.getCollectionCount());
    return n;
  }

  static String us(double ns) {
    return String.format(Locale.ROOT, "%.3f", ns / 1000.0);
  }

  public static void main(String[] args) throws Exception {
    double warmup = args.length > 0 ? Double.parseDouble(args[0]) : 3.0;
    double measure = args.length > 1 ? Double.parseDouble(args[1]) : 3.0;
    jdkStreams = args.length > 2 && args[2].equals("jdk");
    BOS = jdkStreams ? new ByteArrayOutputStream(2 << 20) : new Sink(2 << 20);
    List<String> gcs = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) gcs.add(gc.getName());
    System.out.println("java info vm=\"" + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version")
        + "\" jit=\"" + ManagementFactory.getCompilationMXBean().getName() + "\" gc=\"" + String.join(", ", gcs)
        + "\" cpus=" + Runtime.getRuntime().availableProcessors() + " warmup_s=" + warmup + " measure_s=" + measure
        + " streams=" + (jdkStreams ? "jdk" : "unlocked")
        + " opts=\"" + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()) + "\"");
    System.out.flush();

    List<Case> cs = cases();
    long i = 0;
    for (Case c : cs) {
      long end = System.nanoTime() + (long) (warmup * 1e9);
      do {
        c.sample(i++);
      } while (System.nanoTime() < end);
    }
    for (Case c : cs) {
      double[] s = new double[1024];
      int n = 0;
      long gc0 = gcCount();
      long end = System.nanoTime() + (long) (measure * 1e9);
      while (n < 20 || System.nanoTime() < end) {
        if (n == s.length) s = Arrays.copyOf(s, n * 2);
        s[n++] = c.sample(i++) / (double) c.batch;
      }
      long gcN = gcCount() - gc0;
      // one more message, checked in full (every element of a decoded list)
      Object r = c.op.run();
      int elements = r instanceof List ? ((List<?>) r).size() : 1;
      for (long k = 0; k < elements; k++) c.check.check(r, k);
      s = Arrays.copyOf(s, n);
      double sum = 0;
      for (double x : s) sum += x;
      Arrays.sort(s);
      double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
      System.out.println("java " + c.name + " median_us=" + us(median) + " mean_us=" + us(sum / n) + " min_us=" + us(s[0])
          + " bytes=" + c.bytes + " samples=" + n + " batch=" + c.batch + " gcs=" + gcN);
      System.out.flush();
    }
  }
}
