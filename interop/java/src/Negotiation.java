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
   * reference to the map's class, so the client checks the classes it wrote
   * (NegotiatingProxyFactory.RecordingOutput) before it sends a referring call.
   */
  public static void seed(Hessian2Output out, TypeMap map) {
    IdentityIntMap refs = classRefs(out);
    if (refs.size() != 0) throw new IllegalStateException("Hessian2Output already has classes");
    String[] names = map.internedTypes();
    for (int i = 0; i < names.length; i++) refs.put(names[i], i, true);
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
    for (String v : header.split(",")) if (v.trim().equals(VERSION)) return true;
    return false;
  }

  /** The digests of a (possibly repeated, comma-separated) Hessian-Type-Map header. */
  public static List<String> digests(List<String> values) {
    List<String> r = new ArrayList<>();
    if (values == null) return r;
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
