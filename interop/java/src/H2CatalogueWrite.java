import com.caucho.hessian.io.Hessian2Output;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes every {@link H2Catalogue} case to stdout, each with a fresh Hessian2Output, as frames:
 * u16 name length, UTF-8 name, u32 byte length, bytes (big-endian lengths).
 */
public final class H2CatalogueWrite {
  public static void main(String[] args) throws Exception {
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
    for (H2Catalogue.Case c : H2Catalogue.cases()) {
      byte[] name = c.name.getBytes(StandardCharsets.UTF_8);
      byte[] bytes = write(c.value());
      out.writeShort(name.length);
      out.write(name);
      out.writeInt(bytes.length);
      out.write(bytes);
    }
    out.flush();
  }

  /** One value written by a fresh Hessian2Output, flushed. */
  static byte[] write(Object v) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    Hessian2Output h = new Hessian2Output(bos);
    h.writeObject(v);
    h.flush();
    return bos.toByteArray();
  }
}
