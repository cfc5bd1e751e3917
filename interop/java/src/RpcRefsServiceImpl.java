import com.squarespace.hopper.types.Money;
import java.util.List;

/** Java implementation of RpcRefsService, served by RpcJavaServer at /refs. */
public class RpcRefsServiceImpl implements RpcRefsService {
  public boolean same(Money a, Money b) {
    return a.equals(b);
  }

  public List<Money> second(Money a, List<Money> l) {
    return l;
  }
}
