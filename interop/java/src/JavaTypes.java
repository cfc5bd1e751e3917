import com.caucho.hessian.io.AbstractSerializerFactory;
import com.caucho.hessian.io.BigDecimalDeserializer;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.SerializerFactory;
import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.*;

/**
 * Java types as Caucho 4.0.38 writes and reads them (crates/hessian/tests/java_types.rs).
 * `JavaTypes write NAME` prints the hex of the named sample as Hessian2Output writes it;
 * `JavaTypes check NAME HEX` reads HEX and prints "ok" when it equals the sample (arrays by
 * content, BigDecimal with its scale), else what it read. A BigDecimal is read with the jar's
 * BigDecimalDeserializer registered (4.0.38 leaves it out of its factory and reads every
 * BigDecimal as zero; the line says what the default reader made of it too).
 */
public class JavaTypes {
  static Object sample(String name) {
    switch (name) {
      case "bigdecimal_small": return new BigDecimal("123.4500");
      case "bigdecimal_large": return new BigDecimal("-12345678901234567890.123456789");
      case "biginteger": return new BigInteger("123456789012345678901234567890");
      case "biginteger_negative": return BigInteger.valueOf(-5);
      case "biginteger_zero": return BigInteger.ZERO;
      case "uuid": return UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
      case "sql_date": return new java.sql.Date(1200000000000L);
      case "sql_time": return new java.sql.Time(1200000000000L);
      case "sql_timestamp": return new java.sql.Timestamp(1200000000123L);
      case "locale": return Locale.US;
      case "treemap": { TreeMap<String, Integer> m = new TreeMap<>(); m.put("a", 1); m.put("b", 2); return m; }
      case "linkedhashmap": { LinkedHashMap<String, Integer> m = new LinkedHashMap<>(); m.put("z", 1); m.put("a", 2); return m; }
      case "hashtable": { Hashtable<String, Integer> m = new Hashtable<>(); m.put("a", 1); return m; }
      case "hashset": return new HashSet<>(List.of(7));
      case "treeset": return new TreeSet<>(List.of(3, 1, 2));
      case "linkedlist": return new LinkedList<>(List.of("x", "y"));
      case "vector": return new Vector<>(List.of(1L, 2L));
      case "int_array": return new int[] {1, 2, 3};
      case "string_array": return new String[] {"x", "y"};
      case "long_array": return new long[] {1L, -1L};
      case "object_array": return new Object[] {1, "a", null};
      default: throw new IllegalArgumentException("no sample " + name);
    }
  }

  static boolean same(Object a, Object b) {
    if (a instanceof int[] && b instanceof int[]) return Arrays.equals((int[]) a, (int[]) b);
    if (a instanceof long[] && b instanceof long[]) return Arrays.equals((long[]) a, (long[]) b);
    if (a instanceof Object[] && b instanceof Object[]) return Arrays.equals((Object[]) a, (Object[]) b);
    return a != null && b != null && a.getClass() == b.getClass() && a.equals(b);
  }

  static String show(Object o) {
    if (o instanceof int[]) return Arrays.toString((int[]) o);
    if (o instanceof long[]) return Arrays.toString((long[]) o);
    if (o instanceof Object[]) return Arrays.toString((Object[]) o);
    return o + " (" + (o == null ? "null" : o.getClass().getName()) + ")";
  }

  public static void main(String[] args) throws Exception {
    Object want = sample(args[1]);
    if (args[0].equals("write")) {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      Hessian2Output out = new Hessian2Output(bos);
      out.writeObject(want);
      out.close();
      System.out.println(Hex.of(bos.toByteArray()));
    } else {
      byte[] bytes = Hex.parse(args[2]);
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
      String note = "";
      if (want instanceof BigDecimal) {
        Object plain = new Hessian2Input(new ByteArrayInputStream(bytes)).readObject();
        note = " (4.0.38's default reader: " + plain + ")";
        SerializerFactory f = new SerializerFactory();
        f.addFactory(new AbstractSerializerFactory() {
          @Override public Serializer getSerializer(Class cl) { return null; }
          @Override public Deserializer getDeserializer(Class cl) {
            return cl == BigDecimal.class ? new BigDecimalDeserializer() : null;
          }
        });
        in.setSerializerFactory(f);
      }
      Object got;
      try {
        got = in.readObject();
      } catch (Exception e) {
        got = "unreadable: " + e;
      }
      System.out.println((same(want, got) ? "ok" : "DIFF got " + show(got) + ", want " + show(want)) + note);
    }
  }
}
