import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.SerializerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;

/**
 * A Hessian2Input whose class definitions 0..n-1 are a type map's (docs/negotiation.md 4.2),
 * resolved once per map: the map's plan is the list of Caucho's own ObjectDefinition entries
 * (type, deserializer, field deserializers, field names) that Hessian2Input.readObjectDefinition
 * would build from the definitions' bytes, made the first time a message refers to the map and
 * kept with it. A referring message is then read where it stands, without splicing the map's
 * definitions into its bytes for Caucho to read and resolve again on every message.
 */
final class PlannedInput extends Hessian2Input {
  /** Caucho's package-private Hessian2Input.ObjectDefinition(type, reader, fields, names). */
  private static final Constructor<?> DEFINITION;

  static {
    try {
      Class<?> c = Class.forName("com.caucho.hessian.io.Hessian2Input$ObjectDefinition");
      DEFINITION = c.getDeclaredConstructor(String.class, Deserializer.class, Object[].class, String[].class);
      DEFINITION.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A map's resolved definitions, for one serializer factory. */
  static final class Plan {
    final SerializerFactory factory;
    final List<Object> definitions;

    Plan(SerializerFactory factory, List<Object> definitions) {
      this.factory = factory;
      this.definitions = definitions;
    }
  }

  PlannedInput(InputStream is, SerializerFactory factory) {
    super(is);
    setSerializerFactory(factory);
  }

  /** Pre-defines the map's classes as class numbers 0..n-1 (before anything is read). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  void seed(TypeMap map) throws IOException {
    ((List) _classDefs).addAll(plan(map, getSerializerFactory()));
  }

  /** The map's plan for `factory`: made once, then kept with the map. */
  static List<Object> plan(TypeMap map, SerializerFactory factory) throws IOException {
    Object kept = map.inputPlan;
    if (kept instanceof Plan && ((Plan) kept).factory == factory) return ((Plan) kept).definitions;
    List<Object> definitions = new ArrayList<>(map.size());
    for (int i = 0; i < map.size(); i++) {
      String type = map.types[i];
      String[] names = map.fields[i].clone();
      Deserializer reader = factory.getObjectDeserializer(type, null);
      Object[] fields = reader.createFields(names.length);
      for (int f = 0; f < names.length; f++) fields[f] = reader.createField(names[f]);
      try {
        definitions.add(DEFINITION.newInstance(type, reader, fields, names));
      } catch (ReflectiveOperationException e) {
        throw new IOException("cannot pre-define " + type, e);
      }
    }
    map.inputPlan = new Plan(factory, definitions);
    return definitions;
  }
}
