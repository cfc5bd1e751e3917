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
 * <pre>SeedSerialTiming serve</pre>
 *
 * One JVM for the whole experiment, driven by commands on stdin (see main): the suite warms every
 * case first (so the JIT's profiles have settled), then times every case in rounds, the cases in
 * a rotating order. A sample times BATCH messages back to back (BATCH > 1 for the single
 * instance). A message is written with a new stream object on a reset buffer and read with a new
 * input stream, as a sender and a receiver do. Decoded values are checked against the originals
 * outside the timed window.
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

  static String join(double[] s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length; i++) {
      if (i > 0) b.append(',');
      b.append(String.format(Locale.ROOT, "%.4f", s[i]));
    }
    return b.toString();
  }

  /**
   * The command mode (the suite's experiment 3 runs one JVM for the whole experiment, its cases in
   * rounds): one command per line on stdin, one answer line each, until EOF.
   * <pre>
   * warm NAME COUNT SECONDS  encode, then decode, SECONDS/2 each, untimed  -> TIMES
   * run NAME COUNT SECONDS   encode, then decode, SECONDS/2 each, timed, the value checked after
   *                          -> TIMES bytes=B enc=us,us,... dec=us,us,...  (µs per message per sample)
   * </pre>
   * A command that fails answers "FAIL why"; an unknown case "FAIL no case NAME COUNT".
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 1 || !args[0].equals("serve")) {
      System.err.println("usage: SeedSerialTiming serve");
      System.exit(2);
    }
    List<Case> cases = new ArrayList<>();
    for (int count : new int[] {1, 10000}) {
      cases.add(new Case("jos-money", count, JOS, seed.serial.Money::new));
      cases.add(new Case("jos-efficient", count, JOS, seed.serial.EfficientMoney::new));
      cases.add(new Case("jos-really-efficient", count, JOS, seed.serial.ReallyEfficientMoney::new));
      cases.add(new Case("hessian2", count, HESSIAN2, Money::new));
    }
    java.io.BufferedReader in =
        new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] f = line.trim().split("\\s+");
      String answer;
      try {
        if (f.length != 4 || !(f[0].equals("warm") || f[0].equals("run")))
          throw new IllegalArgumentException("unknown command: " + line);
        Case c = null;
        for (Case k : cases)
          if (k.name.equals(f[1]) && k.count == Integer.parseInt(f[2])) c = k;
        if (c == null) throw new IllegalArgumentException("no case " + f[1] + " " + f[2]);
        double secs = Double.parseDouble(f[3]);
        double[] e = c.run(true, secs / 2), d = c.run(false, secs / 2);
        c.check();
        answer = f[0].equals("warm") ? "TIMES" : "TIMES bytes=" + c.bytes.length + " enc=" + join(e) + " dec=" + join(d);
      } catch (Exception e) {
        answer = "FAIL " + String.valueOf(e).replace('\n', ' ');
      }
      System.out.println(answer);
      System.out.flush();
    }
  }
}
