import com.caucho.hessian.test.*;
import org.example.h2conformance.*;
import java.util.*;
import java.util.function.Supplier;

/**
 * The Hessian 2.0 conformance catalogue, Java side: Caucho's TestHessian2 reply values (names =
 * method names) and the boundary cases of every compact encoding. The Rust twin is
 * {@code crates/hessian-workloads/src/catalogue.rs}; both sides must list the same names.
 */
public final class H2Catalogue {
  private H2Catalogue() {}

  /** One named value. */
  public static final class Case {
    /** The case name (a TestHessian2 method name or a descriptive boundary name). */
    public final String name;
    private final Supplier<Object> make;
    private final boolean lossy;
    private final Object decoded;
    /** Whether writing the decoded value again gives the same bytes. */
    public final boolean reencodes;

    Case(String name, Supplier<Object> make, boolean lossy, Object decoded, boolean reencodes) {
      this.name = name;
      this.make = make;
      this.lossy = lossy;
      this.decoded = decoded;
      this.reencodes = reencodes;
    }

    /** A fresh instance of the value (iterators and enumerations can only be written once). */
    public Object value() { return make.get(); }

    /** What Hessian2Input gives back for this value's bytes. */
    public Object expectedDecoded() { return lossy ? decoded : make.get(); }
  }

  private static final List<Case> CASES = new ArrayList<>();
  private static final Map<String, Object> DECODE_ONLY = new HashMap<>();

  private static void add(String name, Supplier<Object> make) {
    CASES.add(new Case(name, make, false, null, true));
  }

  /** A value that does not decode to itself (e.g. an Iterator decodes to an ArrayList). */
  private static void lossy(String name, Supplier<Object> make, Object decoded, boolean reencodes) {
    CASES.add(new Case(name, make, true, decoded, reencodes));
  }

  /** Every case, in catalogue order. */
  public static synchronized List<Case> cases() {
    if (CASES.isEmpty()) {
      testHessian2();
      boundaries();
    }
    return CASES;
  }

  /**
   * What Hessian2Input gives for the byte strings of catalogue.rs's {@code h2_decode_cases}: forms
   * of the 2.0 grammar that Hessian2Output never writes (non-compact numbers, small chunks, typed
   * variable-length lists, unknown types and classes, extra fields). Name to expected value.
   */
  public static synchronized Map<String, Object> decodeOnly() {
    if (DECODE_ONLY.isEmpty()) {
      Map<String, Object> m = DECODE_ONLY;
      m.put("int_long_form_1", 1);
      m.put("int_2byte_form_5", 5);
      m.put("int_3byte_form_5", 5);
      m.put("long_long_form_1", 1L);
      m.put("long_y_form_1", 1L);
      m.put("long_2byte_form_5", 5L);
      m.put("long_3byte_form_5", 5L);
      m.put("double_long_form_0", 0.0);
      m.put("double_long_form_1", 1.0);
      m.put("double_mill_form_1", 1.0);
      m.put("double_short_form_1", 1.0);
      m.put("date_ms_form_whole_minute", new Date(60000));
      m.put("string_long_form_short", "ab");
      m.put("string_chunks_small", "abc");
      m.put("string_chunk_empty_first", "a");
      m.put("string_surrogates_split_across_chunks", "\ud83d\ude00");
      m.put("binary_long_form_short", new byte[] {1, 2});
      m.put("binary_chunks_small", new byte[] {1, 2, 3});
      m.put("binary_chunk_then_long_final", new byte[] {1, 2});
      m.put("list_typed_variable_int_array", new int[] {1, 2});
      m.put("list_typed_variable_vector", new Vector<>(Arrays.asList(1)));
      m.put("list_untyped_long_form_1", list(0));
      m.put("list_typed_long_form_int_array_2", new int[] {0, 1});
      m.put("map_unknown_type", map(new HashMap<>(), "a", 1));
      m.put("object_unknown_class", map(new HashMap<>(), "a", 0));
      m.put("object_extra_field", new TestObject(1));
      m.put("object_missing_field", new TestCons("a", null));
      m.put("object_long_form_class_ref", new A0());
    }
    return DECODE_ONLY;
  }

