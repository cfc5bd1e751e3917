import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.HessianInput;
import com.caucho.hessian.io.HessianOutput;
import com.squarespace.hopper.types.LineItem;
import com.squarespace.hopper.types.Order;
import com.squarespace.hopper.types.Product;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * The shared-Product variant of W2 for the seed suite's experiment 2: the W2 request whose three
 * lines refer to one Product object, and the same graph with three equal copies, written with
 * Hessian2Output, HessianOutput, BurlapOutput and Java serialization (what RMI and Spring's
 * HttpInvoker send). Prints per format
 * "SHARING id shared_bytes=.. copies_bytes=.. kept=true|false", kept meaning the decoded lines
 * refer to one object again.
 */
public final class SeedSharing {
  private SeedSharing() {}

  static Order order(boolean shared) {
    Order o = Workloads.request();
    Product p = o.lines.get(0).product;
    for (LineItem l : o.lines) {
      l.product = shared ? p : new Product(p.sku, p.name, new com.squarespace.hopper.types.Money(p.price.cents, p.price.currency));
    }
    return o;
  }

  interface Codec {
    byte[] encode(Object o) throws Exception;

    Object decode(byte[] b) throws Exception;
  }

  static byte[] hessian(AbstractHessianOutput out, ByteArrayOutputStream bos, Object o) throws Exception {
    out.writeObject(o);
    out.flush();
    return bos.toByteArray();
  }

  static void report(String id, Codec c) throws Exception {
    Order shared = order(true), copies = order(false);
    byte[] a = c.encode(shared), b = c.encode(copies);
    Order back = (Order) c.decode(a);
    if (!shared.equals(back)) throw new IllegalStateException(id + ": decoded graph differs");
    boolean kept = back.lines.get(0).product == back.lines.get(1).product && back.lines.get(1).product == back.lines.get(2).product;
    System.out.println("SHARING " + id + " shared_bytes=" + a.length + " copies_bytes=" + b.length + " kept=" + kept);
  }

  public static void main(String[] args) throws Exception {
    report("hessian2", new Codec() {
      public byte[] encode(Object o) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        return hessian(new Hessian2Output(bos), bos, o);
      }

      public Object decode(byte[] b) throws Exception {
        AbstractHessianInput in = new Hessian2Input(new ByteArrayInputStream(b));
        return in.readObject(Order.class);
      }
    });
    report("hessian1", new Codec() {
      public byte[] encode(Object o) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        return hessian(new HessianOutput(bos), bos, o);
      }

      public Object decode(byte[] b) throws Exception {
        return new HessianInput(new ByteArrayInputStream(b)).readObject(Order.class);
      }
    });
    report("burlap", new Codec() {
      public byte[] encode(Object o) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        BurlapOutput out = new BurlapOutput(bos);
        out.writeObject(o);
        out.flush();
        return bos.toByteArray();
      }

      public Object decode(byte[] b) throws Exception {
        return new BurlapInput(new ByteArrayInputStream(b)).readObject(Order.class);
      }
    });
    report("serialization", new Codec() {
      public byte[] encode(Object o) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        ObjectOutputStream out = new ObjectOutputStream(bos);
        out.writeObject(o);
        out.flush();
        return bos.toByteArray();
      }

      public Object decode(byte[] b) throws Exception {
        return new ObjectInputStream(new ByteArrayInputStream(b)).readObject();
      }
    });
    System.out.flush();
  }
}
