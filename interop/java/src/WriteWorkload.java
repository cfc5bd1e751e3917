import com.caucho.hessian.io.Hessian2Output;
import java.io.ByteArrayOutputStream;

/** Writes one workload value with Hessian2Output to stdout: {@code WriteWorkload items|request|reply|money|moneys N}. */
public final class WriteWorkload {
  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    Object v;
    switch (args[0]) {
      case "items": v = Workloads.items(n); break;
      case "request": v = Workloads.request(); break;
      case "reply": v = Workloads.reply(); break;
      case "money": v = Workloads.money(); break;
      case "moneys": v = Workloads.moneys(n); break;
      default: throw new IllegalArgumentException(args[0]);
    }
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    Hessian2Output out = new Hessian2Output(bos);
    out.writeObject(v);
    out.flush();
    System.out.write(bos.toByteArray());
    System.out.flush();
  }
}
