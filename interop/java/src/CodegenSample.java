import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import org.example.codegen.Circle;
import org.example.codegen.Color;

/**
 * The code generator's round trip with Java (crates/hessian-codegen/tests/codegen.rs):
 * `CodegenSample write` prints the hex of a sample Circle as Hessian2Output writes it;
 * `CodegenSample check HEX` reads a Circle from HEX and prints "ok" when it equals the sample,
 * else both descriptions.
 */
public class CodegenSample {
  static Circle sample() {
    Circle child = new Circle();
    child.radius = 1.0;
    child.label = "child";
    child.color = Color.BLUE;
    child.thumbnail = new byte[0];
    child.samples = new int[0];
    child.tags = new HashMap<>();
    child.children = new ArrayList<>();
    child.drawn = new java.util.Date(1200000000000L);
    Circle c = new Circle();
    c.radius = 2.5;
    c.zIndex = 3;
    c.visible = true;
    c.label = "disc";
    c.color = Color.DARK_GREEN;
    c.thumbnail = new byte[] {1, 2, 3};
    c.samples = new int[] {4, 5};
    c.tags = new HashMap<>();
    c.tags.put("a", 10L);
    c.children = new ArrayList<>();
    c.children.add(child);
    c.extra = 7;
    c.drawn = new java.util.Date(1200000060000L);
    return c;
  }

  static String describe(Circle c) {
    if (c == null) return "null";
    StringBuilder b = new StringBuilder();
    b.append(c.radius).append('|').append(c.zIndex).append('|').append(c.visible).append('|').append(c.label)
        .append('|').append(c.color).append('|').append(Arrays.toString(c.thumbnail)).append('|')
        .append(Arrays.toString(c.samples)).append('|').append(c.tags).append('|').append(c.extra).append('|')
        .append(c.drawn == null ? null : c.drawn.getTime()).append("|parent=").append(describe(c.parent)).append("|children=[");
    if (c.children != null) for (Circle k : c.children) b.append(describe(k)).append(';');
    return b.append(']').toString();
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("write")) {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      Hessian2Output out = new Hessian2Output(bos);
      out.writeObject(sample());
      out.close();
      System.out.println(Hex.of(bos.toByteArray()));
    } else {
      byte[] bytes = Hex.parse(args[1]);
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(bytes));
      Circle got = (Circle) in.readObject();
      String want = describe(sample());
      String have = describe(got);
      System.out.println(want.equals(have) ? "ok" : "DIFF want " + want + "\n     got  " + have);
    }
  }
}
