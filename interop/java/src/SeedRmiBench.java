import com.squarespace.hopper.types.Order;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.util.List;
import org.example.remoting.Item;

/** The W1/W2 service as a Java RMI remote interface (the seed suite's RMI row). */
public interface SeedRmiBench extends Remote {
  /** W1: the list of n items. */
  List<Item> getItems(int n) throws RemoteException;

  /** W2: answers the reply graph when given the request graph; throws otherwise. */
  Order exchange(Order request) throws RemoteException;
}
