#!/usr/bin/env python3
"""An AMF3 remoting client written with Py3AMF (PyPI, pinned in requirements.txt beside this
script): a second implementation that calls the seed suite's Rust AMF gateway (`seed serve amf`,
crates/hessian-bench/src/seed/amf.rs), so that the AMF3 row is not tested only against itself.

Py3AMF writes the requests (`pyamf.remoting.encode` of an AMF3 envelope: an AMF0 packet whose
message body is the AMF0 array of arguments, each switched to AMF3) and reads the replies
(`pyamf.remoting.decode`); the script only frames them in HTTP/1.1 (keep-alive, one connection,
`Content-Type: application/x-amf`). W1 items and the W2 graph travel as typed, sealed objects of
the Java class names (docs/workloads.md), registered with `pyamf.register_class`.

usage:
  amf_peer.py URL check   W1 getItems(n) for n in 0, 1, 10, 500 and W2 exchange, every reply
                          checked: one line "ok w1 N" / "ok w2" per call; on a wrong reply
                          "FAIL why" and exit status 1
  amf_peer.py URL serve   the command mode of the seed suite's Java clients (SeedJavaClient):
                          one command a line on stdin, one answer a line on stdout, until EOF:
                          "prewarm COUNT SECONDS", "w1 N WARMUP MEASURED", "w2 WARMUP MEASURED",
                          "use URL" / "use direct"; answers "TIMES us1 us2 ..." or "FAIL why"
"""

import datetime
import http.client
import sys
import time
import urllib.parse

import pyamf
from pyamf import remoting

ITEM = "org.example.remoting.Item"
T = "com.squarespace.hopper.types."


def sealed(name, fields):
    """A Python class registered as the sealed AMF3 class `name` with `fields` in that order."""

    def __init__(self, **kw):
        for f in fields:
            setattr(self, f, kw.get(f))

    cls = type(name.rsplit(".", 1)[-1], (object,), {"__init__": __init__})
    cls.__amf__ = type("__amf__", (), {"static": tuple(fields), "dynamic": False})
    cls.FIELDS = fields
    pyamf.register_class(cls, name)
    return cls


Item = sealed(ITEM, ["name", "street", "city", "comment", "id", "count", "price", "ratio", "created", "updated"])
Money = sealed(T + "Money", ["cents", "currency"])
Address = sealed(T + "Address", ["street", "city", "zip", "country"])
Customer = sealed(T + "Customer", ["id", "name", "email", "address"])
Product = sealed(T + "Product", ["sku", "name", "price"])
LineItem = sealed(T + "LineItem", ["quantity", "product", "total"])
Order = sealed(T + "Order", ["id", "customer", "lines", "total", "placed"])


def date(ms):
    """Milliseconds since the epoch as the naive UTC datetime Py3AMF reads and writes."""
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)


def padded(prefix, i):
    return (prefix + "%010d" % i).ljust(40, ".")


def f32(x):
    """x rounded to a 32-bit float (W1's ratio is a Java float)."""
    import struct

    return struct.unpack(">f", struct.pack(">f", x))[0]


def item(i):
    created = 1200000000000 + i * 1000
    return Item(
        name=padded("name-", i),
        street=padded("street-", i),
        city=padded("city-", i),
        comment=padded("comment-", i),
        id=10000000000 + i,
        count=i,
        price=i * 1.25 + 0.1,
        ratio=f32((i % 100) / 7.0),
        created=date(created),
        updated=date(created + 86400000),
    )


def eur(cents):
    return Money(cents=cents, currency="EUR")


def line(k):
    return LineItem(
        quantity=k,
        product=Product(sku="SKU-%04d" % k, name="Product %d" % k, price=eur(k * 1000)),
        total=eur(k * k * 1000),
    )


def order(order_id, street, city, zip_code, ks, total, placed):
    return Order(
        id=order_id,
        customer=Customer(
            id=42,
            name="Ada Lovelace",
            email="ada@example.org",
            address=Address(street=street, city=city, zip=zip_code, country="GB"),
        ),
        lines=[line(k) for k in ks],
        total=eur(total),
        placed=date(placed),
    )


def request():
    return order(1001, "12 Analytical Row", "London", "N1 9GU", [1, 2, 3], 14000, 1200000000000)


