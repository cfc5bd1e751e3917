import java.util.*;

/**
 * The boundary catalogue shared by the Hessian 1 and Burlap interop tests. Every case has a name;
 * crates/hessian/tests/common/legacy.rs builds the same values as hessian::Value.
 */
public final class LegacyCatalogue {
  private LegacyCatalogue() {}

  /** A remote reference, written with writeRemote. */
  public static final class RemoteCase {
    public final String type, url;
    RemoteCase(String type, String url) { this.type = type; this.url = url; }
  }

  /** n UTF-16 units cycling through 1-, 2- and 3-byte characters and a surrogate pair. */
  public static String str(int n) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (sb.length() < n) {
      switch (i % 5) {
        case 0: sb.append('a'); break;
        case 1: sb.append('\u00e9'); break;
        case 2: sb.append('\u4e2d'); break;
        case 3: if (sb.length() + 2 <= n) sb.appendCodePoint(0x1f600); else sb.append('z'); break;
        default: sb.append('b'); break;
      }
      i++;
    }
    return sb.toString();
  }

  /** n bytes, byte i = i * 31 mod 256. */
  public static byte[] bin(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) b[i] = (byte) (i * 31);
    return b;
  }

  private static List<Object> ints(int n) {
    List<Object> l = new ArrayList<>();
    for (int i = 0; i < n; i++) l.add(i);
    return l;
  }

  /** All cases, in order. */
  public static LinkedHashMap<String, Object> cases() {
    LinkedHashMap<String, Object> c = new LinkedHashMap<>();
    c.put("null", null);
    c.put("true", true);
    c.put("false", false);
    int[] is = {0, 1, -1, 15, 16, 47, 48, -16, -17, 127, 128, -128, -129, 2047, 2048, -2048, -2049, 262143,
        262144, -262144, -262145, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (int v : is) c.put("int " + v, v);
    long[] ls = {0, 1, -8, 15, 16, -9, 2047, 2048, -2048, -2049, 262143, 262144, -262145, 2147483647L,
        2147483648L, -2147483648L, -2147483649L, Long.MAX_VALUE, Long.MIN_VALUE};
    for (long v : ls) c.put("long " + v, v);
    double[] ds = {0.0, -0.0, 1.0, -1.0, 127.0, -128.0, 128.0, 32767.0, -32768.0, 32768.0, 0.001, -0.001,
        12.25, 3.14159, 1e300, -1e-300, 4.9e-324, Double.MAX_VALUE, 1.0e7, 9999999.0, 0.0009999, 1.0e-3,
        123456789.125, 100.0, 1.5e-5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    for (int i = 0; i < ds.length; i++) c.put("double " + i, ds[i]);
    c.put("byte 5", (byte) 5);
    c.put("short -300", (short) -300);
    c.put("float 1.5", 1.5f);
    c.put("char x", 'x');
    long[] dates = {0L, 1200000000000L, 894621091000L, 894621060000L, -1L, 253402300799999L, -62135596800000L,
        -12219292800000L, -12219292800001L, -30610224000000L, 951782400000L, 1234L};
    for (long d : dates) c.put("date " + d, new Date(d));
    int[] sl = {0, 1, 31, 32, 1023, 1024, 32767, 32768, 32769, 65535, 65536};
    for (int n : sl) c.put("string " + n, str(n));
    c.put("string pair at chunk end", "a".repeat(0x7fff) + new String(Character.toChars(0x1f600)) + "b");
    c.put("string xml chars", "<a href=\"x\">&amp;</a> ]]> 'q'");
    c.put("string spaces", "  two  spaces \t tab \n newline \r cr  ");
    c.put("string nul", "a\u0000b");
    int[] bl = {0, 1, 2, 3, 15, 16, 1023, 1024, 32768, 32769, 65536};
    for (int n : bl) c.put("binary " + n, bin(n));
    for (int n = 0; n <= 9; n++) c.put("list " + n, ints(n));
    for (int n = 0; n <= 9; n++) {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) a[i] = i;
      c.put("int[] " + n, a);
    }
    c.put("String[]", new String[] {"a", null, "b"});
    c.put("Object[]", new Object[] {1, "two", 3L});
    c.put("long[]", new long[] {1L, -1L});
    c.put("double[]", new double[] {0.5, -2.0});
    c.put("boolean[]", new boolean[] {true, false});
    LinkedList<Object> ll = new LinkedList<>(ints(3));
    c.put("LinkedList", ll);
    List<Object> nested = new ArrayList<>();
    nested.add(ints(2));
    nested.add(new ArrayList<>());
    nested.add(null);
    c.put("nested lists", nested);
    c.put("iterator", ints(3).iterator());
    c.put("map empty", new HashMap<>());
    HashMap<Object, Object> m = new HashMap<>();
    m.put(1, "one");
    m.put(2, "two");
    c.put("map int keys", m);
    HashMap<Object, Object> m2 = new HashMap<>();
    m2.put("a", 1);
    c.put("map string key", m2);
    HashMap<Object, Object> m3 = new HashMap<>();
    m3.put(5L, null);
    c.put("map long key null value", m3);
    Hashtable<Object, Object> ht = new Hashtable<>();
    ht.put("k", "v");
    c.put("Hashtable", ht);
    TreeMap<Object, Object> tm = new TreeMap<>();
    tm.put("a", ints(1));
    tm.put("b", true);
    c.put("TreeMap", tm);
    c.put("Money", new Money(1000));
    c.put("W2 request", Workloads.request());
    c.put("W2 reply", Workloads.reply());
    c.put("W1 items 3", Workloads.items(3));
    List<Object> shared = ints(2);
    List<Object> twice = new ArrayList<>();
    twice.add(shared);
    twice.add(shared);
    c.put("shared list", twice);
    List<Object> self = new ArrayList<>();
    self.add(self);
    c.put("self list", self);
    LegacyNode a = new LegacyNode("a");
    LegacyNode b = new LegacyNode("b");
    a.next = b;
    b.next = a;
    c.put("node cycle", a);
    Money money = new Money(5);
    c.put("shared object", new ArrayList<>(Arrays.asList(money, money)));
    HashMap<Object, Object> selfMap = new HashMap<>();
    selfMap.put("me", selfMap);
    c.put("self map", selfMap);
    c.put("remote", new RemoteCase("com.example.Api", "http://localhost/api?x=1&y=2"));
    return c;
  }
}
