import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.HessianInput;
import com.caucho.hessian.io.HessianOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.example.evolution.*;

/**
 * Class hierarchies, generic containers and schema evolution against Rust structs
 * (crates/hessian/tests/java_types.rs). `JavaEvolution write NAME` prints the hex of a sample;
 * `JavaEvolution read HEX` prints what Java read from HEX, described field by field; `write1` and
 * `read1` do the same in Hessian 1, `writeb` and `readb` in Burlap.
 */
public class JavaEvolution {
  static Object sample(String name) {
    switch (name) {
      case "account": { Account a = new Account(); a.id = 7; a.owner = "Ada"; a.balance = 12.5; return a; }
      case "dog": {
        Dog d = new Dog(); d.name = "Rex"; d.good = true; d.legs = 4; ((Animal) d).name = "animal"; return d;
      }
      case "pair": { Pair<String, Integer> p = new Pair<>(); p.first = "x"; p.second = 5; return p; }
      default: throw new IllegalArgumentException(name);
    }
  }

  static String describe(Object o) {
    if (o instanceof Account) {
      Account a = (Account) o;
      return "Account id=" + a.id + " owner=" + a.owner + " balance=" + a.balance;
    }
    if (o instanceof Dog) {
      Dog d = (Dog) o;
      return "Dog name=" + d.name + " good=" + d.good + " animal.name=" + ((Animal) d).name + " legs=" + d.legs;
    }
    if (o instanceof Pair) {
      Pair<?, ?> p = (Pair<?, ?>) o;
      return "Pair first=" + p.first + " second=" + p.second + " (" + (p.second == null ? null : p.second.getClass().getName()) + ")";
    }
    return String.valueOf(o);
  }

  public static void main(String[] args) throws Exception {
    if (args[0].startsWith("write")) {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      if (args[0].equals("writeb")) {
        BurlapOutput out = new BurlapOutput(bos);
        out.writeObject(sample(args[1]));
        out.flush();
      } else if (args[0].equals("write1")) {
        HessianOutput out = new HessianOutput(bos);
        out.writeObject(sample(args[1]));
        out.flush();
      } else {
        Hessian2Output out = new Hessian2Output(bos);
        out.writeObject(sample(args[1]));
        out.close();
      }
      System.out.println(Hex.of(bos.toByteArray()));
    } else {
      byte[] bytes = Hex.parse(args[1]);
      ByteArrayInputStream in = new ByteArrayInputStream(bytes);
      Object o = args[0].equals("read1") ? new HessianInput(in).readObject()
          : args[0].equals("readb") ? new BurlapInput(in).readObject() : new Hessian2Input(in).readObject();
      System.out.println(describe(o));
    }
  }
}
