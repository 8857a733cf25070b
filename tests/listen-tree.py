#!/usr/bin/env python3
"""listen-tree.py OUTDIR N: a plog tree of N processes, each of its own
name (proc00000, proc00001, ...) with one EE1023 stream chain, so that the
metrics hold N series of plogtop_incidents_total.  The lines are the
stream chain of tests/live-lib.sh (the fixtures' grammar)."""
import os
import sys

CHAIN = [
    ("RUNTIME", "stream.cc:728", "Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023."),
    ("RUNTIME", "stream.cc:731", "Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023."),
    ("RUNTIME", "context.cc:1572", "StreamCreate:Setup stream failed, retCode=0x7020023."),
    ("RUNTIME", "api_impl.cc:1487", "StreamCreate:Create stream failed, priority=0, flags=0."),
    ("RUNTIME", "api_c_stream.cc:85", "rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023"),
    ("RUNTIME", "error_message_manage.cc:69", "FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail"),
    ("ASCENDCL", "stream.cpp:120", "aclrtCreateStreamWithConfig:create stream failed, runtime result = 207005"),
]


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    d = os.path.join(out, "debug", "plog")
    os.makedirs(d, exist_ok=True)
    for i in range(n):
        pid = 100000 + i
        name = "proc%05d" % i
        lines = []
        for j, (mod, loc, text) in enumerate(CHAIN):
            lines.append("[ERROR] %s(%d,%s):2026-07-13-12:00:00.000.%03d [%s]%d %s\n"
                         % (mod, pid, name, 10 * j, loc, pid + 1, text))
        path = os.path.join(d, "plog-%d_20260713120000000.log" % pid)
        with open(path, "w") as f:
            f.write("".join(lines))


if __name__ == "__main__":
    main()
