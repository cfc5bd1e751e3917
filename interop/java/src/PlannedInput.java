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

  /** The bytes read by a reused PlannedInput (see reader). */
  private final Source source = new Source();

  /** A ByteArrayInputStream that can be pointed at other bytes. */
  static final class Source extends java.io.ByteArrayInputStream {
    Source() { super(new byte[0]); }

    void set(byte[] b, int off, int len) {
      buf = b;
      pos = mark = off;
      count = off + len;
    }
  }

  PlannedInput(SerializerFactory factory) {
    this(null, factory);
  }

  /** Whether the last message was read to its end (else this reader is not reused). */
  private boolean clean = true;

  /**
   * Ready to read b[off, off + len) with the map's classes pre-defined, as a new PlannedInput
   * would be: Caucho's init clears references, class definitions and types, resetBuffer its
   * buffered bytes (it throws, after clearing them, when the last message left some unread).
   * Returns false, unchanged, if the last use did not end cleanly (done was not called): take a
   * new one then.
   */
  boolean restart(byte[] b, int off, int len, TypeMap map) throws IOException {
    if (!clean) return false;
    clean = false;
    source.set(b, off, len);
    init(source);
    try {
      resetBuffer();
    } catch (IllegalStateException e) {
      // bytes of the last message left unread: cleared all the same
    }
    seed(map);
    return true;
  }

  /** The message was read without an exception: this reader may be reused. */
  void done() { clean = true; }

  /** A thread's reused PlannedInput (the reader of its referring messages). */
  static final class Slot {
    private PlannedInput input;

    /** A PlannedInput of factory, ready to read b[off, off + len) under map. */
    PlannedInput reader(SerializerFactory factory, byte[] b, int off, int len, TypeMap map) throws IOException {
      PlannedInput in = input;
      if (in == null || in.getSerializerFactory() != factory || !in.restart(b, off, len, map)) {
        input = in = new PlannedInput(factory);
        in.restart(b, off, len, map);
      }
      return in;
    }
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
