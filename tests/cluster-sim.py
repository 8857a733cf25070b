#!/usr/bin/env python3
"""A simulated Ascend cluster as Prometheus would have scraped it.

Writes OpenMetrics text (ending "# EOF") on stdout, or to --out, for
`promtool tsdb create-blocks-from openmetrics`: NODES nodes, each running
plogtop (--listen, job "plogtop", port 9466) and MindCluster's npu-exporter
(job "npu-exporter", port 8082), sampled every STEP seconds for MINUTES
minutes up to END.  Node k (from 1) is "node-%04d" % k at 10.0.k/256.k%256
(instances 10.0.0.1:9466 and 10.0.0.1:8082 for node-0001).  Every series
has the labels a scrape gives it (instance, job) and the `node` label
relabelling gives it (the node's name, as __meta_kubernetes_pod_node_name
does; contrib/prometheus.yml).

plogtop's series, as the contract of issue 17 names them:
  plogtop_incidents_total{code,resource,cause,process,device,id}
      counters that only grow; some are born inside the last WINDOW
      minutes at their first value (the pitfall: increase() of those is 0)
  plogtop_last_update_timestamp_seconds   the heartbeat (the sample time,
      frozen on a stale node)
  plogtop_counted_since_timestamp_seconds
  plogtop_process_info{pid,process,device,id,rank} 1   one per process
  plogtop_device_resources_held{device,id,resource}    ledgers of live
      processes per NPU (on a leaking node one NPU's streams climb)
  plogtop_device_failing_processes{device,id}          processes with
      incidents per NPU (crowded nodes: several on one NPU)
npu-exporter's npu_chip_info_health_status{id,model_name,pcie_bus_info,
vdie_id,pod_name,container_name,namespace} per NPU (1 healthy, 0 not), and
up for both targets.  `device` is the logical id a process logged; `id`
the physical NPU (npu-exporter's), which differs from it on half the
nodes (a container given the upper NPUs).

--stale K: the last K nodes' plogtop stopped updating its heartbeat
STALE_MINUTES before the end (its series still served, as node_exporter
serves a dead writer's file).  --down K: the K nodes before those have
plogtop's target down for DOWN_MINUTES before the end (up 0, its series
gone; more than Prometheus's 5-minute lookback, so a query at the end
sees none of them).

--truth FILE writes (else stderr gets nothing) a JSON truth: per node its
instances, NPUs, stale/down, heartbeat, per class ("CODE RESOURCE CAUSE")
the totals at the end and the counts in the last WINDOW minutes (the
growth of series that existed WINDOW minutes before the end, plus the
whole value of series born since), the failing processes and resources
held per physical NPU, the unhealthy NPUs, and the expected join rows.
Deterministic for a seed.
"""
import argparse
import json
import random
import sys
import time

CLASSES = [
    ("EE1023", "stream", "streams_created"),
    ("EE1023", "stream", "graph_streams"),
    ("EE1023", "notify", "graph_concurrency"),
    ("EE1023", "notify", "notifies_created"),
    ("EE1023", "event", "events_created"),
    ("EE1023", "async_copy", "graph_copy_tasks"),
    ("EE1001", "memcpy", "kind_location_mismatch"),
]
NAMES = ["python3", "python3.10", "pt_main_thread", "mindie_llm_back"]
# Chips and their per-device limits (plog-facts.md, section 11).
MODELS = [("Ascend910B3", 0.8), ("Ascend910", 0.15), ("Ascend310P3", 0.05)]
LIMITS = {
    "Ascend910B3": {"stream": 1984, "event": 65536, "notify": 8192},
    "Ascend910": {"stream": 2048, "event": 65535, "notify": 1024},
    "Ascend310P3": {"stream": 1024, "event": 1023, "notify": 1024},
}
PLOGTOP_PORT = 9466
NPU_EXPORTER_PORT = 8082


def labels(d):
    return "{" + ",".join('%s="%s"' % (k, v) for k, v in d.items()) + "}"


