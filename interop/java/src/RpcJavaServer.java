import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.burlap.server.BurlapSkeleton;
import com.caucho.hessian.server.HessianSkeleton;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * Caucho's skeletons behind com.sun.net.httpserver: /bench (RpcBenchService), /overload
 * (RpcOverloadService), /test2 (RpcTestHessian2) and /refs (RpcRefsService). Each path answers
 * Hessian (any version, as HessianSkeleton detects it) and Burlap (a body starting with '<').
 * /bench-chunked is /bench with replies sent chunked (Transfer-Encoding: chunked, as servlet
 * containers stream them) instead of with a Content-Length. Prints "PORT n" and serves until
 * killed. Usage: RpcJavaServer [port]
 */
public class RpcJavaServer {
  static void mount(HttpServer server, String path, Object impl, Class<?> api) {
    mount(server, path, impl, api, false);
  }

  static void mount(HttpServer server, String path, Object impl, Class<?> api, boolean chunked) {
    HessianSkeleton hessian = new HessianSkeleton(impl, api);
    BurlapSkeleton burlap = new BurlapSkeleton(impl, api);
    server.createContext(path, (HttpExchange ex) -> {
      try {
        if (!"POST".equals(ex.getRequestMethod())) {
          ex.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = ex.getRequestBody().readAllBytes();
        int i = 0;
        while (i < body.length && Character.isWhitespace(body[i])) i++;
        boolean isBurlap = i < body.length && body[i] == '<';
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(body);
        try {
          if (isBurlap) burlap.invoke(new BurlapInput(in), new BurlapOutput(out));
          else hessian.invoke(in, out);
        } catch (Throwable e) {
          byte[] msg = ("server error: " + e).getBytes("UTF-8");
          ex.sendResponseHeaders(500, msg.length);
          ex.getResponseBody().write(msg);
          return;
        }
        ex.getResponseHeaders().set("Content-Type", isBurlap ? "text/xml" : "x-application/hessian");
        byte[] bytes = out.toByteArray();
        // a length of 0 makes com.sun.net.httpserver send the body chunked
        ex.sendResponseHeaders(200, chunked ? 0 : bytes.length);
        OutputStream os = ex.getResponseBody();
        os.write(bytes);
      } finally {
        ex.close();
      }
    });
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
    server.setExecutor(Executors.newFixedThreadPool(8));
    mount(server, "/bench", new RpcBenchServiceImpl(), RpcBenchService.class);
    mount(server, "/bench-chunked", new RpcBenchServiceImpl(), RpcBenchService.class, true);
    mount(server, "/overload", new RpcOverloadServiceImpl(), RpcOverloadService.class);
    mount(server, "/test2", RpcTestHessian2Impl.create(), RpcTestHessian2.class);
    mount(server, "/refs", new RpcRefsServiceImpl(), RpcRefsService.class);
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
  }
}
