#!/usr/bin/env python3
"""A fake Prometheus API for the dashboard's tests: GET /api/v1/query
answers a small cluster (nodes fake-1 and fake-2) for each of plogtop's
queries, told apart by their text.  While the file SLOW exists, every
answer waits until it is removed (at most 60 s): a server that hangs.
Writes its port to PORTFILE once it listens on loopback.  Each request
is counted in PORTFILE.count (one line a request)."""
import http.server
import json
import os
import sys
import time
import urllib.parse

portfile, slow = sys.argv[1], sys.argv[2]


def vec(samples):
    return {"status": "success", "data": {"resultType": "vector", "result": [
        {"metric": m, "value": [time.time(), str(v)]} for m, v in samples]}}


def inc(node, proc, dev, res, cause, v):
    return ({"node": node, "process": proc, "device": dev, "code": "EE1023",
             "resource": res, "cause": cause}, v)


def answer(q):
    # The windows (queries with an offset): only fake-1's streams grew, by
    # 1; the rest of the counters is older than an hour.
    if "plogtop_incidents_total" in q and "offset" in q:
        return vec([inc("fake-1", "train", "0", "stream", "streams_created", 1)])
    if "plogtop_incidents_total" in q:
        return vec([inc("fake-1", "train", "0", "stream", "streams_created", 5),
                    inc("fake-1", "train", "0", "event", "events_created", 3),
                    inc("fake-2", "infer", "3", "event", "events_created", 2)])
    if "plogtop_process_info" in q:
        return vec([({"node": "fake-1", "process": "train", "device": "0",
                      "pid": "4242", "rank": "0"}, 1)])
    if "time()" in q:
        return vec([({"node": "fake-1"}, 3), ({"node": "fake-2"}, 4)])
    return vec([])


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(portfile + ".count", "a") as f:
            f.write(self.path + "\n")
        end = time.time() + 60
        while os.path.exists(slow) and time.time() < end:
            time.sleep(0.05)
        u = urllib.parse.urlparse(self.path)
        if u.path != "/api/v1/query":
            self.send_error(404)
            return
        q = urllib.parse.parse_qs(u.query).get("query", [""])[0]
        body = json.dumps(answer(q)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % s.server_address[1])
os.rename(portfile + ".tmp", portfile)
s.serve_forever()