class Node:
    """One node's plan: its processes, NPUs and incidents."""

    def __init__(self, i, a, rng):
        self.name = "node-%04d" % (i + 1)
        host = "10.%d.%d.%d" % ((i + 1) // 65536, (i + 1) // 256 % 256, (i + 1) % 256)
        self.instance = "%s:%d" % (host, PLOGTOP_PORT)
        self.npu_instance = "%s:%d" % (host, NPU_EXPORTER_PORT)
        r = rng.random()
        acc = 0
        self.model = MODELS[0][0]
        for m, p in MODELS:
            acc += p
            if r < acc:
                self.model = m
                break
        self.npus = a.npus if a.npus else rng.choice([8, 16])
        # Half the nodes' containers see the upper half of the NPUs as
        # devices 0...: logical device d is physical NPU d + shift.
        self.shift = self.npus // 2 if rng.random() < 0.5 else 0
        self.crowded = rng.random() < a.crowded
        self.leaking = rng.random() < a.leaking
        self.since = a.end - a.minutes * 60 - rng.randrange(3600, 86400 * 7)
        self.unhealthy = set(x for x in range(self.npus)
                             if rng.random() < 0.01)
        self.pod = "job-%d-worker-%d" % (i // 32, i % 32)
        self.procs = []
        nproc = a.processes
        for k in range(nproc):
            if self.crowded and k < 4:
                dev = 0       # orphan ranks and a new job on one NPU
            else:
                dev = k % max(1, self.npus - self.shift)
            self.procs.append({
                "pid": rng.randrange(1000, 4000000),
                "process": rng.choice(NAMES[:2]) if k % 4 else NAMES[0],
                "device": dev,
                "id": (dev + self.shift) % self.npus,
                "rank": i * nproc + k,
                "streams": rng.randrange(16, 160),
                "events": rng.randrange(64, 2048),
                "notifies": rng.randrange(0, 64),
            })
        self.fails = []   # (proc index, class, birth, first value, growth)
        fail_p = a.failing
        for k, p in enumerate(self.procs):
            if not (rng.random() < fail_p or (self.crowded and k < 4)):
                continue
            cls = CLASSES[0] if (self.crowded and k < 4) else \
                rng.choice(CLASSES)
            if rng.random() < a.born:
                # born in the window, after its first sample
                b = a.end - rng.randrange(0, a.window * 60 // a.step) * a.step
            else:
                b = a.start + rng.randrange(
                    0, max(1, (a.minutes - a.window) * 60 // a.step)) * a.step
            incs = {}
            t = b + a.step
            while t <= a.end:
                if rng.random() < 0.05:
                    incs[t] = rng.randrange(1, 4)
                t += a.step
            self.fails.append((k, cls, b, rng.randrange(1, 20), incs))


    def npu_pod(self, x):
        """The pod given NPU x: all of them, or the upper half when the
        container sees only those (the lower ones are free)."""
        return self.pod if x >= self.shift else ""


def counter_at(fail, t):
    """The process's count at t, None before its birth."""
    _, _, b, v0, incs = fail
    if t < b:
        return None
    return v0 + sum(n for u, n in incs.items() if u <= t)


def emit(out, name, lab, points):
    ls = labels(lab)
    out.write("".join("%s%s %s %d\n" % (name, ls, v, t) for t, v in points))


def simulate(a, out):
    nodes = [Node(i, a, random.Random("%d:%d" % (a.seed, i)))
             for i in range(a.nodes)]
    n = len(nodes)
    for j, node in enumerate(nodes):
        node.stale = j >= n - a.stale
        node.down = not node.stale and n - a.stale - a.down <= j < n - a.stale
    times = list(range(a.start, a.end + 1, a.step))
    stale_t = a.end - a.stale_minutes * 60
    down_t = a.end - a.down_minutes * 60

    def live_times(node):
        return [t for t in times if not node.down or t < down_t]

    def base(node):
        return {"instance": node.instance, "job": "plogtop", "node": node.name}

    out.write("# HELP plogtop_incidents Incidents counted.\n"
              "# TYPE plogtop_incidents counter\n")
    for node in nodes:
        series = {}
        for f in node.fails:
            p = node.procs[f[0]]
            key = (f[1], p["process"], p["device"], p["id"])
            series.setdefault(key, []).append(f)
        node.series = series
        for (cls, proc, dev, pid), fs in sorted(series.items()):
            lab = base(node)
            lab.update(code=cls[0], resource=cls[1], cause=cls[2],
                       process=proc, device=dev, id=pid)
            pts = []
            for t in live_times(node):
                vs = [v for v in (counter_at(f, t) for f in fs)
                      if v is not None]
                if vs:
                    pts.append((t, sum(vs)))
            emit(out, "plogtop_incidents_total", lab, pts)
    out.write("# TYPE plogtop_last_update_timestamp_seconds gauge\n")
    for node in nodes:
        emit(out, "plogtop_last_update_timestamp_seconds", base(node),
             [(t, min(t, stale_t) if node.stale else t)
              for t in live_times(node)])
    out.write("# TYPE plogtop_counted_since_timestamp_seconds gauge\n")
    for node in nodes:
        emit(out, "plogtop_counted_since_timestamp_seconds", base(node),
             [(t, node.since) for t in live_times(node)])
    out.write("# TYPE plogtop_process_info gauge\n")
    for node in nodes:
        lt = live_times(node)
        for p in node.procs:
            lab = base(node)
            lab.update(pid=p["pid"], process=p["process"],
                       device=p["device"], id=p["id"], rank=p["rank"])
            emit(out, "plogtop_process_info", lab, [(t, 1) for t in lt])
    out.write("# TYPE plogtop_device_resources_held gauge\n")
    for node in nodes:
        lt = live_times(node)
        node.held = held_of(node, a, times[-1])
        for (dev, npu) in sorted(set((p["device"], p["id"])
                                     for p in node.procs)):
            for res in ("stream", "event", "notify"):
                lab = base(node)
                lab.update(device=dev, id=npu, resource=res)
                pts = [(t, held_at(node, a, dev, res, t)) for t in lt]
                if any(v for _, v in pts):
                    emit(out, "plogtop_device_resources_held", lab, pts)
    out.write("# TYPE plogtop_device_failing_processes gauge\n")
    for node in nodes:
        lt = live_times(node)
        for (dev, npu) in sorted(set((node.procs[f[0]]["device"],
                                      node.procs[f[0]]["id"])
                                     for f in node.fails)):
            lab = base(node)
            lab.update(device=dev, id=npu)
            pts = []
            for t in lt:
                c = sum(1 for f in node.fails
                        if node.procs[f[0]]["device"] == dev and f[2] <= t)
                if c:
                    pts.append((t, c))
            emit(out, "plogtop_device_failing_processes", lab, pts)
    out.write("# TYPE npu_chip_info_health_status gauge\n")
    for j, node in enumerate(nodes):
        for x in range(node.npus):
            lab = {"instance": node.npu_instance, "job": "npu-exporter",
                   "node": node.name, "id": x, "model_name": node.model,
                   "pcie_bus_info": "0000:%02X:00.0" % (0xC1 + x * 8 % 62),
                   "vdie_id": "%08x" % ((j * 131 + x * 7919) & 0xffffffff),
                   "pod_name": node.npu_pod(x), "container_name": "worker",
                   "namespace": "training"}
            if not lab["pod_name"]:
                lab["container_name"] = lab["namespace"] = ""
            lab = {k: v for k, v in lab.items() if v != ""}
            v = 0 if x in node.unhealthy else 1
            emit(out, "npu_chip_info_health_status", lab,
                 [(t, v) for t in times])
    out.write("# TYPE up gauge\n")
    for node in nodes:
        emit(out, "up", base(node),
             [(t, 0 if node.down and t >= down_t else 1) for t in times])
        emit(out, "up", {"instance": node.npu_instance, "job": "npu-exporter",
                         "node": node.name}, [(t, 1) for t in times])
    out.write("# EOF\n")
    return nodes


def held_at(node, a, dev, res, t):
    key = {"stream": "streams", "event": "events", "notify": "notifies"}[res]
    v = sum(p[key] for p in node.procs if p["device"] == dev)
    if node.leaking and dev == 0 and res == "stream":
        # A leak: from 40% of the chip's limit, up to 96% at the end.
        lim = LIMITS[node.model]["stream"]
        frac = (t - a.start) / max(1, a.end - a.start)
        v = int(lim * (0.40 + 0.56 * frac))
    return v


def held_of(node, a, t):
    out = {}
    for (dev, npu) in set((p["device"], p["id"]) for p in node.procs):
        out[str(npu)] = {r: held_at(node, a, dev, r, t)
                         for r in ("stream", "event", "notify")}
        out[str(npu)] = {r: v for r, v in out[str(npu)].items() if v}
    return out


def truth(a, nodes):
    w0 = a.end - a.window * 60
    res = {"end": a.end, "start": a.start, "step": a.step,
           "minutes": a.minutes, "window_minutes": a.window, "nodes": {}}
    for node in nodes:
        tot, win, born, rows = {}, {}, 0, []
        failing = {}
        visible = not node.down
        for (cls, proc, dev, npu), fs in sorted(node.series.items()):
            k = " ".join(cls)
            v_end = sum(counter_at(f, a.end) or 0 for f in fs)
            vs0 = [counter_at(f, w0) for f in fs]
            existed = any(v is not None for v in vs0)
            grow = v_end - sum(v or 0 for v in vs0) if existed else v_end
            if not existed:
                born += 1
            if visible:
                tot[k] = tot.get(k, 0) + v_end
                win[k] = win.get(k, 0) + grow
                rows.append({"code": cls[0], "resource": cls[1],
                             "cause": cls[2], "process": proc,
                             "device": dev, "id": npu, "value": v_end,
                             "window": grow, "born": not existed})
        if visible:
            for f in node.fails:
                p = node.procs[f[0]]
                failing[str(p["id"])] = failing.get(str(p["id"]), 0) + 1
        res["nodes"][node.name] = {
            "instance": node.instance, "npu_instance": node.npu_instance,
            "model_name": node.model, "npus": node.npus,
            "stale": node.stale, "down": node.down,
            "leaking": node.leaking, "crowded": node.crowded,
            "processes": len(node.procs),
            "heartbeat": (a.end - a.stale_minutes * 60) if node.stale
            else a.end,
            "totals": tot, "window": win, "born": born, "series": rows,
            "failing": failing, "held": node.held if visible else {},
            "unhealthy": sorted(node.unhealthy),
            "pods": {str(x): node.npu_pod(x) for x in range(node.npus)
                     if node.npu_pod(x)},
        }
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--nodes", type=int, default=1000)
    p.add_argument("--processes", type=int, default=16)
    p.add_argument("--npus", type=int, default=0,
                   help="NPUs per node (0: 8 or 16 at random)")
    p.add_argument("--minutes", type=int, default=60)
    p.add_argument("--step", type=int, default=30)
    p.add_argument("--end", type=int, default=None,
                   help="Unix time of the last sample (default now)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--window", type=int, default=10,
                   help="minutes of the truth's window counts")
    p.add_argument("--failing", type=float, default=0.03,
                   help="share of processes with incidents")
    p.add_argument("--born", type=float, default=0.3,
                   help="share of incident series born in the window")
    p.add_argument("--crowded", type=float, default=0.02,
                   help="share of nodes with 4 failing processes on NPU 0")
    p.add_argument("--leaking", type=float, default=0.02,
                   help="share of nodes whose NPU 0 leaks streams")
    p.add_argument("--stale", type=int, default=0)
    p.add_argument("--stale-minutes", type=int, default=20)
    p.add_argument("--down", type=int, default=0)
    p.add_argument("--down-minutes", type=int, default=10)
    p.add_argument("--out", help="the OpenMetrics file (default stdout)")
    p.add_argument("--truth", help="write the JSON truth there")
    a = p.parse_args()
    if a.step <= 0 or a.minutes <= a.window or a.nodes < 1 or \
            a.stale + a.down > a.nodes or a.down_minutes * 60 <= 300 + a.step:
        p.error("need step > 0, minutes > window, stale + down <= nodes, "
                "down-minutes past the 5-minute lookback")
    if a.end is None:
        a.end = int(time.time())
    a.start = a.end - a.minutes * 60
    out = open(a.out, "w") if a.out else sys.stdout
    with out:
        nodes = simulate(a, out)
    if a.truth:
        with open(a.truth, "w") as f:
            json.dump(truth(a, nodes), f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
