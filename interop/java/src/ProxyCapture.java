import com.caucho.hessian.client.HessianProxyFactory;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;

/**
 * Writes to stdout the request body Caucho's {@code HessianProxyFactory} sends for one call,
 * {@code add(1, 2)}, captured by a one-shot local HTTP server that answers {@code H 2 0 R 3}.
 * Argument {@code hybrid} (the factory's default: a Hessian 1 call with version 2, {@code c 02 00})
 * or {@code hessian2} ({@code setHessian2Request(true)}: {@code H 02 00 C}).
 */
public final class ProxyCapture {
  private ProxyCapture() {}

  /** The remote interface the proxy implements. */
  public interface Adder {
    int add(int a, int b);
  }

  public static void main(String[] args) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", ex -> {
      try (InputStream in = ex.getRequestBody()) {
        in.transferTo(captured);
      }
      byte[] reply = {'H', 2, 0, 'R', (byte) 0x93};
      ex.getResponseHeaders().set("Content-Type", "x-application/hessian");
      ex.sendResponseHeaders(200, reply.length);
      try (OutputStream o = ex.getResponseBody()) {
        o.write(reply);
      }
    });
    server.start();
    try {
      HessianProxyFactory f = new HessianProxyFactory();
      if (args.length > 0 && args[0].equals("hessian2")) {
        f.setHessian2Request(true);
      }
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/adder";
      Adder a = (Adder) f.create(Adder.class, url);
      int r = a.add(1, 2);
      if (r != 3) {
        throw new IllegalStateException("reply " + r);
      }
    } finally {
      server.stop(0);
    }
    System.out.write(captured.toByteArray());
    System.out.flush();
  }
}
