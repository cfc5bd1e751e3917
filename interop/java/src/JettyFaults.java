import org.example.jetty.HessianJetty;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 serving RpcFaultServiceImpl at /faults on
 * 127.0.0.1 (its {@code chain} throws an exception with a cause chain), for the tests of how
 * `hessian call` reports a Java fault and Jetty's HTML error page
 * (crates/hessian-cli/tests/explain.rs). Prints "PORT n" once started and serves until killed.
 * Usage: JettyFaults [port]
 */
public class JettyFaults {
  public static void main(String[] args) throws Exception {
    HessianJetty.serve(args, RpcFaultService.class, new RpcFaultServiceImpl(), "/faults");
  }
}