  /**
   * Sequences of values written one after another through one Hessian2Output (as the arguments
   * of a call are): class definitions, type names and references carry over from value to value.
   * Name to a supplier of fresh values; the Rust twin is {@code h2_stream_cases}.
   */
  public static Map<String, Supplier<Object[]>> streams() {
    Map<String, Supplier<Object[]>> m = new LinkedHashMap<>();
    m.put("stream_shared_object", () -> {
      TestObject o = new TestObject(0);
      return new Object[] {o, o, new TestObject(1), new int[] {1}, new int[] {2}};
    });
    m.put("stream_classes_and_types", () -> new Object[] {
      list(new A0(), new A1(), new A2(), new A3(), new A4(), new A5(), new A6(), new A7(), new A8(), new A9(),
          new A10(), new A11(), new A12(), new A13(), new A14(), new A15(), new A16()),
      new A0(), new TestObject(5), new Hashtable<>(), new Vector<>(), map(new Hashtable<>(), "a", 1)});
    m.put("stream_ref_to_earlier_list", () -> {
      ArrayList<Object> l = list(1);
      return new Object[] {l, "x", list(l)};
    });
    m.put("stream_scalars", () -> new Object[] {1, "a", null, 1.5, new Date(60000), 1L << 40, true});
    return m;
  }

  /** A fresh instance of the value of the case called name (e.g. a TestHessian2 reply method). */
  public static Object value(String name) {
    for (Case c : cases()) {
      if (c.name.equals(name)) return c.value();
    }
    throw new IllegalArgumentException("no catalogue case " + name);
  }

  /**
   * For a TestHessian2 {@code argX} method: null when v is what {@code replyX} decodes to (deep
   * equality, shared and circular references included), else a description of the difference.
   */
  public static String argMismatch(String argMethod, Object v) throws IllegalAccessException {
    if (!argMethod.startsWith("arg")) throw new IllegalArgumentException(argMethod);
    String reply = "reply" + argMethod.substring(3);
    for (Case c : cases()) {
      if (c.name.equals(reply)) return new H2CatalogueCheck.Deep().diff(c.expectedDecoded(), v, "$");
    }
    throw new IllegalArgumentException("no catalogue case " + reply);
  }

  // ---- value recipes shared with catalogue.rs ----

