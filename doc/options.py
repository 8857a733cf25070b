#!/usr/bin/env python3
"""options.py: the option lists of the documents, made from plogtop --help.

plogtop's options are one table (src/app/option_rows.h) that makes getopt's
options and --help's option lines.  This script makes the rest from that:

  readme     README.md's block between <!-- options:begin --> and
             <!-- options:end -->: --help's option lines in the C locale,
             as a list
  readme-zh  README.zh-CN.md's block, from --help under zh_CN.UTF-8
  man        doc/plogtop.1's OPTIONS: a .TP entry for every option of
             --help, and none for an option --help does not have (the
             entries' text is written by hand: it says more than --help)
  man-zh     doc/zh_CN/plogtop.1's 选项, the same
  table      every long name of option_rows.h (its ALIAS rows aside) is in
             --help, and --help names no option the table lacks

Usage: options.py [--write] --plogtop BIN [--srcdir DIR] [--locpath DIR]
                  [TARGET...]
Without --write it checks (exit 1, saying what differs); with --write it
rewrites the README blocks (the man pages' entries it only checks).  No
TARGET: all of them.  --locpath: a LOCPATH holding zh_CN.UTF-8 (the tests'
_build/tests/locale); the Chinese targets exit 77 when --help does not
come out in Chinese (no locale, no translations).
"""
import argparse
import os
import re
import subprocess
import sys
import unicodedata

BEGIN = "<!-- options:begin -->"
END = "<!-- options:end -->"
NOTE = {
    "en": "<!-- made by doc/options.py from plogtop --help: edit "
          "src/app/option_rows.h, not this list -->",
    "zh": "<!-- 由 doc/options.py 从 plogtop --help 生成：请改 "
          "src/app/option_rows.h，不要改这里 -->",
}
INTRO = {
    "en": "Options (the same as `plogtop --help`):",
    "zh": "选项（与 `plogtop --help` 相同）：",
}
COLON = {"en": ": ", "zh": "："}
SKIP = 77


def help_text(plogtop, lang, locpath):
    env = dict(os.environ)
    for k in ("LANGUAGE", "LC_MESSAGES", "LC_ALL", "LANG"):
        env.pop(k, None)
    if lang == "en":
        env["LC_ALL"] = "C"
    else:
        env["LC_ALL"] = env["LANG"] = "zh_CN.UTF-8"
        if locpath:
            env["LOCPATH"] = locpath
    out = subprocess.run([plogtop, "--help"], env=env, check=True,
                         stdout=subprocess.PIPE).stdout.decode("utf-8")
    return out


def entries(text):
    """(signature, description) of each option line of --help."""
    out = []
    for line in text.split("\n"):
        if re.match(r"^  -", line):
            m = re.match(r"^  (\S.*?)(?: {2,}(.*))?$", line)
            out.append([m.group(1), [m.group(2) or ""]])
        elif out and line.startswith(" " * 22) and line.strip():
            out[-1][1].append(line.strip())
        elif out and not line.strip():
            break
    return [(sig, join(desc)) for sig, desc in out]


def wide(ch):
    return unicodedata.east_asian_width(ch) in ("W", "F")


def join(parts):
    """Wrapped lines as one: a space between words, and between a word and
    a CJK character (as the Chinese texts write "设置 NO_COLOR 时"); none
    between two CJK characters nor beside CJK punctuation."""
    s = ""
    for p in parts:
        if not p:
            continue
        a, b = (s[-1], p[0]) if s else ("", "")
        cjk_punct = any(wide(c) and unicodedata.category(c).startswith("P")
                        for c in (a, b) if c)
        if s and not ((wide(a) and wide(b)) or cjk_punct):
            s += " "
        s += p
    return s


def names(text):
    """The long names --help's option lines name."""
    return sorted({n for sig, _ in entries(text)
                   for n in re.findall(r"--([a-z][a-z0-9-]*)", sig)})


def markdown(text, lang):
    lines = [NOTE[lang], INTRO[lang], ""]
    for sig, desc in entries(text):
        code = ", ".join("`%s`" % s.strip() for s in sig.split(", "))
        desc = desc.replace("*", r"\*").replace("<", r"\<")
        lines.append("- %s%s%s" % (code, COLON[lang], desc))
    return "\n".join(lines) + "\n"


def block(path):
    t = open(path, encoding="utf-8").read()
    a, b = t.find(BEGIN), t.find(END)
    if a < 0 or b < a:
        raise SystemExit("%s: no %s ... %s block" % (path, BEGIN, END))
    return t, a + len(BEGIN) + 1, b


def readme(path, text, lang, write):
    t, a, b = block(path)
    want = markdown(text, lang)
    if t[a:b] == want:
        return []
    if write:
        open(path, "w", encoding="utf-8").write(t[:a] + want + t[b:])
        print("%s: option list rewritten" % path)
        return []
    return ["%s: the option list differs from plogtop --help "
            "(python3 doc/options.py --write)" % path]


def man_names(path, section):
    """The long names of the .TP entries of the man page's SECTION."""
    t = open(path, encoding="utf-8").read().split("\n")
    out, inside = set(), False
    for i, line in enumerate(t):
        if line.startswith(".SH"):
            inside = line[3:].strip().strip('"') == section
        elif inside and line.startswith(".TP") and i + 1 < len(t):
            tag = t[i + 1].replace("\\-", "-")
            if re.match(r"^\.B[IR]?\s+-", tag):
                out |= set(re.findall(r"--([a-z][a-z0-9-]*)", tag))
    return sorted(out)


def compare(what, have, want):
    missing = sorted(set(want) - set(have))
    extra = sorted(set(have) - set(want))
    out = []
    if missing:
        out.append("%s lacks: %s" % (what, " ".join("--" + n for n in missing)))
    if extra:
        out.append("%s has what --help has not: %s"
                   % (what, " ".join("--" + n for n in extra)))
    return out


def table_names(path):
    t = open(path, encoding="utf-8").read()
    return sorted(set(re.findall(r'^OPTION\(\w+, "([a-z0-9-]+)"', t, re.M)))


def chinese(text):
    return any(wide(c) for c in text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--plogtop", required=True)
    ap.add_argument("--srcdir", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."))
    ap.add_argument("--locpath")
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    targets = a.targets or ["table", "readme", "man", "readme-zh", "man-zh"]
    src = lambda *p: os.path.join(a.srcdir, *p)
    en = help_text(a.plogtop, "en", a.locpath)
    zh = None
    problems = []
    for t in targets:
        if t.endswith("-zh") and zh is None:
            zh = help_text(a.plogtop, "zh", a.locpath)
            if not chinese(zh):
                print("--help is not in Chinese here (no zh_CN.UTF-8 locale "
                      "or no translations)")
                return SKIP
        if t == "table":
            problems += compare("--help", names(en),
                                table_names(src("src", "app", "option_rows.h")))
        elif t == "readme":
            problems += readme(src("README.md"), en, "en", a.write)
        elif t == "readme-zh":
            problems += readme(src("README.zh-CN.md"), zh, "zh", a.write)
        elif t == "man":
            problems += compare("doc/plogtop.1 OPTIONS",
                                man_names(src("doc", "plogtop.1"), "OPTIONS"),
                                names(en))
        elif t == "man-zh":
            problems += compare("doc/zh_CN/plogtop.1 选项",
                                man_names(src("doc", "zh_CN", "plogtop.1"),
                                          "选项"), names(zh))
        else:
            raise SystemExit("options.py: unknown target %s" % t)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
