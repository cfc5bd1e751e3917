import com.caucho.hessian.io.Hessian2Input;
import java.io.*;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.function.Supplier;

/**
 * Reads frames of Rust-encoded values from stdin (u16 name length, UTF-8 name, u32 byte length,
 * bytes), and for each: decodes it with Hessian2Input, compares it with the catalogue's expected
 * value by deep equality (following shared and circular references), writes the decoded value
 * again and compares the bytes, and compares the bytes with what Java writes for the original.
 * Frames named in {@link H2Catalogue#decodeOnly()} are only decoded and compared; frames named in
 * {@link H2Catalogue#streams()} hold several values written and read through one stream.
 * Prints one line per frame, {@code OK name} or {@code FAIL name: detail}, then {@code DONE n}.
 */
public final class H2CatalogueCheck {
  public static void main(String[] args) throws Exception {
    Map<String, H2Catalogue.Case> byName = new HashMap<>();
    for (H2Catalogue.Case c : H2Catalogue.cases()) byName.put(c.name, c);
    DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    int n = 0;
    while (true) {
      int nameLen;
      try {
        nameLen = in.readUnsignedShort();
      } catch (EOFException e) {
        break;
      }
      byte[] nameBytes = new byte[nameLen];
      in.readFully(nameBytes);
      String name = new String(nameBytes, StandardCharsets.UTF_8);
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      n++;
      String failure;
      try {
        Map<String, Object> decodeOnly = H2Catalogue.decodeOnly();
        Map<String, Supplier<Object[]>> streams = H2Catalogue.streams();
        if (streams.containsKey(name)) {
          failure = checkStream(streams.get(name), bytes);
        } else if (decodeOnly.containsKey(name)) {
          failure = checkDecode(decodeOnly.get(name), bytes);
        } else {
          failure = check(byName.get(name), bytes);
        }
      } catch (Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        failure = "exception: " + sw.toString().replace('\n', '|');
      }
      out.println(failure == null ? "OK " + name : "FAIL " + name + ": " + failure);
    }
    out.println("DONE " + n);
    out.flush();
  }

