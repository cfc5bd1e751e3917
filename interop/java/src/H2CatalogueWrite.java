import com.caucho.hessian.io.Hessian2Output;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Writes every {@link H2Catalogue} case to stdout, each with a fresh Hessian2Output, as frames:
 * u16 name length, UTF-8 name, u32 byte length, bytes (big-endian lengths); then every
 * {@link H2Catalogue#streams()} case, each through one Hessian2Output.
 */
public final class H2CatalogueWrite {
  public static void main(String[] args) throws Exception {
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(System.out, 1 << 16));
    for (H2Catalogue.Case c : H2Catalogue.cases()) {
      frame(out, c.name, write(c.value()));
    }
    for (Map.Entry<String, Supplier<Object[]>> e : H2Catalogue.streams().entrySet()) {
      frame(out, e.getKey(), writeAll(e.getValue().get()));
    }
    out.flush();
  }

  static void frame(DataOutputStream out, String name, byte[] bytes) throws IOException {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    out.writeShort(n.length);
    out.write(n);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /** Values written one after another by one Hessian2Output, flushed. */
  static byte[] writeAll(Object[] values) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    Hessian2Output h = new Hessian2Output(bos);
    for (Object v : values) h.writeObject(v);
    h.flush();
    return bos.toByteArray();
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
