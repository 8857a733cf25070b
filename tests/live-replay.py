#!/usr/bin/env python3
"""live-replay: write a tree made by bench/gen-tree into a directory that
plogtop --follow watches, the way live writers do, so that what --follow
prints can be checked against the generator's truth.

Usage: live-replay.py [options] SRC DEST

Every file of SRC is written to the same place under DEST by the writer
of its stream (one thread per process and directory: its rotated files
one after the other, by name, as the logger rotates by new names), in
pieces of random size that end anywhere (inside lines), a few ms apart.
On top of that, chosen with --seed from SRC.truth.json:
  --pauses N      N pauses of --pause-ms inside a line of a chain (longer
                  than plogtop keeps a chain open without a new line);
  --trickles N    N lines of a chain written a byte every --byte-ms ms;
  --delete        each plog file deleted once its writer is two files
                  further and plogtop has read it (--prom: its
                  plogtop_read_bytes_total has reached every byte
                  written before the file was finished), as a log
                  cleaner does;
  --stop-pid PID  PID (plogtop) stopped (SIGSTOP) for --stop-ms while
                  the writers go on (a burst while plogtop is stopped),
                  when half the bytes are written;
  --midpoint-hook CMD  run CMD (sh -c) when half the bytes are written
                  (after --stop-pid's stop, the writers going on), no file
                  deleted while it runs: tests/differential.test restarts
                  plogtop there with the same --state (its hook removes
                  the prom file, so that deleting waits for the new
                  plogtop's word).
Prints what it did on stderr (one line) and exits 0, or 1 with why.
Only the standard library is used.
"""

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time


class Shared:
    def __init__(self, args, total):
        self.args = args
        self.lock = threading.Lock()
        self.written = 0
        self.total = total
        self.midpoint = threading.Event()
        self.mid_done = threading.Event()
        self.error = None
        # Held by the midpoint hook: no file is deleted while plogtop is
        # restarted (a cleaner that deletes a file between a SIGTERM and
        # the next start loses what the next run was to read again).
        self.delete_lock = threading.Lock()
        self.done = {'pauses': 0, 'trickles': 0, 'deleted': 0, 'stops': 0}

    def add(self, n):
        with self.lock:
            self.written += n
            if self.written * 2 >= self.total:
                self.midpoint.set()
            return self.written


def read_bytes(prom):
    try:
        with open(prom) as f:
            for line in f:
                if line.startswith('plogtop_read_bytes_total '):
                    return int(float(line.split()[1]))
    except (OSError, ValueError):
        pass
    return -1


def wait_read(sh, upto, deadline_s):
    """Until plogtop has read upto bytes (its prom file says so)."""
    end = time.time() + deadline_s
    while read_bytes(sh.args.prom) < upto:
        if time.time() > end:
            raise RuntimeError('plogtop did not read %d bytes within %ds (prom file says %d)'
                               % (upto, deadline_s, read_bytes(sh.args.prom)))
        time.sleep(0.05)


def line_spans(data):
    """Start offset of every line (1-based list index -> offset)."""
    starts = [0]
    for m in re.finditer(b'\n', data):
        starts.append(m.end())
    return starts


