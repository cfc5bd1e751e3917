import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import javax.xml.ws.Endpoint;
import org.springframework.remoting.httpinvoker.SimpleHttpInvokerServiceExporter;

/**
 * The seed suite's Java servers that need more than the Hessian jar (compiled by the suite with
 * Debian's Spring and JAX-WS jars, see crates/hessian-bench/src/seed/javapeer.rs):
 * SeedPeerServer spring|jaxws.
 * <ul>
 *   <li>spring: Spring's SimpleHttpInvokerServiceExporter (Java serialization over HTTP) at /bench
 *       on the JDK's HttpServer, no servlet container;
 *   <li>jaxws: the JAX-WS RI endpoint of SeedSoapBenchImpl (SOAP 1.1) published on a context of
 *       the JDK's HttpServer at /bench.
 * </ul>
 * Prints "PORT n" and serves until its stdin closes. Listens on the system properties seed.bind
 * (default 127.0.0.1) and seed.port (default: any), set by `seed serve-all`.
 */
public final class SeedPeerServer {
  private SeedPeerServer() {}

  public static void main(String[] args) throws Exception {
    HttpServer server = HttpServer.create(
        new InetSocketAddress(System.getProperty("seed.bind", "127.0.0.1"),
            Integer.parseInt(System.getProperty("seed.port", "0"))), 256);
    server.setExecutor(Executors.newFixedThreadPool(4));
    switch (args.length > 0 ? args[0] : "") {
      case "spring": {
        SimpleHttpInvokerServiceExporter exporter = new SimpleHttpInvokerServiceExporter();
        exporter.setService(new RpcBenchServiceImpl());
        exporter.setServiceInterface(RpcBenchService.class);
        exporter.afterPropertiesSet();
        server.createContext("/bench", exporter);
        break;
      }
      case "jaxws": {
        HttpContext context = server.createContext("/bench");
        Endpoint.create(new SeedSoapBenchImpl()).publish(context);
        break;
      }
      default:
        throw new IllegalArgumentException("usage: SeedPeerServer spring|jaxws");
    }
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
    while (System.in.read() >= 0) {
      // the suite holds stdin open while it needs the server
    }
    System.exit(0);
  }
}
