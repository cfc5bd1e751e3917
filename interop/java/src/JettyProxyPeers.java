import com.caucho.burlap.server.BurlapServlet;
import com.caucho.hessian.server.HessianServlet;
import org.eclipse.jetty.servlet.ServletHolder;
import org.example.jetty.HessianJetty;

/**
 * The servers behind `hessian proxy` in its tests (crates/hessian-cli/tests/proxy.rs): Caucho's
 * HessianServlet serving TestHessian2 at /test2 and W1/W2 (RpcBenchService) at /bench, and
 * Caucho's BurlapServlet serving W1/W2 at /burlap/bench, in one embedded Jetty 9.4 on 127.0.0.1
 * (HessianJetty: Jetty's defaults otherwise). Prints "PORT n" once started and serves until
 * killed. Usage: JettyProxyPeers [port]
 */
public class JettyProxyPeers {
  public static void main(String[] args) throws Exception {
    HessianJetty.serveContext(args, context -> {
      HessianServlet test2 = new HessianServlet();
      test2.setHomeAPI(RpcTestHessian2.class);
      test2.setHome(RpcTestHessian2Impl.create());
      context.addServlet(new ServletHolder(test2), "/test2");

      HessianServlet bench = new HessianServlet();
      bench.setHomeAPI(RpcBenchService.class);
      bench.setHome(new RpcBenchServiceImpl());
      context.addServlet(new ServletHolder(bench), "/bench");

      BurlapServlet burlap = new BurlapServlet();
      burlap.setAPIClass(RpcBenchService.class);
      burlap.setService(new RpcBenchServiceImpl());
      context.addServlet(new ServletHolder(burlap), "/burlap/bench");
    });
  }
}
