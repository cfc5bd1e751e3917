import java.util.Map;
import java.util.TreeMap;

/** Java implementation of RpcDescribeService. */
public class RpcDescribeServiceImpl implements RpcDescribeService {
  public String describe(Object o) {
    if (o instanceof Map) return new TreeMap<Object, Object>((Map<?, ?>) o).toString();
    return o == null ? "null" : o.getClass().getName() + ": " + o;
  }
}