def reply():
    return order(1002, "1 Difference Engine Way", "Cambridge", "CB2 1TN", [4, 5], 41000, 1200000060000)


def view(v):
    """A decoded value as plain data (objects as their class name and fields), to compare."""
    if hasattr(type(v), "FIELDS"):
        return (pyamf.get_class_alias(type(v)).alias, [(f, view(getattr(v, f))) for f in type(v).FIELDS])
    if isinstance(v, (list, tuple)):
        return [view(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


class Failed(Exception):
    pass


class Client:
    """Py3AMF's envelopes over one keep-alive HTTP/1.1 connection."""

    def __init__(self, url):
        u = urllib.parse.urlsplit(url)
        self.host, self.port, self.path = u.hostname, u.port, u.path or "/"
        self.conn = None

    def call(self, method, *args):
        envelope = remoting.Envelope(pyamf.AMF3)
        envelope["/1"] = remoting.Request("bench." + method, list(args))
        body = remoting.encode(envelope, strict=True).getvalue()
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                self.conn.request("POST", self.path, body, {"Content-Type": remoting.CONTENT_TYPE})
                r = self.conn.getresponse()
                data = r.read()
                break
            except (http.client.HTTPException, ConnectionError):
                # the server closed the kept connection: one new one
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        if r.status != 200:
            raise Failed("%s: HTTP %d: %s" % (method, r.status, data[:200]))
        if r.getheader("Content-Type", "").split(";")[0] != remoting.CONTENT_TYPE:
            raise Failed("%s: content type %r" % (method, r.getheader("Content-Type")))
        response = remoting.decode(data)["/1"]
        if response.status != remoting.STATUS_OK:
            raise Failed("%s: onStatus %s" % (method, response.body))
        return response.body


def check_items(v, n):
    if len(v) != n:
        raise Failed("getItems(%d) answered %d items" % (n, len(v)))
    for i in sorted({0, n // 2, n - 1}) if n else []:
        if view(v[i]) != view(item(i)):
            raise Failed("getItems(%d): item %d is wrong: %r" % (n, i, view(v[i])))


def once(client, what, n, req, want):
    if what == "w1":
        t0 = time.perf_counter()
        v = client.call("getItems", n)
        t = time.perf_counter() - t0
        check_items(v, n)
    else:
        t0 = time.perf_counter()
        v = client.call("exchange", req)
        t = time.perf_counter() - t0
        if view(v) != want:
            raise Failed("exchange answered a different graph: %r" % (view(v),))
    return t


def check(url):
    client, req, want = Client(url), request(), view(reply())
    for n in (0, 1, 10, 500):
        once(client, "w1", n, req, want)
        print("ok w1 %d" % n, flush=True)
    once(client, "w2", 0, req, want)
    print("ok w2", flush=True)


def serve(url):
    req, want = request(), view(reply())
    direct = client = Client(url)
    for line_ in sys.stdin:
        f = line_.split()
        out = "TIMES"
        try:
            if not f:
                raise Failed("empty command")
            if f[0] == "use":
                client = direct if f[1] == "direct" else Client(f[1])
            elif f[0] == "prewarm":
                count, end = int(f[1]), time.perf_counter() + float(f[2])
                i = 0
                while i < count and time.perf_counter() < end:
                    once(client, "w1", 100, req, want)
                    i += 1
            elif f[0] in ("w1", "w2"):
                n, k = (int(f[1]), 2) if f[0] == "w1" else (0, 1)
                warmup, measured = int(f[k]), int(f[k + 1])
                for _ in range(warmup):
                    once(client, f[0], n, req, want)
                times = [once(client, f[0], n, req, want) for _ in range(measured)]
                out += "".join(" %.3f" % (t * 1e6) for t in times)
            else:
                raise Failed("unknown command: " + line_.strip())
        except Exception as e:  # every failure is an answer; the client stays up
            out = "FAIL " + (str(e) if isinstance(e, Failed) else repr(e)).replace("\n", " ")
        print(out, flush=True)


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("check", "serve"):
        sys.exit(__doc__)
    url, mode = sys.argv[1], sys.argv[2]
    if mode == "serve":
        serve(url)
        return
    try:
        check(url)
    except Failed as e:
        print("FAIL %s" % e, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
