#!/usr/bin/env python3
"""Cuts the log blocks out of a troubleshooting document (the seeds in
../shared/seeds) into one file each, for seeds.test.

A plog block is a run of plog lines (a header-less line between two of them
continues the record above, as in the EE1001 seed); its document indentation
is removed. A screen block starts at a "Name(CODE):" heading and goes on over
the indented, "Solution:" and "TraceBack" lines that follow it.
Prints one line per block: KIND FILE.
"""
import os
import re
import sys

PLOG = re.compile(r'^\s*\[[A-Z]+\]\s?[A-Z]+\(\d+,[^)]*\):')
HEADING = re.compile(r'[A-Za-z_]+\((?:EE1023|EE1001)\):')
BODY = re.compile(r'^(?:\s+\S|TraceBack|\.{3,}\s*$)')


def plog_blocks(lines):
    i = 0
    while i < len(lines):
        if not PLOG.match(lines[i]):
            i += 1
            continue
        block = []
        while i < len(lines):
            if PLOG.match(lines[i]):
                block.append(lines[i].lstrip())
            elif (lines[i].strip() and not lines[i].startswith(' ')
                  and i + 1 < len(lines) and PLOG.match(lines[i + 1])):
                block.append(lines[i])
            else:
                break
            i += 1
        yield block


def screen_blocks(lines):
    i = 0
    while i < len(lines):
        if not HEADING.search(lines[i]) or PLOG.match(lines[i]):
            i += 1
            continue
        block = [lines[i].strip()]
        i += 1
        while i < len(lines) and BODY.match(lines[i]) and not HEADING.search(lines[i]):
            block.append(lines[i])
            i += 1
        yield block


def main():
    doc, outdir = sys.argv[1], sys.argv[2]
    with open(doc, encoding='utf-8') as f:
        lines = f.read().splitlines()
    base = os.path.splitext(os.path.basename(doc))[0]
    for kind, blocks in (('plog', plog_blocks(lines)),
                         ('screen', screen_blocks(lines))):
        for n, block in enumerate(blocks, 1):
            path = os.path.join(outdir, '%s-%s-%d.txt' % (base, kind, n))
            with open(path, 'w', encoding='utf-8') as f:
                f.write('\n'.join(block) + '\n')
            print(kind, path)


if __name__ == '__main__':
    main()
