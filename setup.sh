#!/bin/sh
# plogtop set-up for a fresh Debian or Ubuntu machine.
#   ./setup.sh run     install what is missing, build, and run plogtop on
#                      your logs (or its demo if you have none yet)
#   ./setup.sh check   install what is missing, build, and run the tests
# Packages are installed with apt-get, through sudo when not root.  The
# build goes to _build/ (override with BUILD=dir); CFLAGS is passed on.
set -eu

cd "$(dirname "$0")"
here=$(pwd)
build=${BUILD:-_build}
packages="gcc make autoconf automake pkg-config libpcre2-dev libncurses-dev
	libcmocka-dev jq python3 tmux prometheus prometheus-node-exporter"

install_missing() {
	missing=
	for p in $packages; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "setup: installing$missing"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
}

build() {
	[ -x configure ] && [ configure -nt configure.ac ] &&
		[ configure -nt Makefile.am ] || autoreconf -fi
	mkdir -p "$build"
	cd "$build"
	[ -f Makefile ] || "$here/configure" ${CFLAGS:+CFLAGS="$CFLAGS"}
	make -j"$(nproc)"
}

# The default log root as plogtop finds it.  When it holds no plog file
# yet: the demo on a terminal, else a report on the bundled sample tree.
run_plogtop() {
	root=${ASCEND_PROCESS_LOG_PATH:-${ASCEND_WORK_PATH:+$ASCEND_WORK_PATH/log}}
	root=${root:-$HOME/ascend/log}
	if find "$root" -name 'plog-*.log' 2>/dev/null | grep -q .; then
		./src/plogtop "$@"
	elif [ -t 0 ] && [ -t 1 ]; then
		echo "setup: no plog files under $root yet; starting the demo (q quits)"
		sleep 2
		./src/plogtop --demo "$@"
	else
		echo "setup: no plog files under $root; a report on the sample tree"
		./src/plogtop "$@" "$here/tests/fixtures/tree"
	fi
}

case ${1:-} in
run)
	shift
	install_missing
	build
	status=0
	run_plogtop "$@" || status=$?
	# 1 means incidents were found: that is a result, not a failure.
	[ "$status" -le 1 ]
	;;
check)
	install_missing
	build
	make check || { cat test-suite.log; exit 1; }
	;;
*)
	echo "usage: ./setup.sh run|check" >&2
	exit 2
	;;
esac
