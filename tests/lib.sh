# Shared by the shell tests: TAP output and a few helpers.
# Each test script sources this, calls ok/fail/check..., then done_testing.

set -u
: "${PLOGTOP:?PLOGTOP must point at the binary (make check sets it)}"
: "${srcdir:=.}"
JQ=${JQ:-jq}

tap_n=0
tap_failed=0

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

fail() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else fail "$desc"; fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		fail "$1"
		printf '#   expected: %s\n#   actual:   %s\n' "$2" "$3" | head -40
	fi
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}

need_jq() {
	command -v "$JQ" >/dev/null 2>&1 || skip_all "jq is not installed"
}

# A scratch directory removed when the test ends.
scratch() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/plogtop-test.XXXXXX") || exit 99
	trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
}

# The shared material beside the checkout (../shared), if it is there.
shared_dir() {
	for d in "${PLOGTOP_SHARED:-}" "$top_srcdir/../shared" \
		 "$srcdir/../shared" "$(dirname "$PLOGTOP")/../../shared"; do
		if [ -n "$d" ] && [ -d "$d/seeds" ]; then
			(cd "$d" && pwd)
			return 0
		fi
	done
	return 1
}

# Runs plogtop, keeping stdout, stderr and the exit status.
run() {
	"$PLOGTOP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# free_ports N: N free loopback ports, on one line.
free_ports() {
	"${PYTHON3:-python3}" -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])' "$1"
}

# True when a file has a byte that must never reach a terminal: C0
# controls other than newline, DEL, or C1 controls (as bytes or UTF-8).
has_raw_controls() {
	LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}

# The Chinese locale for a test: LOCPATH to the one make check generated
# (tests/locale), else the system's zh_CN.UTF-8; zh CMD... runs CMD in it
# (LANGUAGE unset: the locale chooses).  have_zh fails when neither is
# there, need_zh skips the test.
have_zh() {
	# Configured with --disable-nls: English only, nothing to test.
	[ "${USE_NLS:-yes}" = yes ] || return 1
	if [ -f "${PLOGTOP_LOCPATH:-/nonexistent}/zh_CN.UTF-8/LC_CTYPE" ]; then
		zh_env="LOCPATH=$PLOGTOP_LOCPATH"
	elif locale -a 2>/dev/null | grep -qix 'zh_CN.utf-\{0,1\}8'; then
		zh_env="PLOGTOP_ZH_SYSTEM=1"
	else
		return 1
	fi
}
need_zh() {
	have_zh ||
		skip_all "no translations (--disable-nls) or no zh_CN.UTF-8 locale (localedef or its sources missing)"
}
zh() {
	env -u LANGUAGE -u LC_MESSAGES "$zh_env" LC_ALL=zh_CN.UTF-8 \
		LANG=zh_CN.UTF-8 "$@"
}
