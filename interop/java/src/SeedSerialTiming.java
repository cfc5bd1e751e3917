import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Experiment 3 of the seed suite, the Java side: W3 Money (one instance, cents = 1000, and a list
 * of 10,000, cents = i * 100) through Java's ObjectOutputStream with the seed's three classes
 * (seed.serial.Money extending ValueObject, EfficientMoney and ReallyEfficientMoney as
 * Externalizable) and through Caucho's Hessian2Output (the W3 class Money, remote name "Money").
 *
 * <pre>SeedSerialTiming WARMUP_S MEASURE_S</pre>
 *
 * Every case is warmed up for WARMUP_S seconds before any is measured (so the JIT's profiles have
 * settled), then timed for MEASURE_S seconds; a sample times BATCH messages back to back (BATCH
 * > 1 for the single instance). A message is written with a new stream object on a reset buffer
 * and read with a new input stream, as a sender and a receiver do. Decoded values are checked
 * against the originals outside the timed window. Prints one line per case:
 * <pre>CASE name count bytes=.. enc_median_us=.. enc_p99_us=.. enc_min_us=.. enc_max_us=.. dec_... samples=..</pre>
 */
public final class SeedSerialTiming {
  private SeedSerialTiming() {}

  interface Codec {
    byte[] encode(Object v) throws Exception;

    Object decode(byte[] b) throws Exception;
  }

  static final SerializerFactory FACTORY = new SerializerFactory();

  static final Codec JOS = new Codec() {
    final ByteArrayOutputStream bos = new ByteArrayOutputStream(1 << 20);

    public byte[] encode(Object v) throws Exception {
      bos.reset();
      ObjectOutputStream out = new ObjectOutputStream(bos);
      out.writeObject(v);
      out.flush();
      return bos.toByteArray();
    }

    public Object decode(byte[] b) throws Exception {
      return new ObjectInputStream(new ByteArrayInputStream(b)).readObject();
    }
  };

  static final Codec HESSIAN2 = new Codec() {
    final ByteArrayOutputStream bos = new ByteArrayOutputStream(1 << 20);

    public byte[] encode(Object v) throws Exception {
      bos.reset();
      Hessian2Output out = new Hessian2Output(bos);
      out.setSerializerFactory(FACTORY);
      out.writeObject(v);
      out.flush();
      return bos.toByteArray();
    }

    public Object decode(byte[] b) throws Exception {
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(b));
      in.setSerializerFactory(FACTORY);
      return in.readObject();
    }
  };

  static final class Case {
    final String name;
    final int count;
    final Codec codec;
    final Object value;
    final byte[] bytes;
    final int batch;

    Case(String name, int count, Codec codec, IntFunction<Object> make) throws Exception {
      this.name = name;
      this.count = count;
      this.codec = codec;
      if (count == 1) {
        value = make.apply(1000);
      } else {
        List<Object> l = new ArrayList<>(count);
        for (int i = 0; i < count; i++) l.add(make.apply(i * 100));
        value = l;
      }
      bytes = codec.encode(value);
      batch = count == 1 ? 200 : 1;
      check();
    }

    void check() throws Exception {
      Object back = codec.decode(bytes);
      if (!value.equals(back)) throw new IllegalStateException(name + " x" + count + ": decoded value differs");
      if (!Arrays.equals(bytes, codec.encode(value))) throw new IllegalStateException(name + ": encoding not stable");
    }

    double[] run(boolean encode, double seconds) throws Exception {
      long end = System.nanoTime() + (long) (seconds * 1e9);
      double[] s = new double[1024];
      int n = 0;
      Object sink = null;
      do {
        long t0 = System.nanoTime();
        for (int i = 0; i < batch; i++) sink = encode ? codec.encode(value) : codec.decode(bytes);
        long t = System.nanoTime() - t0;
        if (n == s.length) s = Arrays.copyOf(s, n * 2);
        s[n++] = t / 1e3 / batch;
      } while (System.nanoTime() < end || n < 5);
      if (sink == null) throw new IllegalStateException("no result");
      return Arrays.copyOf(s, n);
    }
  }

  static String stats(String prefix, double[] s) {
    Arrays.sort(s);
    int n = s.length;
    int rank = Math.max(1, Math.min(n, (int) Math.ceil(n * 0.99))) - 1;
    return String.format(Locale.ROOT, "%s_median_us=%.4f %s_p99_us=%.4f %s_min_us=%.4f %s_max_us=%.4f", prefix,
        s[n / 2], prefix, s[rank], prefix, s[0], prefix, s[n - 1]);
  }

  public static void main(String[] args) throws Exception {
    double warm = Double.parseDouble(args[0]), measure = Double.parseDouble(args[1]);
    List<Case> cases = new ArrayList<>();
    for (int count : new int[] {1, 10000}) {
      cases.add(new Case("jos-money", count, JOS, seed.serial.Money::new));
      cases.add(new Case("jos-efficient", count, JOS, seed.serial.EfficientMoney::new));
      cases.add(new Case("jos-really-efficient", count, JOS, seed.serial.ReallyEfficientMoney::new));
      cases.add(new Case("hessian2", count, HESSIAN2, Money::new));
    }
    for (Case c : cases) {
      c.run(true, warm / 2);
      c.run(false, warm / 2);
    }
    for (Case c : cases) {
      double[] e = c.run(true, measure / 2), d = c.run(false, measure / 2);
      c.check();
      System.out.println("CASE " + c.name + " " + c.count + " bytes=" + c.bytes.length + " " + stats("enc", e) + " "
          + stats("dec", d) + " samples=" + e.length);
    }
    System.out.flush();
  }
}
