"""Shared helpers of the live-mode benchmarks (live-latency, live-idle,
live-throughput): plog lines, incident chains, /proc sampling, child
processes.  Standard library only.  Not a program of its own.
"""

import math
import os
import platform
import random
import re
import signal
import subprocess
import sys
import time

# ---- plog lines -------------------------------------------------------------

_MS = ['.%03d' % i for i in range(1000)]
_sec_cache = {}


def sec_str(sec):
    """'YYYY-MM-DD-hh:mm:ss' of one second, local time (plog writes local time)."""
    s = _sec_cache.get(sec)
    if s is None:
        if len(_sec_cache) > 4096:
            _sec_cache.clear()
        s = _sec_cache[sec] = '%04d-%02d-%02d-%02d:%02d:%02d' % time.localtime(sec)[:6]
    return s


def ts(t_us):
    """Line time stamp YYYY-MM-DD-hh:mm:ss.mmm.uuu of t_us microseconds since the epoch."""
    s, r = divmod(int(t_us), 1000000)
    return sec_str(s) + _MS[r // 1000] + _MS[r % 1000]


def now_us():
    return int(time.time() * 1000000)


def file_stamp(t_us):
    """17-digit file name stamp YYYYMMDDhhmmssmmm."""
    s, r = divmod(int(t_us), 1000000)
    return '%04d%02d%02d%02d%02d%02d%03d' % (time.localtime(s)[:6] + (r // 1000,))


def plog_name(pid, t_us):
    return 'plog-%d_%s.log' % (pid, file_stamp(t_us))


NOISE_BODIES = [
    ('RUNTIME', ' [stream.cc:%d] %d AddTaskToStream:recorded public task to stream, stream_id=%d, task_id=%d, task_type=2'),
    ('RUNTIME', ' [engine.cc:%d] %d ReceivingRun:report receive, stream_id=%d, sq_id=266, task_id=%d, sqHead=3.'),
    ('RUNTIME', ' [logger.cc:%d] %d TaskFinished:device_id=0, stream_id=%d, task_id=%d, task_type=13'),
    ('RUNTIME', ' [npu_driver.cc:%d] %d CommandSend:device_id=0, tsId=0, sqId=%d, reportCount=%d, command=0x1f'),
    ('RUNTIME', ' [api_impl.cc:%d] %d KernelLaunch:launch kernel, stream_id=%d, block_dim=%d, kernel_name=MatMulV2'),
    ('GE', ' [graph_manager.cc:%d]%d RunGraphAsync:[RunGraph] run graph async, graph_id:%d, session_id:%d'),
    ('GE', ' [model_manager.cc:%d]%d ExecuteModel:execute model begin, model_id:%d, iteration:%d'),
    ('ASCENDCL', ' [memory.cc:%d]%d aclrtMemcpyAsync:start to execute aclrtMemcpyAsync, destMaxSize = %d, srcSize = %d, kind = 1'),
]


def noise_body(rng, tid):
    """One INFO/DEBUG line's (module, level, body); body starts right after the time stamp."""
    module, fmt = rng.choice(NOISE_BODIES)
    level = 'DEBUG' if rng.random() < 0.25 else 'INFO'
    return module, level, fmt % (rng.randint(30, 4000), tid, rng.randint(2, 300), rng.randint(0, 65535))


def noise_line(rng, pid, name, tid, t_us):
    module, level, body = noise_body(rng, tid)
    return '[%s] %s(%d,%s):%s%s\n' % (level, module, pid, name, ts(t_us), body)


def _rt(pid, name, t_us, src, tid, msg):
    return '[ERROR] RUNTIME(%d,%s):%s [%s]%d %s\n' % (pid, name, ts(t_us), src, tid, msg)


def chain_lines(rng, pid, name, tid, t_us, shape=None):
    """One EE1023 incident chain (one failed API call on thread tid) as a list
    of lines, current-release forms.  Returns (lines, index of the API
    boundary line, class key)."""
    if shape is None:
        shape = rng.choice(['stream', 'event'])
    L = []
    t = t_us
    if shape == 'stream':
        sid = rng.choice([2047, 1983, 2046])
        L.append(_rt(pid, name, t, 'stream.cc:728', tid, 'Setup:Alloc sq cq failed, stream_id=%d, retCode=0x7020023.' % sid))
        t += 5
        L.append(_rt(pid, name, t, 'stream.cc:731', tid, 'Setup:Alloc Stream resource failed. Reason: Too many '
                                                          'streams are created. ErrorCode=EE1023.'))
        t += 30
        L.append(_rt(pid, name, t, 'context.cc:1572', tid, 'StreamCreate:Setup stream failed, retCode=0x7020023.'))
        t += 11
        L.append(_rt(pid, name, t, 'api_impl.cc:1487', tid, 'StreamCreate:Create stream failed, priority=0, flags=0.'))
        t += 14
        boundary = len(L)
        L.append(_rt(pid, name, t, 'api_c_stream.cc:85', tid, 'rtStreamCreateWithFlags:ErrCode=207005, '
                                                              'desc=[driver error:resource alloc fail], InnerCode=0x7020023'))
        t += 3
        L.append(_rt(pid, name, t, 'error_message_manage.cc:69', tid, 'FuncErrorReason:rtStreamCreateWithFlags '
                                                                      'execution failed, reason=driver error:resource alloc fail'))
        t += 5
        L.append('[ERROR] ASCENDCL(%d,%s):%s [stream.cpp:120]%d aclrtCreateStreamWithConfig:create stream failed, '
                 'runtime result = 207005\n' % (pid, name, ts(t), tid))
        return L, boundary, 'EE1023/stream/streams_created'
    L.append(_rt(pid, name, t, 'event_david.cc:101', tid, 'GenEventId:Alloc Event resource failed. Reason: Too many '
                                                          'events are created. ErrorCode=EE1023.'))
    t += 9
    L.append(_rt(pid, name, t, 'event_david.cc:104', tid, 'GenEventId:Failed to allocate event id, device_id=1, '
                                                          'tsId=0, retCode=0x7020019.'))
    t += 10
    L.append(_rt(pid, name, t, 'api_impl_david.cc:405', tid, 'EventCreate:Gen event id failed, device_id=1, tsId=0, '
                                                             'retCode=0x7020019'))
    t += 10
    L.append(_rt(pid, name, t, 'api_error.cc:1343', tid, 'EventCreate:Create event failed.'))
    t += 10
    boundary = len(L)
    L.append(_rt(pid, name, t, 'api_c.cc:661', tid, 'rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no '
                                                    'event resource], InnerCode=0x7020019'))
    t += 10
    L.append(_rt(pid, name, t, 'error_message_manage.cc:69', tid, 'FuncErrorReason:rtEventCreateWithFlag execution '
                                                                  'failed, reason=driver error:no event resource'))
    return L, boundary, 'EE1023/event/events_created'


# ---- statistics ---------------------------------------------------------------

def percentile(values, p):
    """Nearest-rank percentile of a list (None when empty)."""
    if not values:
        return None
    v = sorted(values)
    k = max(1, int(math.ceil(p / 100.0 * len(v))))
    return v[min(k, len(v)) - 1]


def fmt_ms(x):
    return 'n/a' if x is None else '%.1f' % x


# ---- /proc --------------------------------------------------------------------

CLK_TCK = os.sysconf('SC_CLK_TCK')


def proc_cpu(pid):
    """utime+stime of a process in seconds (clock-tick resolution), or None."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(')') + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def proc_runtime(pid):
    """CPU time of all threads in seconds from /proc/PID/task/*/schedstat
    (nanoseconds), or None when schedstat is not available."""
    total = 0
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return None
    for tid in tids:
        try:
            with open('/proc/%d/task/%s/schedstat' % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            return None
    return total / 1e9


def proc_status(pid):
    """Fields of /proc/PID/status as a dict of strings."""
    d = {}
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                k, _, v = line.partition(':')
                d[k] = v.strip()
    except OSError:
        pass
    return d


def kib(status, key):
    v = status.get(key, '')
    return int(v.split()[0]) if v else None


def proc_io(pid):
    """/proc/PID/io as a dict of ints (rchar, syscr, ...)."""
    d = {}
    try:
        with open('/proc/%d/io' % pid) as f:
            for line in f:
                k, _, v = line.partition(':')
                d[k] = int(v)
    except (OSError, ValueError):
        pass
    return d


def proc_fds(pid):
    try:
        return len(os.listdir('/proc/%d/fd' % pid))
    except OSError:
        return None


def mib(kib_value):
    return 'n/a' if kib_value is None else '%.1f MiB' % (kib_value / 1024.0)


# ---- children -------------------------------------------------------------------

_children = []


def spawn(argv, stdout=None, stderr=None, env=None, nofile=None):
    """Starts a child; stdout=subprocess.PIPE gives an unbuffered pipe."""
    def pre():
        if nofile:
            import resource
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            want = nofile if hard == resource.RLIM_INFINITY else min(nofile, hard)
            if want > soft:
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    p = subprocess.Popen(argv, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL,
                         env=env, bufsize=0, preexec_fn=pre)
    _children.append(p)
    return p


def stop(p, sig=signal.SIGTERM, timeout=10.0):
    """Ends one child we started, by its pid; returns its exit status."""
    if p is None:
        return None
    if p.poll() is None:
        try:
            p.send_signal(sig)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    if p in _children:
        _children.remove(p)
    return p.returncode


def describe_exit(rc):
    """An exit status as a child's end reads: 'status 0', 'killed by SIGTERM'."""
    if rc is None:
        return 'still running'
    if rc < 0:
        try:
            return 'killed by %s' % signal.Signals(-rc).name
        except ValueError:
            return 'killed by signal %d' % -rc
    return 'status %d' % rc


def stop_all():
    for p in list(_children):
        stop(p, timeout=5.0)


def install_signal_handlers():
    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)


# ---- reading a child's lines ----------------------------------------------------

class LineReader:
    """Reads lines from a pipe without blocking; each line gets the
    CLOCK_MONOTONIC time of the read() that completed it."""

    def __init__(self, fileobj):
        self.f = fileobj
        self.fd = fileobj.fileno()
        os.set_blocking(self.fd, False)
        self.buf = b''
        self.eof = False
        self.nbytes = 0

    def read(self):
        """Returns a list of (time, line bytes without newline)."""
        out = []
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            t = time.monotonic()
            if not data:
                self.eof = True
                break
            self.nbytes += len(data)
            self.buf += data
            if b'\n' in data:
                parts = self.buf.split(b'\n')
                self.buf = parts.pop()
                out.extend((t, p) for p in parts)
        return out


# ---- environment ------------------------------------------------------------------

def find_plogtop(arg):
    path = arg or os.environ.get('PLOGTOP') or './src/plogtop'
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit('no plogtop binary at %r (run from the build dir, or pass --plogtop PATH / set PLOGTOP)' % path)
    return os.path.abspath(path)


def plogtop_version(path):
    try:
        out = subprocess.run([path, '--version'], capture_output=True, text=True, timeout=10).stdout
        return out.splitlines()[0] if out else ''
    except (OSError, subprocess.SubprocessError):
        return ''


def tail_version():
    try:
        out = subprocess.run(['tail', '--version'], capture_output=True, text=True, timeout=10).stdout
        return out.splitlines()[0] if out else 'tail'
    except (OSError, subprocess.SubprocessError):
        return 'tail (version unknown)'


def host_line():
    u = platform.uname()
    return '%s %s %s, %d CPUs' % (u.system, u.release, u.machine, os.cpu_count() or 0)


def date_line():
    return time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())


def seed_rng(seed):
    return random.Random(seed)


TID_RE = re.compile(rb'"tid": *(\d+)')
PID_RE = re.compile(rb'"pid": *(\d+)')
