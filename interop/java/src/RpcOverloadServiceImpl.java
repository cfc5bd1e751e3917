/** Java implementation of RpcOverloadService. */
public class RpcOverloadServiceImpl implements RpcOverloadService {
  public String add(int a) { return "int:" + a; }

  public String add(int a, int b) { return "int,int:" + (a + b); }

  public String add(String a, String b) { return "string,string:" + a + b; }

  public String dialect() { return "java"; }
}