  static String check(H2Catalogue.Case c, byte[] bytes) throws Exception {
    if (c == null) return "no such case in H2Catalogue.java";
    List<String> problems = new ArrayList<>();
    byte[] javaBytes = H2CatalogueWrite.write(c.value());
    if (!Arrays.equals(javaBytes, bytes)) problems.add("bytes differ from Java's " + diff(javaBytes, bytes));
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
    Object decoded = in.readObject();
    if (!in.isEnd()) problems.add("trailing bytes after the value");
    String d = new Deep().diff(c.expectedDecoded(), decoded, "$");
    if (d != null) problems.add("decoded value differs: " + d);
    if (c.name.startsWith("reply") && !c.name.endsWith("_null")) {
      // what the TestHessian2 service's argX method would say to this value
      String m = H2Catalogue.argMismatch("arg" + c.name.substring(5), decoded);
      if (m != null) problems.add("arg" + c.name.substring(5) + " would reject it: " + m);
    }
    if (c.reencodes) {
      byte[] again = H2CatalogueWrite.write(decoded);
      if (!Arrays.equals(again, bytes)) problems.add("re-encoding the decoded value differs " + diff(bytes, again));
    }
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /**
   * A stream case: the bytes must be what one Hessian2Output writes for the values, and one
   * Hessian2Input must read them back (one Deep for all values: sharing across values counts).
   */
  static String checkStream(Supplier<Object[]> make, byte[] bytes) throws Exception {
    List<String> problems = new ArrayList<>();
    byte[] javaBytes = H2CatalogueWrite.writeAll(make.get());
    if (!Arrays.equals(javaBytes, bytes)) problems.add("bytes differ from Java's " + diff(javaBytes, bytes));
    Object[] want = make.get();
    Object[] got = new Object[want.length];
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
    Deep deep = new Deep();
    for (int i = 0; i < want.length; i++) {
      got[i] = in.readObject();
      String d = deep.diff(want[i], got[i], "$" + i);
      if (d != null) problems.add("decoded value differs: " + d);
    }
    if (!in.isEnd()) problems.add("trailing bytes after the values");
    byte[] again = H2CatalogueWrite.writeAll(got);
    if (!Arrays.equals(again, bytes)) problems.add("re-encoding the decoded values differs " + diff(bytes, again));
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /** A decode-only case: the bytes must decode to the expected value (no byte comparisons). */
  static String checkDecode(Object expected, byte[] bytes) throws Exception {
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
    Object decoded = in.readObject();
    String d = new Deep().diff(expected, decoded, "$");
    if (d != null) return "decoded value differs: " + d;
    return in.isEnd() ? null : "trailing bytes after the value";
  }

  static String diff(byte[] want, byte[] got) {
    int i = 0;
    while (i < want.length && i < got.length && want[i] == got[i]) i++;
    return "(lengths " + want.length + " vs " + got.length + ", first difference at " + i + ": want "
        + hex(want, i) + " got " + hex(got, i) + ")";
  }

  static String hex(byte[] b, int from) {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < Math.min(b.length, from + 12); i++) sb.append(String.format("%02x", b[i] & 0xff));
    return sb.length() == 0 ? "<end>" : sb.toString();
  }

  /**
   * Structural equality that follows cycles: the first time an expected container is met it is
   * paired with its decoded counterpart; meeting either again must meet its partner (so shared
   * values must stay shared and distinct values distinct).
   */
  static final class Deep {
    private final IdentityHashMap<Object, Object> pairs = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Object> reverse = new IdentityHashMap<>();

    String diff(Object want, Object got, String path) throws IllegalAccessException {
      if (want == null || got == null) {
        return want == got ? null : path + ": want " + describe(want) + ", got " + describe(got);
      }
      if (want.getClass() != got.getClass()) {
        return path + ": want class " + want.getClass().getName() + ", got " + got.getClass().getName();
      }
      if (isValue(want)) {
        return want.equals(got) ? null : path + ": want " + describe(want) + ", got " + describe(got);
      }
      Object seen = pairs.get(want);
      Object seenRev = reverse.get(got);
      if (seen != null || seenRev != null) {
        return seen == got && seenRev == want ? null : path + ": reference structure differs";
      }
      pairs.put(want, got);
      reverse.put(got, want);
      if (want.getClass().isArray()) {
        int n = Array.getLength(want);
        if (n != Array.getLength(got)) return path + ": length " + n + " vs " + Array.getLength(got);
        for (int i = 0; i < n; i++) {
          String d = diff(Array.get(want, i), Array.get(got, i), path + "[" + i + "]");
          if (d != null) return d;
        }
        return null;
      }
      if (want instanceof Collection) {
        Collection<?> w = (Collection<?>) want, g = (Collection<?>) got;
        if (w.size() != g.size()) return path + ": size " + w.size() + " vs " + g.size();
        Iterator<?> gi = g.iterator();
        int i = 0;
        for (Object x : w) {
          String d = diff(x, gi.next(), path + "[" + i++ + "]");
          if (d != null) return d;
        }
        return null;
      }
      if (want instanceof Map) {
        Map<?, ?> w = (Map<?, ?>) want, g = (Map<?, ?>) got;
        if (w.size() != g.size()) return path + ": size " + w.size() + " vs " + g.size();
        // compare in iteration order (the order the entries are written in)
        Iterator<? extends Map.Entry<?, ?>> gi = g.entrySet().iterator();
        for (Map.Entry<?, ?> e : w.entrySet()) {
          Map.Entry<?, ?> ge = gi.next();
          String d = diff(e.getKey(), ge.getKey(), path + ".key");
          if (d != null) return d;
          d = diff(e.getValue(), ge.getValue(), path + "{" + e.getKey() + "}");
          if (d != null) return d;
        }
        return null;
      }
      for (Class<?> cl = want.getClass(); cl != null && cl != Object.class; cl = cl.getSuperclass()) {
        for (Field f : cl.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || Modifier.isTransient(f.getModifiers())) continue;
          f.setAccessible(true);
          String d = diff(f.get(want), f.get(got), path + "." + f.getName());
          if (d != null) return d;
        }
      }
      return null;
    }

    /** Types compared with equals: no references, no structure to follow. */
    static boolean isValue(Object o) {
      return o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Character
          || o instanceof Date || o instanceof Enum;
    }

    static String describe(Object o) {
      if (o == null) return "null";
      String s = String.valueOf(o);
      if (s.length() > 80) s = s.substring(0, 80) + "...(" + s.length() + " chars)";
      return o.getClass().getSimpleName() + " " + s;
    }
  }
}
