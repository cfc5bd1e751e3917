import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A type map of the negotiation extension (docs/negotiation.md): ordered class definitions, their
 * canonical encoding ("HTM1" + the definitions in shortest Hessian 2 forms), the digest (first 16
 * bytes of SHA-256 of it), and a small Hessian 2 scanner that finds the class definitions of a
 * message in order (to learn a map from a plain message) and the end of a call's header (to
 * splice a map's definitions into a referring message).
 */
public final class TypeMap {
  /** Section 7 limits for one map. */
  public static final int MAX_CLASSES = 256;
  public static final int MAX_CANONICAL_BYTES = 64 * 1024;

  public final String[] types;
  public final String[][] fields;
  /** "HTM1" + definitions. */
  public final byte[] canonical;
  /** The first 16 bytes of SHA-256 of {@link #canonical}. */
  public final byte[] digest;
  public final String hex;
  /** A reader's plan for this map (PlannedInput.Plan), made by the first message that needs it. */
  volatile Object inputPlan;

  public TypeMap(List<String> types, List<String[]> fields) {
    this.types = types.toArray(new String[0]);
    this.fields = fields.toArray(new String[0][]);
    this.canonical = encode(this.types, this.fields);
    this.digest = digest(canonical);
    this.hex = hex(digest);
  }

  public int size() { return types.length; }

  /** Whether the receiving side keeps this map (section 7). */
  public boolean withinLimits() {
    return types.length > 0 && types.length <= MAX_CLASSES && canonical.length <= MAX_CANONICAL_BYTES;
  }

  /** The definitions alone (the canonical encoding without "HTM1"), as a message carries them. */
  public byte[] definitions() { return Arrays.copyOfRange(canonical, 4, canonical.length); }

