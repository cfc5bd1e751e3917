"""python-hessian (PyPI `python-hessian`, module `pyhessian`) as a peer of the Rust server.

Driven by `crates/hessian-rpc/tests/peers.rs`, which installs the pinned library into
`target/peers/python` (`interop/peers/requirements.txt`) and runs this script against a Rust
server on loopback. python-hessian writes Hessian 1 calls (`c 1 0`, or with version 2 the
`c 2 0` hybrid that Java's proxy sends, answered in Hessian 2) and reads Hessian 1 and Hessian 2
replies.

Commands (VERSION is 1 or 2, the call's major version):

  w URL VERSION        W1 getItems(n) for several n and W2 exchange(Order), every reply checked
                       against the workload's definition (docs/workloads.md); prints `ok ...`
                       lines, exits 1 on the first difference.
  replies URL VERSION  stdin: one method name per line. Calls each (no arguments) and prints one
                       JSON line per method: {"method", "value"} with the value in the peers'
                       plain view (see dump()), or {"method", "error"}.
  args URL VERSION     stdin: JSON lines {"method", "value"} with the value in typed JSON
                       (docs/typed-json.md). Builds the value with the library's types, calls the
                       method with it and prints {"method", "result"}; {"method", "unsupported"}
                       when the library cannot express the value.
  encode               stdin: JSON lines {"name", "value"} (typed JSON). Prints {"name", "hex"}:
                       the bytes the library's encoder writes for the value (Hessian 1).
"""

import base64
import calendar
import datetime
import json
import sys

from pyhessian.client import HessianProxy
from pyhessian.data_types import long
from pyhessian.encoder import Encoder
from pyhessian.protocol import Binary, Object, cls_factory

EPOCH = datetime.datetime(1970, 1, 1)


class Unsupported(Exception):
    """A value python-hessian has no way to write."""


def millis(dt):
    return calendar.timegm(dt.utctimetuple()) * 1000 + dt.microsecond // 1000


def from_millis(ms):
    return EPOCH + datetime.timedelta(milliseconds=ms)