  /** The TestHessian2 text: 16 rows of 64 characters, cut to len. */
  static String rows16(int len) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      sb.append(i / 10).append(i % 10).append(" 456789012345678901234567890123456789012345678901234567890123\n");
    }
    sb.setLength(len);
    return sb.toString();
  }

  /** The TestHessian2 long text: 1024 rows of 64 characters, cut to len. */
  static String rows1024(int len) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 64 * 16; i++) {
      sb.append(i / 100).append(i / 10 % 10).append(i % 10)
          .append(" 56789012345678901234567890123456789012345678901234567890123\n");
    }
    sb.setLength(len);
    return sb.toString();
  }

  /** Each character's low byte (the TestHessian2 binaries are its texts as bytes). */
  static byte[] latin1(String s) {
    byte[] b = new byte[s.length()];
    for (int i = 0; i < b.length; i++) b[i] = (byte) s.charAt(i);
    return b;
  }

  /** n ASCII digits: '0' + i % 10. */
  static String ascii(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) sb.append((char) ('0' + i % 10));
    return sb.toString();
  }

  /** n characters of two UTF-8 bytes: U+0080 + i % 0x780. */
  static String twoByte(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) sb.append((char) (0x80 + i % 0x780));
    return sb.toString();
  }

  /** n characters of three UTF-8 bytes: U+0800 + i % 0xd000 (never a surrogate). */
  static String threeByte(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) sb.append((char) (0x800 + i % 0xd000));
    return sb.toString();
  }

  /** n supplementary characters (2n UTF-16 units): U+10000 + i % 0x100000. */
  static String supplementary(int n) {
    StringBuilder sb = new StringBuilder(2 * n);
    for (int i = 0; i < n; i++) sb.appendCodePoint(0x10000 + i % 0x100000);
    return sb.toString();
  }

  /** n repetitions of "a\u00e9\u20ac\ud83d\ude00" (5 UTF-16 units each). */
  static String mixed(int n) {
    StringBuilder sb = new StringBuilder(5 * n);
    for (int i = 0; i < n; i++) sb.append("a\u00e9\u20ac\ud83d\ude00");
    return sb.toString();
  }

  /** n bytes: i % 251. */
  static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) b[i] = (byte) (i % 251);
    return b;
  }

  static ArrayList<Object> list(Object... items) { return new ArrayList<>(Arrays.asList(items)); }

  static ArrayList<Object> ints(int n) {
    ArrayList<Object> l = new ArrayList<>();
    for (int i = 0; i < n; i++) l.add(i);
    return l;
  }

  static <M extends Map<Object, Object>> M map(M m, Object... kv) {
    for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
    return m;
  }

  // ---- Caucho's TestHessian2 replies ----

  private static void testHessian2() {
    add("replyNull", () -> null);
    add("replyTrue", () -> true);
    add("replyFalse", () -> false);

    add("replyInt_0", () -> 0);
    add("replyInt_1", () -> 1);
    add("replyInt_47", () -> 47);
    add("replyInt_m16", () -> -16);
    add("replyInt_0x30", () -> 0x30);
    add("replyInt_0x7ff", () -> 0x7ff);
    add("replyInt_m17", () -> -17);
    add("replyInt_m0x800", () -> -0x800);
    add("replyInt_0x800", () -> 0x800);
    add("replyInt_0x3ffff", () -> 0x3ffff);
    add("replyInt_m0x801", () -> -0x801);
    add("replyInt_m0x40000", () -> -0x40000);
    add("replyInt_0x40000", () -> 0x40000);
    add("replyInt_0x7fffffff", () -> 0x7fffffff);
    add("replyInt_m0x40001", () -> -0x40001);
    add("replyInt_m0x80000000", () -> 0x80000000);

    add("replyLong_0", () -> 0L);
    add("replyLong_1", () -> 1L);
    add("replyLong_15", () -> 15L);
    add("replyLong_m8", () -> -8L);
    add("replyLong_0x10", () -> 0x10L);
    add("replyLong_0x7ff", () -> 0x7ffL);
    add("replyLong_m9", () -> -9L);
    add("replyLong_m0x800", () -> -0x800L);
    add("replyLong_0x800", () -> 0x800L);
    add("replyLong_0x3ffff", () -> 0x3ffffL);
    add("replyLong_m0x801", () -> -0x801L);
    add("replyLong_m0x40000", () -> -0x40000L);
    add("replyLong_0x40000", () -> 0x40000L);
    add("replyLong_0x7fffffff", () -> 0x7fffffffL);
    add("replyLong_m0x40001", () -> -0x40001L);
    add("replyLong_m0x80000000", () -> -0x80000000L);
    add("replyLong_0x80000000", () -> 0x80000000L);
    add("replyLong_m0x80000001", () -> -0x80000001L);

    add("replyDouble_0_0", () -> 0.0);
    add("replyDouble_1_0", () -> 1.0);
    add("replyDouble_2_0", () -> 2.0);
    add("replyDouble_127_0", () -> 127.0);
    add("replyDouble_m128_0", () -> -128.0);
    add("replyDouble_128_0", () -> 128.0);
    add("replyDouble_m129_0", () -> -129.0);
    add("replyDouble_32767_0", () -> 32767.0);
    add("replyDouble_m32768_0", () -> -32768.0);
    add("replyDouble_0_001", () -> 0.001);
    add("replyDouble_m0_001", () -> -0.001);
    add("replyDouble_65_536", () -> 65.536);
    add("replyDouble_3_14159", () -> 3.14159);

    add("replyDate_0", () -> new Date(0));
    add("replyDate_1", () -> new Date(894621091000L));
    add("replyDate_2", () -> new Date(894621091000L - 894621091000L % 60000L));

    add("replyString_0", () -> "");
    add("replyString_null", () -> null);
    add("replyString_1", () -> "0");
    add("replyString_31", () -> "0123456789012345678901234567890");
    add("replyString_32", () -> "01234567890123456789012345678901");
    add("replyString_1023", () -> rows16(1023));
    add("replyString_1024", () -> rows16(1024));
    add("replyString_65536", () -> rows1024(65536));

    add("replyBinary_0", () -> new byte[0]);
    add("replyBinary_null", () -> null);
    add("replyBinary_1", () -> latin1("0"));
    add("replyBinary_15", () -> latin1("012345678901234"));
    add("replyBinary_16", () -> latin1("0123456789012345"));
    add("replyBinary_1023", () -> latin1(rows16(1023)));
    add("replyBinary_1024", () -> latin1(rows16(1024)));
    add("replyBinary_65536", () -> latin1(rows1024(65536)));

    add("replyUntypedFixedList_0", () -> list());
    add("replyUntypedFixedList_1", () -> list("1"));
    add("replyUntypedFixedList_7", () -> list("1", "2", "3", "4", "5", "6", "7"));
    add("replyUntypedFixedList_8", () -> list("1", "2", "3", "4", "5", "6", "7", "8"));
    add("replyTypedFixedList_0", () -> new String[] {});
    add("replyTypedFixedList_1", () -> new String[] {"1"});
    add("replyTypedFixedList_7", () -> new String[] {"1", "2", "3", "4", "5", "6", "7"});
    add("replyTypedFixedList_8", () -> new String[] {"1", "2", "3", "4", "5", "6", "7", "8"});

    add("replyUntypedMap_0", () -> new HashMap<>());
    add("replyUntypedMap_1", () -> map(new HashMap<>(), "a", 0));
    add("replyUntypedMap_2", () -> map(new HashMap<>(), 0, "a", 1, "b"));
    add("replyUntypedMap_3", () -> map(new HashMap<>(), list("a"), 0));
    add("replyTypedMap_0", () -> new Hashtable<>());
    add("replyTypedMap_1", () -> map(new Hashtable<>(), "a", 0));
    add("replyTypedMap_2", () -> map(new Hashtable<>(), 0, "a", 1, "b"));
    add("replyTypedMap_3", () -> map(new Hashtable<>(), list("a"), 0));

    add("replyObject_0", () -> new A0());
    add("replyObject_16", () -> list(new A0(), new A1(), new A2(), new A3(), new A4(), new A5(), new A6(), new A7(),
        new A8(), new A9(), new A10(), new A11(), new A12(), new A13(), new A14(), new A15(), new A16()));
    add("replyObject_1", () -> new TestObject(0));
    add("replyObject_2", () -> list(new TestObject(0), new TestObject(1)));
    add("replyObject_2a", () -> {
      TestObject o = new TestObject(0);
      return list(o, o);
    });
    add("replyObject_2b", () -> list(new TestObject(0), new TestObject(0)));
    add("replyObject_3", () -> {
      TestCons cons = new TestCons();
      cons.setFirst("a");
      cons.setRest(cons);
      return cons;
    });
  }

  // ---- boundaries of every compact range, and structural cases ----

  private static void boundaries() {
    for (int v : new int[] {0, -16, 47, 48, -17, -2048, 2047, 2048, -2049, -262144, 262143, 262144, -262145,
        Integer.MIN_VALUE, Integer.MAX_VALUE}) {
      add("int_" + v, () -> v);
    }
    for (long v : new long[] {0, -8, 15, 16, -9, -2048, 2047, 2048, -2049, -262144, 262143, 262144, -262145,
        Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE - 1L, Integer.MAX_VALUE + 1L, Long.MIN_VALUE,
        Long.MAX_VALUE}) {
      add("long_" + v, () -> v);
    }

    Object[][] doubles = {
      {"zero", 0.0}, {"one", 1.0}, {"minus_one", -1.0}, {"2", 2.0}, {"127", 127.0}, {"m128", -128.0},
      {"128", 128.0}, {"m129", -129.0}, {"32767", 32767.0}, {"m32768", -32768.0}, {"32768", 32768.0},
      {"m32769", -32769.0}, {"65536", 65536.0}, {"0_001", 0.001}, {"m0_001", -0.001}, {"65_536", 65.536},
      {"0_5", 0.5}, {"0_1", 0.1}, {"1_5", 1.5}, {"mill_max", 2147483.647}, {"mill_min", -2147483.648},
      {"mill_max_plus", 2147483.648}, {"mill_min_minus", -2147483.649}, {"0_0001", 0.0001},
      {"3_14159", 3.14159}, {"1e10", 1e10}, {"1e300", 1e300}, {"nan", Double.NaN},
      {"inf", Double.POSITIVE_INFINITY}, {"neg_inf", Double.NEGATIVE_INFINITY}, {"max", Double.MAX_VALUE},
      {"min_normal", Double.MIN_NORMAL}, {"min_subnormal", Double.MIN_VALUE}, {"i32_max", 2147483647.0},
      {"i32_min", -2147483648.0},
    };
    for (Object[] d : doubles) {
      add("double_" + d[0], () -> d[1]);
    }
    // Reference quirk: -0.0 is written as the zero code and reads back as +0.0.
    lossy("double_neg_zero", () -> -0.0, 0.0, true);

    long[][] dates = {
      {0}, {894621091000L}, {894621060000L}, {-60000}, {-1}, {1}, {2147483647L * 60000}, {-2147483648L * 60000},
      {2147483648L * 60000}, {-2147483649L * 60000}, {Long.MAX_VALUE}, {Long.MIN_VALUE},
    };
    String[] dateNames = {"epoch", "ms", "minute", "neg_minute", "neg_ms", "one_ms", "minute_i32_max",
      "minute_i32_min", "minute_past_i32_max", "minute_past_i32_min", "max", "min"};
    for (int i = 0; i < dates.length; i++) {
      long t = dates[i][0];
      add("date_" + dateNames[i], () -> new Date(t));
    }

    for (int n : new int[] {0, 1, 31, 32, 1023, 1024, 32767, 32768, 32769, 65535, 65536, 65537, 100000}) {
      add("string_ascii_" + n, () -> ascii(n));
    }
    for (int n : new int[] {1, 31, 32, 1023, 1024, 32768, 32769}) {
      add("string_2byte_" + n, () -> twoByte(n));
    }
    for (int n : new int[] {1, 31, 32, 1024, 32768, 65536}) {
      add("string_3byte_" + n, () -> threeByte(n));
    }
    // sizes in UTF-16 units
    for (int n : new int[] {2, 30, 32, 1024, 32768, 65536}) {
      add("string_supplementary_" + n, () -> supplementary(n / 2));
    }
    add("string_supplementary_straddles_chunk", () -> ascii(32767) + "\ud83d\ude00" + "b");
    add("string_supplementary_ends_chunk", () -> ascii(32766) + "\ud83d\ude00");
    add("string_supplementary_odd_65537", () -> "a" + supplementary(32768));
    add("string_mixed_65535", () -> mixed(13107));
    add("string_nul", () -> "\0");
    add("string_ffff", () -> "\uffff");
    // A Character is written as a one-character string.
    lossy("string_from_char", () -> 'x', "x", true);
    lossy("string_from_char_array", () -> new char[] {'a', '\u00e9'}, "a\u00e9", true);

    for (int n : new int[] {0, 1, 15, 16, 1023, 1024, 8000, 8188, 8189, 8190, 8191, 8192, 8193, 16384, 65535,
        65536, 100000}) {
      add("binary_" + n, () -> bytes(n));
    }
    // binary chunk sizes depend on how full the 8 KiB output buffer already is
    add("binary_after_string", () -> list(ascii(5000), bytes(10000)));
    // A binary that starts with `fill` bytes in the buffer (list code + 3-byte string header + text):
    // with less than 16 bytes of room Java flushes first and then writes the whole binary as a
    // non-final chunk followed by an empty final chunk.
    for (int fill : new int[] {8004, 8173, 8174, 8176}) {
      add("binary_buffer_at_" + fill, () -> list(ascii(fill - 4), bytes(100)));
    }
    add("binary_twice", () -> list(bytes(5000), bytes(5000)));

    for (int n = 0; n <= 9; n++) {
      int k = n;
      add("list_untyped_" + n, () -> ints(k));
    }
    add("list_untyped_1000", () -> ints(1000));
    for (int n : new int[] {0, 1, 7, 8, 9, 1000}) {
      add("list_int_array_" + n, () -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        return a;
      });
    }
    for (int n : new int[] {0, 1, 7, 8, 9}) {
      add("list_string_array_" + n, () -> {
        String[] a = new String[n];
        for (int i = 0; i < n; i++) a[i] = String.valueOf(i);
        return a;
      });
    }
    add("list_long_array", () -> new long[] {0, 1L << 40});
    add("list_double_array", () -> new double[] {0.5, -1.0});
    add("list_boolean_array", () -> new boolean[] {true, false});
    add("list_short_array", () -> new short[] {1, -300});
    add("list_float_array", () -> new float[] {1.5f, 0.1f});
    add("list_object_array", () -> new Object[] {1, "a", null});
    add("list_integer_array", () -> new Integer[] {1, 2});
    add("list_string_array_2d", () -> new String[][] {{"a"}, {}});
    add("list_linked_list", () -> new LinkedList<>(Arrays.asList(1, 2)));
    add("list_linked_list_empty", () -> new LinkedList<>());
    add("list_vector", () -> new Vector<>(Arrays.asList(1, "a")));
    add("list_hash_set", () -> new HashSet<>(Arrays.asList(1)));
    add("list_tree_set", () -> new TreeSet<>(Arrays.asList(3, 1, 2)));
    // Iterator and Enumeration are written as variable-length untyped lists and read back as ArrayList.
    lossy("list_variable_iterator", () -> Arrays.asList(1, 2, 3).iterator(), list(1, 2, 3), false);
    lossy("list_variable_enumeration", () -> new Vector<>(Arrays.asList(1, "a")).elements(), list(1, "a"), false);
    lossy("list_variable_iterator_empty", () -> Collections.emptyIterator(), list(), false);
    // Arrays.asList is written with its private class name and read back as an ArrayList.
    lossy("list_arrays_as_list", () -> Arrays.asList("a", "b"), list("a", "b"), false);
    add("list_type_ref_int_array", () -> list(new int[] {1}, new int[] {2, 3}));
    add("list_type_ref_linked_list", () -> list(new LinkedList<>(Arrays.asList(1)), new LinkedList<>(Arrays.asList(2))));
    add("list_type_ref_mixed",
        () -> list(new Vector<>(), new Hashtable<>(), new Vector<>(), map(new Hashtable<>(), "k", new Vector<>())));
    add("list_nested_3", () -> list(list(list())));
    add("list_shared_twice", () -> {
      ArrayList<Object> l = list(1);
      return list(l, l);
    });
    add("list_self_ref", () -> {
      ArrayList<Object> l = list(1);
      l.add(l);
      return l;
    });

    add("map_untyped_0", () -> new HashMap<>());
    add("map_string_keys", () -> map(new HashMap<>(), "a", 1, "b", 2));
    add("map_int_keys", () -> map(new HashMap<>(), 1, "a", 2, "b", -3, "c"));
    add("map_long_key", () -> map(new HashMap<>(), 1L << 40, "long"));
    add("map_double_key", () -> map(new HashMap<>(), 1.5, "double"));
    add("map_bool_key", () -> map(new HashMap<>(), true, 1));
    add("map_date_key", () -> map(new HashMap<>(), new Date(0), "epoch"));
    add("map_list_key", () -> map(new HashMap<>(), list("a"), 0));
    add("map_map_key", () -> map(new HashMap<>(), map(new HashMap<>(), "k", "v"), 1));
    add("map_null_value", () -> map(new HashMap<>(), "k", null));
    add("map_nested", () -> map(new HashMap<>(), "m", map(new HashMap<>(), "n", list(1))));
    add("map_hashtable", () -> map(new Hashtable<>(), "a", 1, "b", 2, "c", 3));
    add("map_tree_map_int", () -> map(new TreeMap<>(), 3, "c", 1, "a", 2, "b"));
    add("map_tree_map_string", () -> map(new TreeMap<>(), "b", 2, "a", 1));
    add("map_linked_hash_map", () -> map(new LinkedHashMap<>(), "z", 1, "a", 2));
    add("map_type_ref_hashtable", () -> list(map(new Hashtable<>(), "a", 1), map(new Hashtable<>(), "b", 2)));
    add("map_shared_twice", () -> {
      HashMap<Object, Object> m = map(new HashMap<>(), "a", 1);
      return list(m, m);
    });
    add("map_self_ref", () -> {
      HashMap<Object, Object> m = new HashMap<>();
      m.put("self", m);
      return m;
    });

    // Byte, Short and Float are written as objects of Caucho's handle classes.
    add("byte_handle", () -> (byte) 5);
    add("short_handle", () -> (short) -300);
    add("float_handle_1_5", () -> 1.5f);
    add("float_handle_0_1", () -> 0.1f);
    add("object_primitive_fields", PrimitiveFields::new);
    add("object_field_order", () -> new FieldOrder("first", list(1), new Date(0), "name", 7, 8));
    add("object_field_order_inherited", () -> {
      FieldOrderChild c = new FieldOrderChild();
      c.first = 1;
      c.name = "n";
      c.extraObject = "x";
      c.extra = 9;
      return c;
    });
    add("object_enum", () -> Color.RED);
    add("object_enum_list", () -> list(Color.RED, Color.GREEN, Color.RED));
    add("object_nested", () -> new TestObject(new TestObject(list("x"))));
    add("object_20_classes", () -> {
      ArrayList<Object> l = list(new A0(), new A1(), new A2(), new A3(), new A4(), new A5(), new A6(), new A7(),
          new A8(), new A9(), new A10(), new A11(), new A12(), new A13(), new A14(), new A15(), new A16());
      l.add(new TestObject(1));
      l.add(new TestCons("a", null));
      l.add(new TestObject(2));
      l.add(new A16());
      l.add(new PrimitiveFields());
      return l;
    });
    add("object_shared_in_map", () -> {
      TestObject o = new TestObject("v");
      return map(new HashMap<>(), "a", o, "b", o);
    });
    add("object_cons_list", () -> new TestCons(1, new TestCons(2, new TestCons(3, null))));
    add("object_cycle_2", () -> {
      TestCons a = new TestCons("a", null);
      TestCons b = new TestCons("b", a);
      a.setRest(b);
      return a;
    });
  }
}
