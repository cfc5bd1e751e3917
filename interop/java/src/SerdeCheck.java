import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.HessianInput;
import com.caucho.hessian.io.HessianOutput;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Checks what the Rust serde layer writes, and writes what it reads.
 *
 * <pre>
 * SerdeCheck check h2|h1|burlap CASE N   decode stdin, compare with the workload, print OK (exit 1 otherwise)
 * SerdeCheck write h2|h1|burlap CASE N   write the workload to stdout
 * </pre>
 * CASE: items, request, reply, money, moneys, moneycents (a list of N Money written with only
 * their cents: Java keeps text null), shared (N W2 line items sharing one Product and one Money,
 * then the first line again: Java writes the repeats as references), colors (a list of enum
 * constants, repeated: references too).
 */
public final class SerdeCheck {
  static Object expected(String c, int n) {
    switch (c) {
      case "items": return Workloads.items(n);
      case "request": return Workloads.request();
      case "reply": return Workloads.reply();
      case "money": return Workloads.money();
      case "moneys": return Workloads.moneys(n);
      case "shared": {
        com.squarespace.hopper.types.Money m = new com.squarespace.hopper.types.Money(5000, "EUR");
        com.squarespace.hopper.types.Product p =
            new com.squarespace.hopper.types.Product("SKU-0001", "Product 1", m);
        List<com.squarespace.hopper.types.LineItem> l = new java.util.ArrayList<>();
        for (int i = 1; i <= n; i++) l.add(new com.squarespace.hopper.types.LineItem(p, i, m));
        l.add(l.get(0));
        return l;
      }
      case "colors": {
        org.example.h2conformance.Color r = org.example.h2conformance.Color.RED;
        org.example.h2conformance.Color g = org.example.h2conformance.Color.GREEN;
        return new java.util.ArrayList<>(List.of(r, g, r, r, g));
      }
      default: throw new IllegalArgumentException(c);
    }
  }

  public static void main(String[] args) throws Exception {
    String proto = args[1];
    String c = args[2];
    int n = Integer.parseInt(args[3]);
    if (args[0].equals("write")) {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      AbstractHessianOutput out = proto.equals("h2") ? new Hessian2Output(bos)
          : proto.equals("h1") ? new HessianOutput(bos) : new BurlapOutput(bos);
      out.writeObject(expected(c, n));
      out.flush();
      System.out.write(bos.toByteArray());
      System.out.flush();
      return;
    }
    byte[] data = System.in.readAllBytes();
    java.io.InputStream is = new java.io.ByteArrayInputStream(data);
    AbstractHessianInput in = proto.equals("h2") ? new Hessian2Input(is)
        : proto.equals("h1") ? new HessianInput(is) : new BurlapInput(is);
    Object got = in.readObject();
    boolean ok;
    if (c.equals("moneycents")) {
      List<?> l = (List<?>) got;
      ok = l.size() == n;
      for (int i = 0; ok && i < n; i++) {
        Money m = (Money) l.get(i);
        ok = m.cents == i * 100 && m.text == null;
      }
    } else {
      ok = expected(c, n).equals(got);
    }
    if (!ok) {
      System.out.println("MISMATCH: " + got);
      System.exit(1);
    }
    System.out.println("OK");
  }
}
