import com.squarespace.hopper.types.Order;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;
import java.util.List;
import java.util.concurrent.Executors;
import org.example.remoting.Item;

/**
 * The Java servers of the seed suite (crates/hessian-bench/src/seed): SeedJavaServer PROTOCOL.
 * <ul>
 *   <li>hessian: Caucho's HessianSkeleton and BurlapSkeleton at /bench behind the JDK's
 *       HttpServer (RpcJavaServer's handler: Hessian 1, Hessian 2 and Burlap by the request);
 *   <li>rmi: the JDK's own RMI, an RMI registry with "bench" bound to SeedRmiBench, and
 *       "bench-counted" bound to a second instance exported with SeedCountingSockets (its stub
 *       counts its socket bytes in the client's JVM: the suite's byte count of the RMI row).
 * </ul>
 * Prints "PORT n" (the HTTP port, or the registry's) and serves until its stdin closes, so that it
 * never outlives the suite that started it. System properties of `seed serve-all` (the servers of
 * a two-machine run): seed.bind, the address the HTTP server listens on (default 127.0.0.1);
 * seed.port, the port (default: any; for rmi the registry's, the two exported objects then on the
 * next two ports); seed.advertise, the host name RMI stubs carry (default 127.0.0.1).
 */
public final class SeedJavaServer {
  private SeedJavaServer() {}

  /** The RMI implementation: the same answers as RpcBenchServiceImpl. */
  static final class RmiImpl implements SeedRmiBench {
    private final RpcBenchServiceImpl impl = new RpcBenchServiceImpl();

    public List<Item> getItems(int n) { return impl.getItems(n); }

    public Order exchange(Order o) { return impl.exchange(o); }
  }

  static Object keep;
  static Object keepCounted;

  public static void main(String[] args) throws Exception {
    String protocol = args.length > 0 ? args[0] : "hessian";
    String bind = System.getProperty("seed.bind", "127.0.0.1");
    int fixed = Integer.parseInt(System.getProperty("seed.port", "0"));
    int port;
    switch (protocol) {
      case "hessian": {
        HttpServer server = HttpServer.create(new InetSocketAddress(bind, fixed), 256);
        server.setExecutor(Executors.newFixedThreadPool(4));
        RpcJavaServer.mount(server, "/bench", new RpcBenchServiceImpl(), RpcBenchService.class);
        server.start();
        port = server.getAddress().getPort();
        break;
      }
      case "rmi": {
        System.setProperty("java.rmi.server.hostname", System.getProperty("seed.advertise", "127.0.0.1"));
        RmiImpl impl = new RmiImpl();
        keep = impl;
        SeedRmiBench stub = (SeedRmiBench) UnicastRemoteObject.exportObject(impl, fixed == 0 ? 0 : fixed + 1);
        Registry registry = null;
        port = 0;
        int first = fixed != 0 ? fixed : 20000 + (int) (ProcessHandle.current().pid() % 20000);
        for (int p = first, tries = 0; tries < (fixed != 0 ? 1 : 50); tries++, p++) {
          try {
            registry = LocateRegistry.createRegistry(p);
            port = p;
            break;
          } catch (RemoteException e) {
            // port taken: try the next one
          }
        }
        if (registry == null) throw new IllegalStateException("no free port for the RMI registry");
        registry.rebind("bench", stub);
        RmiImpl counted = new RmiImpl();
        keepCounted = counted;
        registry.rebind("bench-counted", UnicastRemoteObject.exportObject(counted, fixed == 0 ? 0 : fixed + 2, new SeedCountingSockets(), null));
        break;
      }
      default:
        throw new IllegalArgumentException("unknown protocol " + protocol + " (hessian, rmi)");
    }
    System.out.println("PORT " + port);
    System.out.flush();
    while (System.in.read() >= 0) {
      // the suite holds stdin open while it needs the server
    }
    System.exit(0);
  }
}