  static byte[] encode(String[] types, String[][] fields) {
    try {
      ByteArrayOutputStream bo = new ByteArrayOutputStream();
      bo.write(new byte[] {'H', 'T', 'M', '1'});
      Hessian2Output out = new Hessian2Output(bo);
      for (int i = 0; i < types.length; i++) {
        out.flush();
        bo.write('C');
        // Caucho's writeString / writeInt use the shortest forms (and 0x8000-unit chunks)
        out.writeString(types[i]);
        out.writeInt(fields[i].length);
        for (String f : fields[i]) out.writeString(f);
      }
      out.flush();
      return bo.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * TEST ONLY: {@code -Dhessian.typemap.testDigestBytes=N} (0 to 16) keeps the first N bytes of
   * each digest and zeroes the rest, so that different maps collide on purpose (0: every map has
   * the digest 0). Both peers of a test must set it alike. Never set it outside a collision test.
   */
  static final int DIGEST_BYTES = testDigestBytes();

  private static int testDigestBytes() {
    String v = System.getProperty("hessian.typemap.testDigestBytes");
    if (v == null) return 16;
    int n = Integer.parseInt(v.trim());
    if (n < 0 || n > 16) throw new IllegalArgumentException("hessian.typemap.testDigestBytes must be 0..16, got " + n);
    System.err.println("TypeMap: TEST ONLY: digests keep " + n + " of 16 bytes (hessian.typemap.testDigestBytes)");
    return n;
  }

  /** The first 16 bytes of SHA-256 (fewer, then zeros, under {@link #DIGEST_BYTES}). */
  public static byte[] digest(byte[] canonical) {
    try {
      byte[] d = Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(canonical), 16);
      Arrays.fill(d, DIGEST_BYTES, 16, (byte) 0);
      return d;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);

  public static String hex(byte[] b) { return hex(b, 0, b.length); }

  /** Lower-case hex of b[off, off + len). */
  public static String hex(byte[] b, int off, int len) {
    byte[] r = new byte[len * 2];
    for (int i = 0; i < len; i++) {
      int x = b[off + i];
      r[2 * i] = HEX[(x >> 4) & 15];
      r[2 * i + 1] = HEX[x & 15];
    }
    return new String(r, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /**
   * A digest header's value as 32 lower-case hex digits (the same String when it already is), or
   * null when it is not 32 hex digits (after trimming).
   */
  public static String lowerHexOrNull(String s) {
    if (s == null) return null;
    if (s.length() != 32) s = s.trim();
    if (s.length() != 32) return null;
    boolean lower = true;
    for (int i = 0; i < 32; i++) {
      char c = s.charAt(i);
      if (c >= 'A' && c <= 'F') lower = false;
      else if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) return null;
    }
    return lower ? s : s.toLowerCase(java.util.Locale.ROOT);
  }

  /** 32 lower- or upper-case hex digits, else null. */
  public static byte[] unhex(String s) {
    if (s == null) return null;
    s = s.trim();
    if (s.length() != 32) return null;
    byte[] b = new byte[16];
    for (int i = 0; i < 16; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16), lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) return null;
      b[i] = (byte) (hi << 4 | lo);
    }
    return b;
  }

  /** The map of a plain message's class definitions (H 02 00 then C call, R reply or F fault). */
  public static TypeMap ofMessage(byte[] msg) throws IOException {
    Scanner s = new Scanner(msg, 0, null);
    s.message();
    return new TypeMap(s.types, s.fields);
  }

  /**
   * Offset just after {@code C method argc} of a call starting at {@code off} (where the map's
   * definitions are spliced into a referring call).
   */
  public static int callHeaderEnd(byte[] msg, int off) throws IOException {
    Scanner s = new Scanner(msg, off, null);
    if (s.u8() != 'C') throw new IOException("expected C (call) at offset " + off);
    s.string();
    s.readInt();
    return s.p;
  }

  /** Walks Hessian 2 values, recording class definitions. */
  static final class Scanner {
    final byte[] b;
    int p;
    final List<String> types = new ArrayList<>();
    final List<String[]> fields = new ArrayList<>();
    /** Field counts of all classes known in the message (predefined ones first). */
    final List<Integer> counts = new ArrayList<>();

    Scanner(byte[] b, int p, TypeMap predefined) {
      this.b = b;
      this.p = p;
      if (predefined != null) for (String[] f : predefined.fields) counts.add(f.length);
    }

    int u8() throws IOException {
      if (p >= b.length) throw new IOException("truncated Hessian 2 message");
      return b[p++] & 0xff;
    }

    int peek() throws IOException {
      if (p >= b.length) throw new IOException("truncated Hessian 2 message");
      return b[p] & 0xff;
    }

    void skip(int n) throws IOException {
      if (n < 0 || p + n > b.length) throw new IOException("truncated Hessian 2 message");
      p += n;
    }

    void message() throws IOException {
      if (u8() != 'H' || u8() != 2 || u8() != 0) throw new IOException("not a plain Hessian 2 message");
      int t = u8();
      if (t == 'C') {
        string();
        int argc = readInt();
        for (int i = 0; i < argc; i++) value();
      } else if (t == 'R' || t == 'F') {
        value();
      } else {
        throw new IOException("expected C, R or F, got 0x" + Integer.toHexString(t));
      }
    }

    int readInt() throws IOException {
      int t = u8();
      if (t >= 0x80 && t <= 0xbf) return t - 0x90;
      if (t >= 0xc0 && t <= 0xcf) return ((t - 0xc8) << 8) + u8();
      if (t >= 0xd0 && t <= 0xd7) return ((t - 0xd4) << 16) + (u8() << 8) + u8();
      if (t == 'I') return (u8() << 24) | (u8() << 16) | (u8() << 8) | u8();
      throw new IOException("expected int, got 0x" + Integer.toHexString(t));
    }

    /** Reads a string (any form, chunked or not) and decodes it. */
    String string() throws IOException {
      StringBuilder sb = new StringBuilder();
      while (true) {
        int t = u8();
        int len;
        boolean last = true;
        if (t <= 0x1f) len = t;
        else if (t >= 0x30 && t <= 0x33) len = ((t - 0x30) << 8) + u8();
        else if (t == 'S' || t == 'R') { len = (u8() << 8) + u8(); last = t == 'S'; }
        else throw new IOException("expected string, got 0x" + Integer.toHexString(t));
        chars(len, sb);
        if (last) return sb.toString();
      }
    }

    /** Reads len UTF-16 units of Hessian's UTF-8 into sb (or skips them when sb is null). */
    void chars(int len, StringBuilder sb) throws IOException {
      int n = 0;
      while (n < len) {
        int c = u8();
        if (c < 0x80) { if (sb != null) sb.append((char) c); n++; }
        else if ((c & 0xe0) == 0xc0) { int d = u8(); if (sb != null) sb.append((char) (((c & 0x1f) << 6) | (d & 0x3f))); n++; }
        else if ((c & 0xf0) == 0xe0) {
          int d = u8(), e = u8();
          if (sb != null) sb.append((char) (((c & 0x0f) << 12) | ((d & 0x3f) << 6) | (e & 0x3f)));
          n++;
        } else if ((c & 0xf8) == 0xf0) {
          int cp = ((c & 0x07) << 18) | ((u8() & 0x3f) << 12) | ((u8() & 0x3f) << 6) | (u8() & 0x3f);
          if (sb != null) sb.appendCodePoint(cp);
          n += 2;
        } else throw new IOException("bad UTF-8 byte 0x" + Integer.toHexString(c));
      }
    }

    /** A type: a string, or an int referring to an earlier type. */
    void type() throws IOException {
      int t = peek();
      if (t <= 0x1f || (t >= 0x30 && t <= 0x33) || t == 'S' || t == 'R') string();
      else readInt();
    }

    void definition() throws IOException {
      String type = string();
      int n = readInt();
      if (n < 0 || n > b.length) throw new IOException("bad field count " + n);
      String[] f = new String[n];
      for (int i = 0; i < n; i++) f[i] = string();
      types.add(type);
      fields.add(f);
      counts.add(n);
    }

    void instance(int ref) throws IOException {
      if (ref < 0 || ref >= counts.size()) throw new IOException("object of undefined class " + ref);
      int n = counts.get(ref);
      for (int i = 0; i < n; i++) value();
    }

    void untilZ() throws IOException {
      while (peek() != 'Z') value();
      p++;
    }

    void value() throws IOException {
      int t = u8();
      while (t == 'C') { definition(); t = u8(); }
      if (t <= 0x1f) { chars(t, null); return; }
      if (t <= 0x2f) { skip(t - 0x20); return; }
      if (t <= 0x33) { chars(((t - 0x30) << 8) + u8(), null); return; }
      if (t <= 0x37) { skip(((t - 0x34) << 8) + u8()); return; }
      if (t <= 0x3f) { skip(2); return; }
      if (t >= 0x60 && t <= 0x6f) { instance(t - 0x60); return; }
      if (t >= 0x70 && t <= 0x77) { type(); for (int i = 0; i < t - 0x70; i++) value(); return; }
      if (t >= 0x78 && t <= 0x7f) { for (int i = 0; i < t - 0x78; i++) value(); return; }
      if (t >= 0x80 && t <= 0xbf) return;
      if (t >= 0xc0 && t <= 0xcf) { skip(1); return; }
      if (t >= 0xd0 && t <= 0xd7) { skip(2); return; }
      if (t >= 0xd8 && t <= 0xef) return;
      if (t >= 0xf0) { skip(1); return; }
      switch (t) {
        case 'A': case 'B': {
          while (true) {
            skip((u8() << 8) + u8());
            if (t == 'B') return;
            t = u8();
            if (t >= 0x20 && t <= 0x2f) { skip(t - 0x20); return; }
            if (t >= 0x34 && t <= 0x37) { skip(((t - 0x34) << 8) + u8()); return; }
            if (t != 'A' && t != 'B') throw new IOException("bad binary chunk 0x" + Integer.toHexString(t));
          }
        }
        case 'R': case 'S': {
          while (true) {
            chars((u8() << 8) + u8(), null);
            if (t == 'S') return;
            t = u8();
            if (t <= 0x1f) { chars(t, null); return; }
            if (t >= 0x30 && t <= 0x33) { chars(((t - 0x30) << 8) + u8(), null); return; }
            if (t != 'R' && t != 'S') throw new IOException("bad string chunk 0x" + Integer.toHexString(t));
          }
        }
        case 'D': case 'J': case 'L': skip(8); return;
        case 'I': case 'K': case 'Y': case 0x5f: skip(4); return;
        case 0x5e: skip(2); return;
        case 0x5d: skip(1); return;
        case 'N': case 'T': case 'F': case 0x5b: case 0x5c: return;
        case 'H': untilZ(); return; // untyped map: key value pairs until Z
        case 'M': type(); untilZ(); return;
        case 'O': instance(readInt()); return;
        case 'Q': readInt(); return;
        case 'U': type(); untilZ(); return;
        case 'V': { type(); int n = readInt(); for (int i = 0; i < n; i++) value(); return; }
        case 'W': untilZ(); return;
        case 'X': { int n = readInt(); for (int i = 0; i < n; i++) value(); return; }
        default: throw new IOException("unexpected Hessian 2 tag 0x" + Integer.toHexString(t));
      }
    }
  }

  public static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] x : parts) n += x.length;
    byte[] r = new byte[n];
    int o = 0;
    for (byte[] x : parts) { System.arraycopy(x, 0, r, o, x.length); o += x.length; }
    return r;
  }

  /** The referring header {@code H 02 01 T 30 <digest>} (21 bytes). */
  public byte[] referringHeader() { return sharedReferringHeader().clone(); }

  private volatile byte[] header;

  /** {@link #referringHeader}, made once per map; shared: callers only read it. */
  byte[] sharedReferringHeader() {
    byte[] h = header;
    if (h == null) {
      h = new byte[21];
      h[0] = 'H'; h[1] = 2; h[2] = 1; h[3] = 'T'; h[4] = 0x30;
      System.arraycopy(digest, 0, h, 5, 16);
      header = h;
    }
    return h;
  }

  /** A plain message (H 02 00 …) turned into a referring one for this map (its tail unchanged). */
  public byte[] refer(byte[] plain) {
    byte[] r = new byte[plain.length - 3 + 21];
    System.arraycopy(sharedReferringHeader(), 0, r, 0, 21);
    System.arraycopy(plain, 3, r, 21, plain.length - 3);
    return r;
  }

  /** {@link #internedTypes}, made on first use (racing threads make equal arrays). */
  private volatile String[] interned;

  /**
   * Interned type names, the instances Caucho's serializers pass to writeObjectBegin: interned
   * once per map, not per message (String.intern is a lookup in the JVM's string table). The
   * array is shared: callers only read it.
   */
  String[] internedTypes() {
    String[] r = interned;
    if (r == null) {
      r = new String[types.length];
      for (int i = 0; i < r.length; i++) r[i] = types[i].intern();
      interned = r;
    }
    return r;
  }

  @Override public String toString() { return "TypeMap(" + hex + ", " + Arrays.toString(types) + ")"; }
}
