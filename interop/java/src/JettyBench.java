import org.example.jetty.HessianJetty;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 (Debian's libjetty9-java), serving
 * RpcBenchServiceImpl (W1 getItems, W2 exchange) at /bench on 127.0.0.1, for the server
 * benchmark (crates/hessian-bench/src/bin/server_bench.rs). Jetty's defaults otherwise (one
 * HTTP/1.1 connector, QueuedThreadPool of up to 200 threads). Prints "PORT n" once started and
 * serves until killed. Needs the Jetty jars on the class path (JETTY_JARS in
 * crates/hessian-testkit/src/java.rs). Usage: JettyBench [port]
 */
public class JettyBench {
  public static void main(String[] args) throws Exception {
    HessianJetty.serve(args, RpcBenchService.class, new RpcBenchServiceImpl(), "/bench");
  }
}
