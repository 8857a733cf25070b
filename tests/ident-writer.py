# The lines of process 4242 (python3) for the identity tests, in
# bench/gen-tree's --ranks forms (plog-facts.md section 10): write PART
# FILE appends part 1 (set-device, creates and destroys over three
# minutes, a failing create whose ERROR chain is still open, another
# thread's creates after it), part 2 (the rest of the chain, two more
# minutes of creates) or part 3 (a next file's creates) to FILE.
import sys
part, path = sys.argv[1], sys.argv[2]
P = '(4242,python3):2026-11-27-18:%02d:%02d.%03d.000 '
def acl(level, mi, s, ms, src, msg, tid=4242):
    return '[%s] ASCENDCL%s[%s]%d %s\n' % (level, P % (mi, s, ms), src, tid,
                                          msg)
def rt(mi, s, ms, src, msg):
    return '[ERROR] RUNTIME%s[%s]4242 %s\n' % (P % (mi, s, ms), src, msg)
def creates(mi, n, destroys):
    out = []
    for i in range(n):
        out.append(acl('INFO', mi, 1 + i, 0, 'stream.cpp:45',
                       'aclrtCreateStream: start to execute aclrtCreateStream'))
    for i in range(destroys):
        out.append(acl('INFO', mi, 40 + i, 0, 'stream.cpp:120',
                       'aclrtDestroyStream: start to execute aclrtDestroyStream'))
        out.append(acl('INFO', mi, 40 + i, 5, 'stream.cpp:133',
                       'aclrtDestroyStream: aclrtDestroyStream success'))
    return out
lines = []
if part == '1':
    lines.append(acl('INFO', 14, 0, 0, 'device.cpp:148',
        'aclrtSetDevice: start to execute aclrtSetDevice, deviceId = 3'))
    lines += creates(14, 20, 0) + creates(15, 5, 1) + creates(16, 5, 1)
    # A create that fails: its chain is open (no API boundary yet).
    lines.append(acl('INFO', 16, 50, 0, 'stream.cpp:45',
                     'aclrtCreateStream: start to execute aclrtCreateStream'))
    lines.append(rt(16, 50, 10, 'stream.cc:728',
                    'Setup:Alloc sq cq failed, stream_id=1983, retCode=0x7020023.'))
    lines.append(rt(16, 50, 11, 'stream.cc:731',
                    'Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.'))
    # Another thread's creates after the open chain's first line: read
    # again after a restart, not to be counted again.
    for i in range(3):
        lines.append(acl('INFO', 16, 51 + i, 0, 'stream.cpp:45',
                         'aclrtCreateStream: start to execute aclrtCreateStream',
                         4243))
elif part == '2':
    lines.append(rt(16, 50, 12, 'context.cc:1572',
                    'StreamCreate:Setup stream failed, retCode=0x7020023.'))
    lines.append(rt(16, 50, 13, 'api_impl.cc:1487',
                    'StreamCreate:Create stream failed, priority=0, flags=0.'))
    lines.append(rt(16, 50, 14, 'api_c.cc:2308',
                    'rtStreamCreate:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023'))
    lines.append(acl('ERROR', 16, 50, 15, 'stream.cpp:277',
                     'aclrtCreateStream:create stream failed, runtime result = 207005'))
    lines += creates(17, 5, 1) + creates(18, 5, 0)
elif part == '3':
    # Its next file: no set-device line in it (that was in the first).
    lines += creates(19, 4, 1)
with open(path, 'a') as f:
    f.writelines(lines)