def dump(v, stack=()):
    """The plain view of a decoded value: JSON scalars, {"date": ms}, {"binary": hex},
    lists, {"map": [[k, v], ...]} and {"object": type, "fields": [[name, v], ...]};
    {"cycle": true} where a value contains itself."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"double": repr(v)}
    if isinstance(v, datetime.datetime):
        return {"date": millis(v)}
    if isinstance(v, Binary):
        return {"binary": v.value.hex()}
    if isinstance(v, (bytes, bytearray)):
        return {"binary": bytes(v).hex()}
    if any(v is s for s in stack):
        return {"cycle": True}
    inner = stack + (v,)
    if isinstance(v, (list, tuple)):
        return [dump(x, inner) for x in v]
    if isinstance(v, dict):
        return {"map": [[dump(k, inner), dump(x, inner)] for k, x in v.items()]}
    if isinstance(v, Object):
        name = type(v).__module__ + "." + type(v).__name__
        return {"object": name, "fields": [[k, dump(x, inner)] for k, x in v.__getstate__().items()]}
    raise TypeError("cannot dump %r" % (type(v),))


def build(j, table=None):
    """A python-hessian value from typed JSON. `{"ref": n}` is the n-th list, map or object
    built so far (Hessian's numbering), so shared and circular values are the same Python
    object, which the encoder then writes as a reference itself."""
    if table is None:
        table = []
    if j is None or isinstance(j, (bool, str)):
        return j
    if isinstance(j, int):
        return j
    if isinstance(j, float):
        return j
    if isinstance(j, list):
        # a tuple is what python-hessian writes as a fixed-length list (`V l n`); it can only
        # be registered once built, so nothing inside may refer to it
        slot = len(table)
        table.append(None)
        table[slot] = t = tuple(build(x, table) for x in j)
        return t
    if not isinstance(j, dict):
        raise Unsupported("JSON %r" % (j,))
    if "int" in j:
        return int(j["int"])
    if "long" in j:
        return long(int(j["long"]))
    if "double" in j:
        return float(j["double"])
    if "string" in j:
        return j["string"]
    if "date" in j:
        d = j["date"]
        if isinstance(d, str) and "T" in d:
            dt = datetime.datetime.strptime(d.replace("Z", ""), "%Y-%m-%dT%H:%M:%S.%f" if "." in d else "%Y-%m-%dT%H:%M:%S")
        else:
            dt = from_millis(int(d))
        if dt.microsecond:
            raise Unsupported("python-hessian writes dates in whole seconds")
        return dt
    if "binary" in j:
        return Binary(base64.b64decode(j["binary"]))
    if "list" in j:
        if j.get("type") is not None:
            raise Unsupported("python-hessian writes no list type")
        slot = len(table)
        table.append(None)
        items = [build(x, table) for x in j["list"]]
        table[slot] = v = tuple(items) if j.get("fixed", True) else items
        return v
    if "map" in j:
        entries = j["map"].items() if isinstance(j["map"], dict) else j["map"]
        slot = len(table)
        table.append(None)
        pairs = [(build(k, table), build(v, table)) for k, v in entries]
        if j.get("type") is not None:
            if not all(isinstance(k, str) for k, _ in pairs):
                raise Unsupported("python-hessian writes a typed map only as an object")
            table[slot] = v = make(j["type"], dict(pairs))
            return v
        try:
            table[slot] = v = dict(pairs)
        except TypeError:
            raise Unsupported("a map key python cannot hash")
        return v
    if "object" in j:
        fields = j.get("fields", {})
        pairs = fields.items() if isinstance(fields, dict) else fields
        # registered before its fields are built, so that they may refer to it (a cycle)
        obj = make(j["object"], {})
        table.append(obj)
        obj.__setstate__({k: build(v, table) for k, v in pairs})
        return obj
    if "ref" in j:
        n = j["ref"]
        if n >= len(table) or table[n] is None:
            raise Unsupported("a reference into a list python-hessian writes as a tuple")
        return table[n]
    # a plain JSON object: an untyped map with string keys
    m = {}
    table.append(m)
    m.update((k, build(v, table)) for k, v in j.items())
    return m


class Proxy(object):
    """A HessianProxy per call: python-hessian's proxy keeps its reply parser, and the parser
    keeps the version of the first reply, so a second Hessian 2 reply (`H 2 0 R`) on the same
    proxy fails with "Invalid Hessian message marker". (Its connection is closed after every
    call anyway.)"""

    def __init__(self, url, version):
        self.url, self.version = url, int(version)

    def __getattr__(self, method):
        return getattr(HessianProxy(self.url, version=self.version, timeout=30), method)


def proxy(url, version):
    return Proxy(url, version)


def make(type_name, fields):
    """An instance of the remote class `type_name` with `fields` in order (the library's own
    factory takes them as keyword arguments after its own `name`, so a field called `name`
    cannot pass through it)."""
    cls = cls_factory(type_name, list(fields.keys()))
    obj = cls.__new__(cls)
    obj.__setstate__(dict(fields))
    return obj


def pad40(prefix, i):
    s = "%s%010d" % (prefix, i)
    return s + "." * (40 - len(s))


def check(what, got, want):
    if got != want:
        print("MISMATCH %s: got %r, want %r" % (what, got, want))
        sys.exit(1)


def check_items(items, n):
    check("W1 length", len(items), n)
    for i, it in enumerate(items):
        check("W1 type", type(it).__module__ + "." + type(it).__name__, "org.example.remoting.Item")
        check("W1 name", it.name, pad40("name-", i))
        check("W1 street", it.street, pad40("street-", i))
        check("W1 city", it.city, pad40("city-", i))
        check("W1 comment", it.comment, pad40("comment-", i))
        created = 1200000000000 + i * 1000
        check("W1 created", millis(it.created), created)
        check("W1 updated", millis(it.updated), created + 86400000)
        check("W1 id", it.id, 10000000000 + i)
        check("W1 count", it.count, i)
        check("W1 price", it.price, i * 1.25 + 0.1)
        # a Java float widened to double: compare at float precision
        check("W1 ratio", round(it.ratio, 5), round((i % 100) / 7.0, 5))


T = "com.squarespace.hopper.types."


def money(cents):
    return make(T + "Money", {"cents": cents, "currency": "EUR"})


def address(street, city, zip_code):
    return make(T + "Address", {"street": street, "city": city, "zip": zip_code, "country": "GB"})


def line(k):
    product = make(T + "Product", {"sku": "SKU-%04d" % k, "name": "Product %d" % k, "price": money(k * 1000)})
    return make(T + "LineItem", {"product": product, "quantity": k, "total": money(k * k * 1000)})


def order(order_id, street, city, zip_code, ks, total, placed):
    customer = make(
        T + "Customer",
        {"id": long(42), "name": "Ada Lovelace", "email": "ada@example.org", "address": address(street, city, zip_code)},
    )
    return make(
        T + "Order",
        {
            "id": long(order_id),
            "customer": customer,
            "lines": [line(k) for k in ks],
            "total": money(total),
            "placed": from_millis(placed),
        },
    )


def w2_view(o):
    """The W2 graph as plain data, to compare the reply with its definition."""
    return dump(o)


def workloads(url, version):
    p = proxy(url, version)
    for n in (0, 1, 10, 100, 1000):
        check_items(p.getItems(n), n)
        print("ok W1 getItems(%d)" % n)
    request = order(1001, "12 Analytical Row", "London", "N1 9GU", (1, 2, 3), 14000, 1200000000000)
    want = order(1002, "1 Difference Engine Way", "Cambridge", "CB2 1TN", (4, 5), 41000, 1200000060000)
    got = p.exchange(request)
    check("W2 reply", sorted_view(w2_view(got)), sorted_view(w2_view(want)))
    print("ok W2 exchange")


def sorted_view(v):
    """Field order aside (python-hessian keeps the wire's, the builder its own)."""
    if isinstance(v, list):
        return [sorted_view(x) for x in v]
    if isinstance(v, dict) and "object" in v:
        return {"object": v["object"], "fields": sorted([k, sorted_view(x)] for k, x in v["fields"])}
    return v


def replies(url, version):
    p = proxy(url, version)
    for method in sys.stdin.read().split():
        try:
            out = {"method": method, "value": dump(getattr(p, method)())}
        except Exception as e:  # the test reports what the library could not read
            out = {"method": method, "error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(out))


def args(url, version):
    p = proxy(url, version)
    for text in sys.stdin:
        if not text.strip():
            continue
        case = json.loads(text)
        method = case["method"]
        try:
            value = build(case["value"])
        except Unsupported as e:
            print(json.dumps({"method": method, "unsupported": str(e)}))
            continue
        try:
            out = {"method": method, "result": dump(getattr(p, method)(value))}
        except Exception as e:
            out = {"method": method, "error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(out))


def encode():
    for text in sys.stdin:
        if not text.strip():
            continue
        case = json.loads(text)
        try:
            value = build(case["value"])
        except Unsupported as e:
            print(json.dumps({"name": case["name"], "unsupported": str(e)}))
            continue
        print(json.dumps({"name": case["name"], "hex": Encoder().encode(value).hex()}))


def main():
    cmd = sys.argv[1]
    if cmd == "w":
        workloads(sys.argv[2], sys.argv[3])
    elif cmd == "replies":
        replies(sys.argv[2], sys.argv[3])
    elif cmd == "args":
        args(sys.argv[2], sys.argv[3])
    elif cmd == "encode":
        encode()
    else:
        sys.exit("unknown command %r" % (cmd,))


if __name__ == "__main__":
    main()
