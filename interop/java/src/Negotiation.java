import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.util.IdentityIntMap;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared pieces of the negotiation extension (docs/negotiation.md) for client and server. */
public final class Negotiation {
  private Negotiation() {}

  public static final String OFFER = "Hessian-Type-Maps";
  public static final String TYPE_MAP = "Hessian-Type-Map";
  public static final String REPLY_MAP = "Hessian-Reply-Map";
  public static final String UNKNOWN = "Hessian-Type-Map-Unknown";
  public static final String VERSION = "1";

  private static final Field CLASS_REFS;

  static {
    try {
      CLASS_REFS = Hessian2Output.class.getDeclaredField("_classRefs");
      CLASS_REFS.setAccessible(true);
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Pre-defines the map's classes 0..n-1 in a fresh Hessian2Output: its serializers then write
   * objects of those classes as {@code 0x60 + i} with no {@code C} entry. The key is the interned
   * type name, the instance Caucho's serializers pass (Class.getName() is interned and cached).
   * A name is not a Class: another class loader's class of that name would be written as a
   * reference to the map's class, so the client (before it sends a referring call) and the server
   * (before it sends a referring reply) check the classes they wrote (RecordingOutput).
   */
  public static void seed(Hessian2Output out, TypeMap map) {
    IdentityIntMap refs = classRefs(out);
    if (refs.size() != 0) throw new IllegalStateException("Hessian2Output already has classes");
    String[] names = map.internedTypes();
    for (int i = 0; i < names.length; i++) refs.put(names[i], i, true);
  }

  /**
   * A Hessian2Output that records the Class written under each class number, and checks it
   * against the classes a type map's numbers stand for: Caucho's serializers begin an object with
   * writeObjectBegin(type name) inside writeObject(object), so the class is that of the innermost
   * object being written. Seeded with a map and the Class expected under each of its numbers
   * (seed(TypeMap, Class[])), an object of another Class written under one of the map's names
   * (another class loader's class of that name, written as a reference to the map's class) makes
   * wroteOnly() false; a plain message's classes (classesOf) are those of its definitions in order,
   * the order TypeMap.ofMessage reads them. It also keeps what the skeleton wrote (writeReply or
   * writeFault), so that a reply can be written again, plainly, without running the method again
   * (replay).
   */
  public static class RecordingOutput extends Hessian2Output {
    /** The Class written under each class number (for a seeded map, the expected ones first). */
    private Class<?>[] byRef = new Class<?>[8];
    /** Class numbers in use: the map's plus those defined inline. */
    private int defined;
    /** A number was written for two classes, or outside writeObject: nothing can be checked. */
    private boolean ambiguous;
    private Class<?> current;
    private int replyKind; // 0 none, 1 reply, 2 fault
    private Object replied;
    private String faultCode, faultMessage;
    /** The stream written to, and the referring header written instead of H 02 00 (or null). */
    private java.io.OutputStream target;
    private byte[] referring;

    public RecordingOutput(java.io.OutputStream os) {
      super(os);
      target = os;
    }

    /** Ready for another message into os, as if new (Caucho's init resets its references). */
    public void restart(java.io.OutputStream os) {
      init(os);
      target = os;
      Arrays.fill(byRef, 0, Math.min(defined, byRef.length), null);
      defined = 0;
      ambiguous = false;
      current = null;
      replyKind = 0;
      replied = null;
      faultCode = faultMessage = null;
      referring = null;
    }

    /**
     * seed(map, classes), and the message begins with the map's referring header
     * {@code H 02 01 T 30 <digest>} instead of {@code H 02 00}: written straight into the stream,
     * not copied in afterwards.
     */
    public void refer(TypeMap map, Class<?>[] classes) {
      seed(map, classes);
      referring = map.sharedReferringHeader();
    }

    @Override public void writeVersion() throws java.io.IOException {
      if (referring == null) {
        super.writeVersion();
        return;
      }
      flushBuffer(); // empty: the version begins a message
      target.write(referring);
    }

    /** Pre-defines the map's classes (Negotiation.seed), expecting classes[i] under number i. */
    public void seed(TypeMap map, Class<?>[] classes) {
      if (classes.length != map.size()) throw new IllegalArgumentException("one class per map entry");
      Negotiation.seed(this, map);
      if (byRef.length < classes.length) byRef = new Class<?>[classes.length + 8];
      System.arraycopy(classes, 0, byRef, 0, classes.length);
      defined = classes.length;
    }

    @Override public void writeObject(Object o) throws java.io.IOException {
      Class<?> outer = current;
      current = o == null ? null : o.getClass();
      try {
        super.writeObject(o);
      } finally {
        current = outer;
      }
    }

    @Override public int writeObjectBegin(String type) throws java.io.IOException {
      int ref = super.writeObjectBegin(type);
      // -1: a new definition, the next number (Caucho's serializer then calls again with it)
      int i = ref >= 0 ? ref : defined++;
      if (current == null) ambiguous = true;
      else if (i >= 0) {
        if (i >= byRef.length) byRef = Arrays.copyOf(byRef, Math.max(i + 1, byRef.length * 2));
        Class<?> was = byRef[i];
        if (was == null) byRef[i] = current;
        else if (was != current) ambiguous = true;
      }
      return ref;
    }

    @Override public void writeReply(Object o) throws java.io.IOException {
      replyKind = 1;
      replied = o;
      super.writeReply(o);
    }

    @Override public void writeFault(String code, String message, Object detail) throws java.io.IOException {
      replyKind = 2;
      faultCode = code;
      faultMessage = message;
      replied = detail;
      super.writeFault(code, message, detail);
    }

    /** Whether this message begins with a referring header (refer). */
    public boolean referring() { return referring != null; }

    /** Writes the reply or fault written here again into out (the method does not run again). */
    public void replay(Hessian2Output out) throws java.io.IOException {
      if (replyKind == 1) out.writeReply(replied);
      else if (replyKind == 2) out.writeFault(faultCode, faultMessage, replied);
      else throw new IllegalStateException("no reply was written");
    }

    /** Class numbers in use: the map's plus those defined inline. */
    public int classCount() { return defined; }

    /**
     * The class written under each of the map's numbers, the map read from this plain message
     * (its definitions in order); null unless each number was exactly one class.
     */
    public Class<?>[] classesOf(TypeMap map) {
      if (ambiguous || defined < map.size()) return null;
      Class<?>[] r = Arrays.copyOf(byRef, map.size());
      for (Class<?> c : r) if (c == null) return null;
      return r;
    }

    /** Whether each object was written under a number of its own Class (the seeded ones included). */
    public boolean wroteOnly() { return !ambiguous; }
  }

  /** A ByteArrayOutputStream whose bytes are read in place (no copy). */
  public static final class Buffer extends java.io.ByteArrayOutputStream {
    public Buffer(int size) { super(size); }
    public byte[] array() { return buf; }
  }

  /** Whether a and b hold the same classes (by identity) in the same order. */
  public static boolean sameClasses(Class<?>[] a, Class<?>[] b) {
    if (a == b) return true;
    if (a == null || b == null || a.length != b.length) return false;
    for (int i = 0; i < a.length; i++) if (a[i] != b[i]) return false;
    return true;
  }

  /** How many classes the output knows (the map's plus those it defined inline). */
  public static int classCount(Hessian2Output out) { return classRefs(out).size(); }

  private static IdentityIntMap classRefs(Hessian2Output out) {
    try {
      return (IdentityIntMap) CLASS_REFS.get(out);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether a header value (a list such as "1, 2") offers version 1. */
  public static boolean offers(String header) {
    if (header == null) return false;
    if (header.equals(VERSION)) return true;
    for (String v : header.split(",")) if (v.trim().equals(VERSION)) return true;
    return false;
  }

  /** The digests of a (possibly repeated, comma-separated) Hessian-Type-Map header. */
  public static List<String> digests(List<String> values) {
    if (values == null) return List.of();
    if (values.size() == 1 && values.get(0).length() == 32) {
      // one digest, as sent: no split, and the same String when it is lower-case already
      String d = TypeMap.lowerHexOrNull(values.get(0));
      if (d != null) return List.of(d);
    }
    List<String> r = new ArrayList<>();
    for (String v : values)
      for (String d : v.split(",")) {
        byte[] b = TypeMap.unhex(d);
        if (b != null) r.add(TypeMap.hex(b));
      }
    return r;
  }

  /** A bounded LRU of maps by digest: at most maxMaps maps and maxBytes canonical bytes. */
  public static final class Cache<V> {
    private final int maxMaps;
    private final long maxBytes;
    private long bytes;
    private long evictions;
    private long collisions;
    private final LinkedHashMap<String, Entry<V>> map = new LinkedHashMap<>(16, 0.75f, true);

    static final class Entry<V> {
      final TypeMap typeMap;
      V value;
      Entry(TypeMap m, V v) { typeMap = m; value = v; }
    }

    public Cache(int maxMaps, long maxBytes) {
      this.maxMaps = maxMaps;
      this.maxBytes = maxBytes;
    }

    public synchronized TypeMap get(String hex) {
      Entry<V> e = map.get(hex);
      return e == null ? null : e.typeMap;
    }

    public synchronized V value(String hex) {
      Entry<V> e = map.get(hex);
      return e == null ? null : e.value;
    }

    /** The value of hex's entry, set to value first if it had none; null when hex is not kept. */
    public synchronized V valueIfAbsent(String hex, V value) {
      Entry<V> e = map.get(hex);
      if (e == null) return null;
      if (e.value == null) e.value = value;
      return e.value;
    }

    /**
     * Keeps m (most recently used), or refreshes the entry of its digest when that holds the same
     * content (value then replaces the old one when not null). A different content under the digest
     * is a collision: m is not kept, the entry is left as it was, and it is counted. Returns whether
     * m is kept.
     */
    public synchronized boolean put(TypeMap m, V value) {
      Entry<V> e = map.get(m.hex);
      if (e != null) {
        if (!Arrays.equals(e.typeMap.canonical, m.canonical)) {
          collisions++;
          return false;
        }
        if (value != null) e.value = value;
        return true;
      }
      map.put(m.hex, new Entry<>(m, value));
      bytes += m.canonical.length;
      Iterator<Map.Entry<String, Entry<V>>> it = map.entrySet().iterator();
      while ((map.size() > maxMaps || bytes > maxBytes) && it.hasNext()) {
        Entry<V> old = it.next().getValue();
        it.remove();
        bytes -= old.typeMap.canonical.length;
        evictions++;
      }
      return map.containsKey(m.hex); // false when m alone exceeds maxBytes
    }

    public synchronized void remove(String hex) {
      Entry<V> e = map.remove(hex);
      if (e != null) bytes -= e.typeMap.canonical.length;
    }

    public synchronized int size() { return map.size(); }

    public synchronized long evictions() { return evictions; }

    /** Maps refused because another content was kept under their digest. */
    public synchronized long collisions() { return collisions; }
  }
}
