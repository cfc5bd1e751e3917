import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.burlap.server.BurlapSkeleton;
import com.caucho.hessian.server.HessianSkeleton;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * Caucho's skeletons behind com.sun.net.httpserver: /bench (RpcBenchService), /overload
 * (RpcOverloadService), /test2 (RpcTestHessian2), /refs (RpcRefsService) and /faults
 * (RpcFaultService). Each path answers
 * Hessian (any version, as HessianSkeleton detects it) and Burlap (a body starting with '<').
 * /bench-chunked is /bench with replies sent chunked (Transfer-Encoding: chunked, as servlet
 * containers stream them) instead of with a Content-Length. Prints "PORT n" and serves until
 * killed. Usage: RpcJavaServer [port]
 * With -Dseed.bind=ADDR it listens on ADDR (default 127.0.0.1); with -Dseed.lifeline=true it exits
 * when its stdin closes (`seed serve-all`, the servers of a two-machine run).
 * With -Dhttps.keystore=FILE.p12 (PKCS12, password -Dhttps.password, default "changeit") it
 * serves https; with -Dauth.user=U -Dauth.password=P every path asks for HTTP basic
 * authentication (401 without it).
 */
public class RpcJavaServer {
  static void mount(HttpServer server, String path, Object impl, Class<?> api) {
    mount(server, path, impl, api, false);
  }

  static void mount(HttpServer server, String path, Object impl, Class<?> api, boolean chunked) {
    HessianSkeleton hessian = new HessianSkeleton(impl, api);
    BurlapSkeleton burlap = new BurlapSkeleton(impl, api);
    HttpContext context = server.createContext(path, (HttpExchange ex) -> {
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
    String user = System.getProperty("auth.user");
    if (user != null) {
      String password = System.getProperty("auth.password", "");
      context.setAuthenticator(new BasicAuthenticator("hessian") {
        @Override public boolean checkCredentials(String u, String p) {
          return user.equals(u) && password.equals(p);
        }
      });
    }
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    String bind = System.getProperty("seed.bind", "127.0.0.1");
    String keystore = System.getProperty("https.keystore");
    HttpServer server;
    if (keystore != null) {
      char[] password = System.getProperty("https.password", "changeit").toCharArray();
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (FileInputStream in = new FileInputStream(keystore)) { ks.load(in, password); }
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(kmf.getKeyManagers(), null, null);
      HttpsServer https = HttpsServer.create(new InetSocketAddress(bind, port), 256);
      https.setHttpsConfigurator(new HttpsConfigurator(ssl));
      server = https;
    } else {
      server = HttpServer.create(new InetSocketAddress(bind, port), 256);
    }
    server.setExecutor(Executors.newFixedThreadPool(8));
    mount(server, "/bench", new RpcBenchServiceImpl(), RpcBenchService.class);
    mount(server, "/bench-chunked", new RpcBenchServiceImpl(), RpcBenchService.class, true);
    mount(server, "/overload", new RpcOverloadServiceImpl(), RpcOverloadService.class);
    mount(server, "/test2", RpcTestHessian2Impl.create(), RpcTestHessian2.class);
    mount(server, "/refs", new RpcRefsServiceImpl(), RpcRefsService.class);
    mount(server, "/faults", new RpcFaultServiceImpl(), RpcFaultService.class);
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
    if (Boolean.getBoolean("seed.lifeline")) {
      // `seed serve-all` holds stdin open while it needs the server: exit when it closes
      while (System.in.read() >= 0) {
        // nothing to read
      }
      System.exit(0);
    }
  }
}
