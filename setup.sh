#!/bin/sh
# plogtop set-up on a fresh machine: Debian or Ubuntu (apt-get), or
# openEuler, EulerOS, Kylin, Fedora or RHEL (dnf or yum).
#   ./setup.sh run       install what building and running need, build,
#                        and run plogtop on your logs (or its demo if you
#                        have none yet)
#   ./setup.sh check     install that and what the tests need, build, and
#                        run the whole test suite
#   ./setup.sh packages  install what building the .deb and the .rpm needs
#                        (CI uses it; see debian/ and plogtop.spec)
# Packages are installed through sudo when not root.  The build goes to
# _build/ (override with BUILD=dir), quietly: configure, make and the
# package manager write to _build/setup.log, shown only when a step fails.
# CFLAGS is passed on to configure.
#   SETUP_PKG=apt|dnf|yum  the package manager (default: the one found)
#   SETUP_DRY_RUN=1        print the install command and stop
set -eu

cd "$(dirname "$0")"
here=$(pwd)
build=${BUILD:-_build}
case $build in /*) ;; *) build=$here/$build ;; esac
log=$build/setup.log

# What building and running need, what the tests add, and what the
# packages need, per package manager.  Optional test packages (not in
# every distribution's repositories) only make some tests skip.
apt_run="gcc make autoconf automake pkg-config libpcre2-dev libncurses-dev
	libmicrohttpd-dev libcurl4-openssl-dev libcrypt-dev gettext autopoint
	zlib1g-dev liblzma-dev libzstd-dev libarchive-dev"
apt_check="libcmocka-dev jq python3 python3-yaml tmux curl openssl clang libclang-rt-dev locales prometheus
	prometheus-node-exporter openssh-server openssh-client"
apt_check_optional=
apt_packages="dpkg-dev debhelper lintian fakeroot rpm cpio"
rpm_run="gcc make autoconf automake pkgconf-pkg-config pcre2-devel
	ncurses-devel libmicrohttpd-devel libcurl-devel libxcrypt-devel gettext-devel
	zlib-devel xz-devel libzstd-devel libarchive-devel"
rpm_check="libcmocka-devel jq python3 python3-pyyaml tmux curl openssl clang compiler-rt glibc-locale-source openssh-server
	openssh-clients"
rpm_check_optional="golang-github-prometheus golang-github-prometheus-node-exporter"
rpm_packages="rpm-build"

pkg_manager() {
	if [ -n "${SETUP_PKG:-}" ]; then
		echo "$SETUP_PKG"
	elif command -v apt-get >/dev/null 2>&1; then
		echo apt
	elif command -v dnf >/dev/null 2>&1; then
		echo dnf
	elif command -v yum >/dev/null 2>&1; then
		echo yum
	else
		echo none
	fi
}

# packages MODE: required packages; optional MODE: the optional ones.
packages() {
	case $pm in apt) p=apt ;; *) p=rpm ;; esac
	case $1 in
	run) eval echo \$${p}_run ;;
	check) eval echo \$${p}_run \$${p}_check ;;
	packages) eval echo \$${p}_run \$${p}_packages ;;
	esac
}
optional() {
	case $pm in apt) p=apt ;; *) p=rpm ;; esac
	[ "$1" = check ] && eval echo \$${p}_check_optional || true
}

installed() {
	case $pm in
	apt) dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
		grep -q "ok installed" ;;
	*) rpm -q --whatprovides "$1" >/dev/null 2>&1 ;;
	esac
}

# The command that installs $1 (required) and $2 (optional, may fail).
install_cmd() {
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo="sudo "
	case $pm in
	apt)
		echo "${sudo}apt-get update -qq"
		[ -z "$1" ] || echo "${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $1"
		[ -z "$2" ] || echo "${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $2 || true" ;;
	dnf|yum)
		[ -z "$1" ] || echo "${sudo}$pm install -y -q $1"
		[ -z "$2" ] || echo "${sudo}$pm install -y -q --skip-broken $2 || true" ;;
	esac
}

install_missing() {
	pm=$(pkg_manager)
	case $pm in
	apt|dnf|yum) ;;
	*) echo "setup: no apt-get, dnf or yum here: install $(SETUP_PKG=apt; pm=apt; packages "$1") (or your system's names for them) and run ./setup.sh again" >&2
	   exit 1 ;;
	esac
	need=$(packages "$1")
	maybe=$(optional "$1")
	if [ -n "${SETUP_DRY_RUN:-}" ]; then
		install_cmd "$(echo $need)" "$(echo $maybe)"
		exit 0
	fi
	missing= missing_opt=
	for p in $need; do installed "$p" || missing="$missing $p"; done
	for p in $maybe; do installed "$p" || missing_opt="$missing_opt $p"; done
	[ -z "$missing$missing_opt" ] && return 0
	echo "setup: installing$missing$missing_opt (log: $log)"
	install_cmd "${missing# }" "${missing_opt# }" >"$build/setup.install"
	quietly sh -e "$build/setup.install"
}

# Runs a command with its output in the log; on failure shows the end.
quietly() {
	if ! "$@" >>"$log" 2>&1; then
		echo "setup: failed: $*" >&2
		tail -n 30 "$log" | sed 's/^/  | /' >&2
		echo "setup: the whole log is $log" >&2
		exit 1
	fi
}

build() {
	echo "setup: building in $build (log: $log)"
	if ! { [ -x configure ] && [ configure -nt configure.ac ] &&
	       [ configure -nt Makefile.am ]; }; then
		quietly autoreconf -fi
	fi
	cd "$build"
	[ -f Makefile ] ||
		quietly "$here/configure" ${CFLAGS:+CFLAGS="$CFLAGS"}
	quietly make -j"$(nproc)" "$@"
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

mode=${1:-}
case $mode in
run|check|packages) ;;
*)
	echo "usage: ./setup.sh run|check|packages" >&2
	exit 2
	;;
esac
[ -n "${SETUP_DRY_RUN:-}" ] || { mkdir -p "$build"; : >"$log"; }
install_missing "$mode"
case $mode in
run)
	shift
	build
	status=0
	run_plogtop "$@" || status=$?
	# 1 means incidents were found: that is a result, not a failure.
	[ "$status" -le 1 ]
	;;
check)
	# The test programs are built quietly too; make check then shows
	# only the tests.
	# One goal at a time: "all check" in one parallel make runs two
	# makes in the same directory at once (automake's recursion).
	build
	quietly make -j"$(nproc)" check TESTS=
	make check || { cat test-suite.log; exit 1; }
	;;
packages)
	echo "setup: the packaging tools are installed"
	;;
esac