def writer(sh, rels, effects, rng):
    """One stream: its files in order.  effects: {(rel, line): kind}."""
    a = sh.args
    done_ends = []          # bytes written in all when each file was finished
    for k, rel in enumerate(rels):
        with open(os.path.join(a.src, rel), 'rb') as f:
            data = f.read()
        dst = os.path.join(a.dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        starts = line_spans(data)
        # Cut points: random pieces, and the places effects need.
        cuts = {}
        for (r, ln), kind in effects.items():
            if r != rel or ln >= len(starts) or starts[ln - 1] >= len(data):
                continue
            s = starts[ln - 1]
            e = starts[ln] if ln < len(starts) else len(data)
            if kind == 'pause':
                cuts[s + (e - s) // 2] = ('pause', None)
            else:
                cuts[s] = ('trickle', e)
        with open(dst, 'ab', buffering=0) as out:
            pos = 0
            while pos < len(data):
                nxt = min(len(data), pos + rng.randint(200, 6000))
                for c in sorted(cuts):
                    if pos < c <= nxt:
                        nxt = c
                        break
                if pos in cuts and cuts[pos][0] == 'trickle':
                    end = cuts.pop(pos)[1]
                    for i in range(pos, end):
                        out.write(data[i:i + 1])
                        sh.add(1)
                        time.sleep(a.byte_ms / 1000.0)
                    sh.done['trickles'] += 1
                    pos = end
                    continue
                out.write(data[pos:nxt])
                sh.add(nxt - pos)
                pos = nxt
                if pos in cuts and cuts[pos][0] == 'pause':
                    cuts.pop(pos)
                    time.sleep(a.pause_ms / 1000.0)
                    sh.done['pauses'] += 1
                if sh.midpoint.is_set() and not sh.mid_done.is_set():
                    sh.mid_done.wait(a.deadline)
                time.sleep(rng.randint(1, 15) / 1000.0)
        with sh.lock:
            done_ends.append(sh.written)
        if a.delete and '/plog/' in '/' + rel and k >= 2:
            old = rels[k - 2]
            end = time.time() + a.deadline
            while True:
                wait_read(sh, done_ends[k - 2], max(end - time.time(), 0))
                with sh.delete_lock:
                    # Read again under the lock: a restart may have come
                    # between (its hook removes the prom file).
                    if read_bytes(a.prom) >= done_ends[k - 2]:
                        os.unlink(os.path.join(a.dest, old))
                        break
            sh.done['deleted'] += 1


def run_thread(sh, *targs):
    try:
        writer(sh, *targs)
    except Exception as e:      # reported by the main thread
        sh.error = '%s: %s' % (type(e).__name__, e)
        sh.mid_done.set()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--pauses', type=int, default=2)
    ap.add_argument('--pause-ms', type=int, default=3000)
    ap.add_argument('--trickles', type=int, default=2)
    ap.add_argument('--byte-ms', type=int, default=20)
    ap.add_argument('--delete', action='store_true')
    ap.add_argument('--prom')
    ap.add_argument('--stop-pid', type=int)
    ap.add_argument('--stop-ms', type=int, default=1500)
    ap.add_argument('--midpoint-hook')
    ap.add_argument('--deadline', type=int, default=60)
    ap.add_argument('src')
    ap.add_argument('dest')
    a = ap.parse_args()
    if a.delete and not a.prom:
        ap.error('--delete needs --prom')
    rng = random.Random('live-replay/%d' % a.seed)
    with open(a.src.rstrip('/') + '.truth.json') as f:
        truth = json.load(f)

    streams = {}
    total = 0
    for d, _, names in os.walk(a.src):
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), a.src)
            m = re.match(r'(plog|device)-(\d+)_', n)
            key = (os.path.dirname(rel), m.group(2) if m else n)
            streams.setdefault(key, []).append(rel)
            total += os.path.getsize(os.path.join(a.src, rel))
    for v in streams.values():
        v.sort()

    # Effects on lines of chains: the line after a chain's first line.
    chains = sorted((d['file'], d['line']) for d in truth['detail'])
    rng.shuffle(chains)
    effects = {}
    for kind, n in (('pause', a.pauses), ('trickle', a.trickles)):
        for rel, line in chains:
            if n == 0:
                break
            if (rel, line + 1) in effects or (rel, line) in effects:
                continue
            effects[(rel, line + 1)] = kind
            n -= 1

    sh = Shared(a, total)
    threads = []
    for key in sorted(streams):
        t = threading.Thread(target=run_thread,
                             args=(sh, streams[key], effects,
                                   random.Random(rng.getrandbits(64))))
        t.daemon = True
        threads.append(t)
        t.start()

    started = time.time()
    if sh.midpoint.wait(a.deadline) and not sh.error:
        if a.stop_pid:
            os.kill(a.stop_pid, signal.SIGSTOP)
            sh.mid_done.set()       # the writers go on: a burst
            time.sleep(a.stop_ms / 1000.0)
            os.kill(a.stop_pid, signal.SIGCONT)
            sh.done['stops'] += 1
        if a.midpoint_hook:
            # A restart of plogtop (tests/differential.test), no file
            # deleted meanwhile.
            with sh.delete_lock:
                subprocess.run(a.midpoint_hook, shell=True, check=True)
    sh.mid_done.set()
    for t in threads:
        t.join(a.deadline)
        if t.is_alive():
            sh.error = sh.error or 'a writer did not finish within %ds' % a.deadline
    if sh.error:
        sys.stderr.write('live-replay: %s\n' % sh.error)
        return 1
    sys.stderr.write('live-replay: %d bytes in %d streams in %.1f s; %d pauses inside lines, '
                     '%d lines a byte at a time, %d files deleted, %d stops\n'
                     % (sh.written, len(streams), time.time() - started, sh.done['pauses'],
                        sh.done['trickles'], sh.done['deleted'], sh.done['stops']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
