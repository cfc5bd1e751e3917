import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks docs/negotiation-vectors.json (docs/negotiation.md, "Test vectors") against the Java
 * implementation: each map's canonical bytes and digest from TypeMap (Caucho's writeString and
 * writeInt), the map each plain message defines (TypeMap's scanner), each referring message
 * against its plain equivalent (read by Caucho's Hessian2Input with the map's definitions spliced
 * in, and written again by Hessian2Output plain and seeded with the map), and the refusal as
 * Hessian2Output.writeFault writes it. Prints "ok map NAME" and "ok message NAME" lines; exits 1
 * at the first difference.
 * Usage: NegotiationVectors PATH
 */
public class NegotiationVectors {
  public static void main(String[] args) throws Throwable {
    String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
    Map<String, Object> doc = obj(new Json(text).document());
    Map<String, TypeMap> maps = new HashMap<>();
    for (Object o : list(doc.get("maps"))) {
      Map<String, Object> m = obj(o);
      String name = str(m.get("name"));
      List<String> types = new ArrayList<>();
      List<String[]> fields = new ArrayList<>();
      for (Object c : list(m.get("classes"))) {
        types.add(str(obj(c).get("type")));
        fields.add(list(obj(c).get("fields")).stream().map(NegotiationVectors::str).toArray(String[]::new));
      }
      TypeMap map = new TypeMap(types, fields);
      byte[] canonical = unhex(str(m.get("canonical")));
      same(name + " canonical", map.canonical, canonical);
      same(name + " digest", map.hex, str(m.get("digest")));
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(canonical);
      same(name + " digest of the canonical bytes", TypeMap.hex(Arrays.copyOf(sha, 16)), map.hex);
      maps.put(name, map);
      System.out.println("ok map " + name);
    }
    Map<String, byte[]> bytes = new HashMap<>();
    List<Object> messages = list(doc.get("messages"));
    for (Object o : messages) bytes.put(str(obj(o).get("name")), unhex(str(obj(o).get("hex"))));
    for (Object o : messages) {
      Map<String, Object> m = obj(o);
      String name = str(m.get("name"));
      byte[] b = bytes.get(name);
      if (m.containsKey("defines")) same(name + " map", TypeMap.ofMessage(b).hex, maps.get(str(m.get("defines"))).hex);
      if (m.containsKey("refers_to")) referring(name, b, maps.get(str(m.get("refers_to"))), bytes.get(str(m.get("plain"))));
      if (m.containsKey("refusal_of")) {
        String message = "unknown type map " + maps.get(str(m.get("refusal_of"))).hex + ": resend the call as plain Hessian 2";
        same(name + " code", str(m.get("code")), "UnknownTypeMap");
        same(name + " message", str(m.get("message")), message);
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bo);
        out.writeFault("UnknownTypeMap", message, null);
        out.flush();
        same(name, bo.toByteArray(), b);
      }
      System.out.println("ok message " + name);
    }
  }

  /** A referring message reads as its plain equivalent, and Java writes both from the values. */
  static void referring(String name, byte[] b, TypeMap map, byte[] plain) throws Throwable {
    same(name + " header", Arrays.copyOf(b, 21), map.referringHeader());
    boolean call = b[21] == 'C';
    byte[] spliced;
    if (call) {
      int e = TypeMap.callHeaderEnd(b, 21);
      spliced = TypeMap.concat(new byte[] {'H', 2, 0}, Arrays.copyOfRange(b, 21, e), map.definitions(),
          Arrays.copyOfRange(b, e, b.length));
    } else {
      spliced = TypeMap.concat(new byte[] {'H', 2, 0, b[21]}, map.definitions(), Arrays.copyOfRange(b, 22, b.length));
    }
    Object[] fromPlain = read(plain, call), fromReferring = read(spliced, call);
    if (!Arrays.deepEquals(fromPlain, fromReferring)) fail(name + ": reads as " + Arrays.deepToString(fromReferring));
    same(name + " written plain", write(fromPlain, call, null), plain);
    same(name + " written with the map", map.refer(write(fromPlain, call, map)), b);
  }

  /** A call's method and arguments, or a reply's value, as Caucho reads them. */
  static Object[] read(byte[] msg, boolean call) throws Throwable {
    Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(msg, 3, msg.length - 3));
    if (!call) return new Object[] {in.readReply(Object.class)};
    in.readCall();
    List<Object> r = new ArrayList<>();
    r.add(in.readMethod());
    for (int n = in.readMethodArgLength(); n > 0; n--) r.add(in.readObject());
    return r.toArray();
  }

  /** Writes what {@link #read} gave back as a plain message, its classes pre-defined by map if any. */
  static byte[] write(Object[] values, boolean call, TypeMap map) throws IOException {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bo);
    if (map != null) Negotiation.seed(out, map);
    if (call) {
      out.call((String) values[0], Arrays.copyOfRange(values, 1, values.length));
    } else {
      out.startReply();
      out.writeObject(values[0]);
      out.completeReply();
    }
    out.flush();
    return bo.toByteArray();
  }

  static void same(String what, Object got, Object want) {
    boolean eq = got instanceof byte[] ? Arrays.equals((byte[]) got, (byte[]) want) : got.equals(want);
    if (!eq) {
      String g = got instanceof byte[] ? TypeMap.hex((byte[]) got) : got.toString();
      String w = want instanceof byte[] ? TypeMap.hex((byte[]) want) : want.toString();
      fail(what + " differs:\n got  " + g + "\n want " + w);
    }
  }

  static void fail(String why) {
    System.out.println("MISMATCH " + why);
    System.exit(1);
  }

  static byte[] unhex(String s) {
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    return b;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> obj(Object o) { return (Map<String, Object>) o; }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) { return (List<Object>) o; }

  static String str(Object o) { return (String) o; }

  /** A JSON reader for the vectors: objects, arrays, strings (all escapes), numbers, literals. */
  static final class Json {
    final String s;
    int p;

    Json(String s) { this.s = s; }

    Object document() {
      Object v = value();
      ws();
      if (p != s.length()) throw error("trailing text");
      return v;
    }

    void ws() {
      while (p < s.length() && " \t\r\n".indexOf(s.charAt(p)) >= 0) p++;
    }

    RuntimeException error(String why) { return new IllegalArgumentException("JSON at " + p + ": " + why); }

    void expect(char c) {
      ws();
      if (p >= s.length() || s.charAt(p) != c) throw error("expected " + c);
      p++;
    }

    boolean next(char c) {
      ws();
      if (p < s.length() && s.charAt(p) == c) {
        p++;
        return true;
      }
      return false;
    }

    Object value() {
      ws();
      if (p >= s.length()) throw error("unexpected end");
      char c = s.charAt(p);
      if (c == '{') {
        p++;
        Map<String, Object> m = new LinkedHashMap<>();
        if (next('}')) return m;
        do {
          ws();
          String k = string();
          expect(':');
          m.put(k, value());
        } while (next(','));
        expect('}');
        return m;
      }
      if (c == '[') {
        p++;
        List<Object> l = new ArrayList<>();
        if (next(']')) return l;
        do l.add(value()); while (next(','));
        expect(']');
        return l;
      }
      if (c == '"') return string();
      for (String lit : new String[] {"true", "false", "null"}) {
        if (s.startsWith(lit, p)) {
          p += lit.length();
          return lit.equals("null") ? null : Boolean.valueOf(lit);
        }
      }
      int start = p;
      while (p < s.length() && "+-0123456789.eE".indexOf(s.charAt(p)) >= 0) p++;
      if (start == p) throw error("unexpected " + c);
      return Double.valueOf(s.substring(start, p));
    }

    String string() {
      if (p >= s.length() || s.charAt(p) != '"') throw error("expected a string");
      p++;
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (p >= s.length()) throw error("unterminated string");
        char c = s.charAt(p++);
        if (c == '"') return sb.toString();
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        char e = s.charAt(p++);
        switch (e) {
          case 'b': sb.append('\b'); break;
          case 'f': sb.append('\f'); break;
          case 'n': sb.append('\n'); break;
          case 'r': sb.append('\r'); break;
          case 't': sb.append('\t'); break;
          case 'u': sb.append((char) Integer.parseInt(s.substring(p, p + 4), 16)); p += 4; break;
          default: sb.append(e); // " \ /
        }
      }
    }
  }
}
