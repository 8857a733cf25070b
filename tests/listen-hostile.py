#!/usr/bin/env python3
"""listen-hostile.py MODE PORT [ARGS]: hostile clients of plogtop --listen
on 127.0.0.1 (tests/listen-hostile.test).  Each mode is bounded in time
and count, prints what it saw, and exits 0 when the server behaved.

  slowloris N EVERY LIMIT  N connections trickling header bytes every
                           EVERY s: each must be closed by the server
                           within LIMIT s
  bigheader SIZE           a request with a SIZE-byte header: an error
                           status (431, 413, 400) or a closed connection
  many N HOLD              N connections at once, held HOLD s (then
                           closed); prints how many were accepted
  garbage                  bytes that are not HTTP, on a few connections:
                           a status or a closed connection each, at once
  noread N HOLD            N requests whose answers are never read, held
                           HOLD s: the server must have closed them
"""
import os
import socket
import sys
import time


def connect(port, rcvbuf=None):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s


def closed(s):
    """True when the peer has closed (EOF or reset), without blocking."""
    s.setblocking(False)
    try:
        while True:
            d = s.recv(65536)
            if not d:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def slowloris(port, n, every, limit):
    socks = [connect(port) for _ in range(n)]
    for s in socks:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    start = time.monotonic()
    open_ = set(range(n))
    when = {}
    while open_ and time.monotonic() - start < limit + 5:
        time.sleep(every)
        for i in list(open_):
            s = socks[i]
            try:
                s.setblocking(True)
                s.send(b"X")
            except OSError:
                pass
            if closed(s):
                open_.discard(i)
                when[i] = time.monotonic() - start
    for s in socks:
        s.close()
    print("closed after: %s; still open: %d"
          % (" ".join("%.1f" % when[i] for i in sorted(when)), len(open_)))
    return 0 if not open_ and max(when.values()) <= limit else 1


def read_status(s):
    s.setblocking(True)
    s.settimeout(10)
    try:
        d = s.recv(4096)
    except OSError:
        return "closed"
    return d.split(b"\r\n", 1)[0].decode("latin-1") if d else "closed"


def bigheader(port, size):
    s = connect(port)
    req = (b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size
           + b"\r\n\r\n")
    try:
        s.sendall(req)
    except OSError:
        pass
    st = read_status(s)
    s.close()
    print("status:", st)
    return 0 if st == "closed" or st.split()[1:2] in (["431"], ["413"], ["400"]) else 1


def many(port, n, hold):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            continue
        socks.append(s)
    print("connecting:", len(socks), flush=True)
    time.sleep(hold)
    for s in socks:
        s.close()
    return 0


GARBAGE = [
    b"\x00" * 100 + b"\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200),
    b"GET /metrics HTTP/9.9\r\n\r\n",
    b"GET\r\n\r\n",
    b"GE\xffT /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET /metrics HTTP/1.1\r\n" + b"NoColonHere\r\n" * 5 + b"\r\n",
    os.urandom(4096),
]


def garbage(port):
    bad = 0
    for g in GARBAGE:
        s = connect(port)
        try:
            s.sendall(g)
        except OSError:
            pass
        st = read_status(s)
        s.close()
        # A status (an error, or the document for a GET whose body is
        # not read) or a closed connection: never a hang or a crash.
        ok = st == "closed" or st.startswith("HTTP/1.1 ")
        bad += not ok
        print("%r... -> %s" % (g[:16], st))
    return 1 if bad else 0


def noread(port, n, hold):
    socks = []
    for _ in range(n):
        s = connect(port, rcvbuf=4096)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        socks.append(s)
    time.sleep(hold)
    shut = 0
    for s in socks:
        got = 0
        s.setblocking(True)
        s.settimeout(5)
        try:
            while True:
                d = s.recv(1 << 20)
                if not d:
                    shut += 1
                    break
                got += len(d)
        except socket.timeout:
            pass
        except OSError:
            shut += 1
        s.close()
    print("closed by the server: %d of %d" % (shut, n))
    return 0 if shut == n else 1


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    a = sys.argv[3:]
    if mode == "slowloris":
        return slowloris(port, int(a[0]), float(a[1]), float(a[2]))
    if mode == "bigheader":
        return bigheader(port, int(a[0]))
    if mode == "many":
        return many(port, int(a[0]), float(a[1]))
    if mode == "garbage":
        return garbage(port)
    if mode == "noread":
        return noread(port, int(a[0]), float(a[1]))
    return 2


if __name__ == "__main__":
    sys.exit(main())
