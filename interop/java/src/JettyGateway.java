import org.example.gateway.GatewayApi;
import org.example.gateway.GatewayApiImpl;
import org.example.jetty.HessianJetty;

/**
 * Caucho's HessianServlet in embedded Jetty 9.4 on 127.0.0.1 behind `hessian gateway`
 * (crates/hessian-cli/tests/gateway.rs): RpcBenchServiceImpl (W1/W2) at /bench,
 * RpcTestHessian2Impl at /test2, RpcFaultServiceImpl at /faults and GatewayApiImpl at /api, one
 * servlet each, and Caucho's BurlapServlet with the same services under /burlap (/burlap/bench, …),
 * as HessianServlet does not read Burlap. Prints "PORT n" once started and serves until killed. Usage: JettyGateway [port]
 */
public class JettyGateway {
  public static void main(String[] args) throws Exception {
    HessianJetty.serveAll(
        args,
        new String[] {"/bench", "/test2", "/faults", "/api"},
        new Class<?>[] {RpcBenchService.class, RpcTestHessian2.class, RpcFaultService.class, GatewayApi.class},
        new Object[] {
          new RpcBenchServiceImpl(), RpcTestHessian2Impl.create(), new RpcFaultServiceImpl(), new GatewayApiImpl()
        },
        true);
  }
}
