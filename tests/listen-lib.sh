# Helpers of the --listen tests, sourced after lib.sh and live-lib.sh.

# http_code URL [CURL ARGS...]: the status curl gets (000: none).
http_code() {
	_u=$1
	shift
	curl -s -g -o /dev/null -w '%{http_code}' --max-time 10 "$@" "$_u" 2>/dev/null
}

# wait_code CODE URL [CURL ARGS...]: until URL answers CODE.
wait_code() {
	_want=$1
	shift
	_end=$(($(now_s) + live_deadline))
	until [ "$(http_code "$@")" = "$_want" ]; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# $1 did not answer $_want within ${live_deadline}s (got $(http_code "$@"))"
			return 1
		fi
		sleep 0.1
	done
}

# wait_true COMMAND...: until it succeeds, within the deadline.
wait_true() {
	_end=$(($(now_s) + live_deadline))
	until "$@"; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# waited ${live_deadline}s for: $*"
			return 1
		fi
		sleep 0.1
	done
}

# without_stamp: a metrics text less the line of its time of writing.
without_stamp() {
	grep -v '^plogtop_last_update_timestamp_seconds '
}

# fds PID: how many descriptors the process has open.
fds() {
	ls "/proc/$1/fd" 2>/dev/null | wc -l | tr -d ' '
}

need_curl() {
	command -v curl >/dev/null 2>&1 || skip_all "curl is not installed"
}
