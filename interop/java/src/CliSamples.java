import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;

/**
 * Writes whole Hessian 2 messages (and one mixed value) with Hessian2Output to stdout, for the
 * command-line tool's byte-for-byte round-trip tests: {@code CliSamples MODE [N]}.
 */
public final class CliSamples {
  private CliSamples() {}

  // Eighteen classes, so that class references beyond 15 use the long `O int` form.
  static final class K0 implements Serializable { int v; K0(int v) { this.v = v; } }
  static final class K1 implements Serializable { int v; K1(int v) { this.v = v; } }
  static final class K2 implements Serializable { int v; K2(int v) { this.v = v; } }
  static final class K3 implements Serializable { int v; K3(int v) { this.v = v; } }
  static final class K4 implements Serializable { int v; K4(int v) { this.v = v; } }
  static final class K5 implements Serializable { int v; K5(int v) { this.v = v; } }
  static final class K6 implements Serializable { int v; K6(int v) { this.v = v; } }
  static final class K7 implements Serializable { int v; K7(int v) { this.v = v; } }
  static final class K8 implements Serializable { int v; K8(int v) { this.v = v; } }
  static final class K9 implements Serializable { int v; K9(int v) { this.v = v; } }
  static final class K10 implements Serializable { int v; K10(int v) { this.v = v; } }
  static final class K11 implements Serializable { int v; K11(int v) { this.v = v; } }
  static final class K12 implements Serializable { int v; K12(int v) { this.v = v; } }
  static final class K13 implements Serializable { int v; K13(int v) { this.v = v; } }
  static final class K14 implements Serializable { int v; K14(int v) { this.v = v; } }
  static final class K15 implements Serializable { int v; K15(int v) { this.v = v; } }
  static final class K16 implements Serializable { int v; K16(int v) { this.v = v; } }
  static final class K17 implements Serializable { int v; K17(int v) { this.v = v; } }

  /** A list exercising every type and the boundaries of every compact encoding. */
  static List<Object> mixed() {
    List<Object> l = new ArrayList<>();
    l.add(null);
    l.add(true);
    l.add(false);
    int[] ints = {0, 1, -1, -16, -17, 47, 48, -2048, -2049, 2047, 2048, -262144, -262145, 262143, 262144,
        Integer.MIN_VALUE, Integer.MAX_VALUE};
    for (int i : ints) l.add(i);
    long[] longs = {0L, -8L, -9L, 15L, 16L, -2048L, 2047L, -262144L, 262143L, 262144L, Integer.MIN_VALUE,
        Integer.MAX_VALUE, 1L + Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 10000000000L};
    for (long x : longs) l.add(x);
    double[] ds = {0.0, -0.0, 1.0, -1.0, 127.0, -128.0, 128.0, 32767.0, -32768.0, 32768.0, 0.001, 1.25, 0.1,
        -2147483.648, 1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
        Double.MAX_VALUE};
    for (double d : ds) l.add(d);
    l.add(new Date(1200000000000L));
    l.add(new Date(1200000000123L));
    l.add(new Date(-1L));
    l.add("");
    l.add("h\u00e9llo \u20ac \u0000");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 40000; i++) sb.appendCodePoint(i % 7 == 0 ? 0x1F600 : 'a' + i % 26);
    l.add(sb.toString());
    StringBuilder ascii = new StringBuilder();
    for (int i = 0; i < 70000; i++) ascii.append((char) ('a' + i % 26));
    l.add(ascii.toString());
    // A surrogate pair that would straddle the 0x8000-unit chunk boundary: Java shortens the chunk.
    l.add("a".repeat(0x7fff) + "\uD83D\uDE00tail");
    byte[] b = new byte[20000];
    for (int i = 0; i < b.length; i++) b[i] = (byte) (i * 31);
    l.add(b);
    l.add(new byte[0]);
    l.add(new byte[15]);
    l.add(new byte[16]);
    l.add(new byte[1023]);
    l.add(new byte[1024]);
    l.add(new byte[70000]);
    l.add(new int[] {1, 2, 3});
    l.add(new String[] {"a", "b"});
    l.add(new long[] {1L, 2L});
    l.add(new int[0]);
    Map<Object, Object> hm = new HashMap<>();
    hm.put(1, "one");
    hm.put("two", 2L);
    l.add(hm);
    Hashtable<String, Object> ht = new Hashtable<>();
    ht.put("k", "v");
    l.add(ht);
    Money m = new Money(7);
    l.add(m);
    l.add(m);
    l.add(l);
    l.add(1.5f);
    l.add((short) 3);
    l.add((byte) 4);
    l.add('x');
    l.add(new K0(0));
    l.add(new K1(1));
    l.add(new K2(2));
    l.add(new K3(3));
    l.add(new K4(4));
    l.add(new K5(5));
    l.add(new K6(6));
    l.add(new K7(7));
    l.add(new K8(8));
    l.add(new K9(9));
    l.add(new K10(10));
    l.add(new K11(11));
    l.add(new K12(12));
    l.add(new K13(13));
    l.add(new K14(14));
    l.add(new K15(15));
    l.add(new K16(16));
    l.add(new K17(17));
    return l;
  }

  public static void main(String[] args) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bos);
    switch (args[0]) {
      case "call-exchange":
        out.call("exchange", new Object[] {Workloads.request()});
        break;
      case "call-shared": {
        Money m = new Money(5);
        List<Object> l = new ArrayList<>();
        l.add(m);
        out.call("pair", new Object[] {m, l, m, 7, null});
        break;
      }
      case "call-none":
        out.call("ping", null);
        break;
      case "reply-items":
        out.startReply();
        out.writeObject(Workloads.items(Integer.parseInt(args[1])));
        out.completeReply();
        break;
      case "reply-order":
        out.startReply();
        out.writeObject(Workloads.reply());
        out.completeReply();
        break;
      case "reply-mixed":
        out.startReply();
        out.writeObject(mixed());
        out.completeReply();
        break;
      case "value-mixed":
        out.writeObject(mixed());
        break;
      case "fault":
        out.writeFault("ServiceException", "bad order", new IllegalStateException("boom"));
        break;
      case "fault-plain":
        out.writeFault("NoSuchMethodException", "no such method", null);
        break;
      default:
        throw new IllegalArgumentException(args[0]);
    }
    out.flush();
    System.out.write(bos.toByteArray());
    System.out.flush();
  }
}
