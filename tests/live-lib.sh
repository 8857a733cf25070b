# Helpers of the live (--follow) tests, sourced after lib.sh.
#
# A test starts plogtop with start_follow, writes plog files the way the
# CANN logger does (write_chain), and waits with wait_count until plogtop
# has printed what it must print.  Nothing waits on a fixed sleep: every
# wait polls, in small steps, for something plogtop shows (its output, its
# state in /proc), with a deadline.

# Deadlines in seconds: generous, since they only matter when a test
# fails and CI machines are busy (three suites run on one, beside other
# jobs); doubled for sanitizer builds, which are slower.
live_deadline=30
if grep -q -a -e __asan_init -e __ubsan_handle "$PLOGTOP" 2>/dev/null; then
	live_deadline=60
fi

follow_pid=
follow_cat=
live_pids=

# live_setup: jq and a scratch directory; plogtop and any other process
# started in the background are ended with the test.
live_setup() {
	need_jq
	scratch
	trap 'live_cleanup' EXIT
	trap 'exit 99' INT TERM HUP
}

live_cleanup() {
	for p in $follow_pid $follow_cat $live_pids; do
		kill -CONT "$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
	chmod -R u+rwx "$tmp" 2>/dev/null
	rm -rf "$tmp"
}

now_s() { date +%s; }

# proc_state PID: the state letter of a process (R, S, T, Z...), empty when
# it is gone.
proc_state() {
	sed -n 's/^[0-9]* (.*) \([A-Za-z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null
}

# wait_ready PID: until plogtop sleeps in its event loop.  It only sleeps in
# poll() there, after the history has been read and every watch set up.
# Where the kernel hides wchan, an inotify descriptor (or, when polling,
# any sleep) has to do.
wait_ready() {
	_end=$(($(now_s) + live_deadline))
	while :; do
		_st=$(proc_state "$1")
		case $_st in
		'' | Z)
			echo "# plogtop ended before it was ready:"
			sed 's/^/#   /' "$tmp/follow.err" 2>/dev/null | head -20
			return 1 ;;
		esac
		_wchan=$(cat "/proc/$1/wchan" 2>/dev/null)
		case $_wchan in
		*poll*) return 0 ;;
		'' | 0)
			if [ "$_st" = S ] && { ls -l "/proc/$1/fd" 2>/dev/null |
				grep -q inotify || [ -n "${follow_polling:-}" ]; }; then
				return 0
			fi ;;
		esac
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# plogtop was not ready after ${live_deadline}s"
			return 1
		fi
		sleep 0.02
	done
}

# A job started with & in a script ignores SIGINT; plogtop is started with
# the default disposition, as from a terminal, where env can do that.
live_env=
if env --default-signal=INT true 2>/dev/null; then
	live_env="env --default-signal=INT,QUIT"
fi

# start_follow ARGS...: plogtop --follow --format=$follow_format (default
# ndjson) ARGS in the background, stdout in $tmp/follow.out, stderr in
# $tmp/follow.err; returns when it is ready.  With follow_pipe=1 its
# stdout is a pipe (a FIFO read by cat into $tmp/follow.out).
start_follow() {
	follow_polling=
	case " $* " in *" --poll="*) follow_polling=1 ;; esac
	: >"$tmp/follow.out"
	if [ -n "${follow_pipe:-}" ]; then
		rm -f "$tmp/follow.fifo"
		mkfifo "$tmp/follow.fifo" || return 1
		cat "$tmp/follow.fifo" >"$tmp/follow.out" &
		follow_cat=$!
		$live_env "$PLOGTOP" --follow --format="${follow_format:-ndjson}" "$@" \
			>"$tmp/follow.fifo" 2>"$tmp/follow.err" &
	else
		follow_cat=
		$live_env "$PLOGTOP" --follow --format="${follow_format:-ndjson}" "$@" \
			>"$tmp/follow.out" 2>"$tmp/follow.err" &
	fi
	follow_pid=$!
	if ! wait_ready "$follow_pid"; then
		fail "plogtop --follow $* started"
		return 1
	fi
}

# out_lines: how many lines plogtop has printed.
out_lines() {
	wc -l <"$tmp/follow.out" | tr -d ' '
}

show_output() {
	echo "#   output ($(out_lines) lines):"
	if [ "${follow_format:-ndjson}" = ndjson ]; then
		"$JQ" -c '[.pid, .tid, .code, .resource, .cause, .lines, .file]' \
			"$tmp/follow.out" 2>/dev/null | sed 's/^/#     /' | tail -40
	else
		sed 's/^/#     /' "$tmp/follow.out" | cut -c1-160 | tail -40
	fi
	if [ -s "$tmp/follow.err" ]; then
		echo "#   stderr:"
		sed 's/^/#     /' "$tmp/follow.err" | head -20
	fi
}

# wait_count N [DEADLINE_S]: until plogtop has printed N lines; fails when
# the deadline passes first or when there are more than N.
wait_count() {
	_want=$1
	_end=$(($(now_s) + ${2:-$live_deadline}))
	while :; do
		_have=$(out_lines)
		[ "$_have" -ge "$_want" ] && break
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# waited ${2:-$live_deadline}s for $_want lines, have $_have"
			show_output
			return 1
		fi
		case $(proc_state "$follow_pid") in
		'' | Z)
			_have=$(out_lines)
			[ "$_have" -ge "$_want" ] && break
			echo "# plogtop ended with $_have of $_want lines"
			show_output
			return 1 ;;
		esac
		sleep 0.02
	done
	if [ "$_have" -ne "$_want" ]; then
		echo "# expected $_want lines, have $_have"
		show_output
		return 1
	fi
}

# check_count DESC N [DEADLINE_S]: wait_count as a TAP check.
check_count() {
	check "$1" wait_count "$2" ${3:+"$3"}
}

# wait_gone PID: until the process has ended (a zombie or gone), with the
# deadline; then it is killed.
wait_gone() {
	_end=$(($(now_s) + live_deadline))
	while :; do
		case $(proc_state "$1") in '' | Z) return 0 ;; esac
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# process $1 did not end within ${live_deadline}s"
			kill -KILL "$1" 2>/dev/null
			return 1
		fi
		sleep 0.02
	done
}

# stop_follow [SIGNAL]: ends plogtop (SIGTERM unless told) and checks that
# it exits with status 0.
stop_follow() {
	_sig=${1:-TERM}
	kill -"$_sig" "$follow_pid" 2>/dev/null
	wait_gone "$follow_pid"
	wait "$follow_pid"
	rc=$?
	if [ -n "$follow_cat" ]; then
		wait_gone "$follow_cat"
		wait "$follow_cat"
	fi
	follow_pid=
	follow_cat=
	check_eq "SIG$_sig ends plogtop --follow with status 0" 0 "$rc"
}

# stop_plogtop / cont_plogtop: SIGSTOP (waiting until it is stopped) and
# SIGCONT.
stop_plogtop() {
	kill -STOP "$follow_pid"
	_end=$(($(now_s) + live_deadline))
	until [ "$(proc_state "$follow_pid")" = T ]; do
		[ "$(now_s)" -ge "$_end" ] && return 1
		sleep 0.01
	done
}
cont_plogtop() {
	kill -CONT "$follow_pid"
}

# watches: how many inotify watches plogtop holds.
watches() {
	cat "/proc/$follow_pid/fdinfo/"* 2>/dev/null | grep -c '^inotify wd:'
}

# wait_watches N: until plogtop holds N inotify watches.
wait_watches() {
	_end=$(($(now_s) + live_deadline))
	until [ "$(watches)" -ge "$1" ]; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# plogtop has $(watches) watches, not $1"
			return 1
		fi
		sleep 0.02
	done
}

# ---- writing plog files ----

# plog_now: the current time as a plog line has it, to the microsecond
# (YYYY-MM-DD-HH:MM:SS.uuuuuu; write_chain splits the microseconds).
plog_now() {
	date +%Y-%m-%d-%H:%M:%S.%6N
}

# chain_lines KIND: the lines of one failed call, as
# LEVEL|MODULE|SOURCE-LOCATION|TEXT, copied from the fixtures'
# chains.  The API boundary (rt...:ErrCode=) is the line chain_boundary
# gives.
chain_lines() {
	case $1 in
	stream)	# EE1023 stream streams_created
		cat <<'EOF'
ERROR|RUNTIME|stream.cc:728|Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.
ERROR|RUNTIME|stream.cc:731|Setup:Alloc Stream resource failed. Reason: Too many streams are created. ErrorCode=EE1023.
ERROR|RUNTIME|context.cc:1572|StreamCreate:Setup stream failed, retCode=0x7020023.
ERROR|RUNTIME|api_impl.cc:1487|StreamCreate:Create stream failed, priority=0, flags=0.
ERROR|RUNTIME|api_c_stream.cc:85|rtStreamCreateWithFlags:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023
ERROR|RUNTIME|error_message_manage.cc:69|FuncErrorReason:rtStreamCreateWithFlags execution failed, reason=driver error:resource alloc fail
ERROR|ASCENDCL|stream.cpp:120|aclrtCreateStreamWithConfig:create stream failed, runtime result = 207005
EOF
		;;
	event)	# EE1023 event events_created
		cat <<'EOF'
ERROR|RUNTIME|event_david.cc:101|GenEventId:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.
ERROR|RUNTIME|event_david.cc:104|GenEventId:Failed to allocate event id, device_id=1, tsId=0, retCode=0x7020019.
ERROR|RUNTIME|api_impl_david.cc:405|EventCreate:Gen event id failed, device_id=1, tsId=0, retCode=0x7020019
ERROR|RUNTIME|api_error.cc:1343|EventCreate:Create event failed.
ERROR|RUNTIME|api_c.cc:661|rtEventCreateWithFlag:ErrCode=207007, desc=[driver error:no event resource], InnerCode=0x7020019
ERROR|RUNTIME|error_message_manage.cc:69|FuncErrorReason:rtEventCreateWithFlag execution failed, reason=driver error:no event resource
EOF
		;;
	notify)	# EE1023 notify graph_concurrency
		cat <<'EOF'
ERROR|RUNTIME|context_aclgraph.cc:385|CreateNotify:Notify create failed, setup failed, device_id=0, retCode=0x702001b. ErrorCode=EE1023.
ERROR|RUNTIME|context_aclgraph.cc:532|StreamEndCapture:set notify for add capture stream failed, device_id=0, origin stream_id=61, capture model_id=21845, stream_id=43694, retCode=0x702001b.
ERROR|RUNTIME|api_c_standard_soc.cc:726|rtStreamEndCapture:ErrCode=207009, desc=[driver error:no notify resource], InnerCode=0x702001b
ERROR|RUNTIME|error_message_manage.cc:69|FuncErrorReason:rtStreamEndCapture execution failed, reason=no notify resource. ErrorCode=EE1023.
EOF
		;;
	async)	# EE1023 async_copy graph_copy_tasks
		cat <<'EOF'
ERROR|RUNTIME|stream_jetty_context.cc:69|ExpandCapacity:Expanding the capacity failed. Reason: There are too many asynchronous copy tasks in the ACL Graph. ErrorCode=EE1023.
ERROR|RUNTIME|stream_jetty_handler.cc:115|CreateAndAppendWqe:ExpandCapacity failed, capacity=32768, max_depth=32768, stream_id=59, device_id=7, retCode=0x7110019.
ERROR|RUNTIME|api_error.cc:3051|MemCopy2DAsync:Memcpy2d async failed, dstPitch=1024, srcPitch=1024, width=1024, height=4096, kind=1, isInvolvePageableMemory=0
ERROR|RUNTIME|api_c.cc:1324|rtMemcpy2dAsync:ErrCode=207008, desc=[driver error:no stream resource], InnerCode=0x7110019
ERROR|RUNTIME|error_message_manage.cc:69|FuncErrorReason:rtMemcpy2dAsync execution failed, reason=driver error:no stream resource
EOF
		;;
	memcpy)	# EE1001 memcpy kind_location_mismatch
		cat <<'EOF'
ERROR|RUNTIME|memcpy.cc:88|MemcpyKindAutoCorrect: invalid kind=RT_MEMCPY_HOST_TO_DEVICE for src=device, dst=device; expected one of [RT_MEMCPY_DEVICE_TO_DEVICE], actual=RT_MEMCPY_HOST_TO_DEVICE. ErrorCode=EE1001.
ERROR|RUNTIME|api_c.cc:1428|rtMemcpyAsync:ErrCode=107000, desc=[invalid value], InnerCode=0x7110001
ERROR|RUNTIME|error_message_manage.cc:69|FuncErrorReason:rtMemcpyAsync execution failed, reason=invalid value. ErrorCode=EE1001.
ERROR|ASCENDCL|memory.cc:336|aclrtMemcpyAsync:asynchronized memcpy failed, kind = 1, runtime result = 107000
EOF
		;;
	*)
		echo "chain_lines: unknown kind $1" >&2
		return 1 ;;
	esac
}

# chain_size KIND / chain_boundary KIND: the number of lines, and the
# number of the boundary line.
chain_size() { chain_lines "$1" | wc -l | tr -d ' '; }
chain_boundary() { chain_lines "$1" | grep -n 'ErrCode=' | cut -d: -f1; }

# chain_expect KIND: code resource cause of the incident a chain makes.
chain_expect() {
	case $1 in
	stream) echo "EE1023 stream streams_created" ;;
	event) echo "EE1023 event events_created" ;;
	notify) echo "EE1023 notify graph_concurrency" ;;
	async) echo "EE1023 async_copy graph_copy_tasks" ;;
	memcpy) echo "EE1001 memcpy kind_location_mismatch" ;;
	esac
}

# format_chain PID TID KIND [PART [TIME]]: the plog lines of a chain.  PART
# is all (default), head (the lines before the API boundary) or rest (the
# boundary and what follows it).  TIME (plog_now's format; default now, or
# $chain_time when set) is the first line's; each further line is 10 us
# later.  The process is named $chain_name (default python3).
format_chain() {
	_t=${5:-${chain_time:-$(plog_now)}}
	_us=$(echo "${_t##*.}" | sed 's/^0*//')
	_us=${_us:-0}
	[ "$_us" -gt 999000 ] && _us=999000
	_b=$(chain_boundary "$3")
	case ${4:-all} in
	all) _from=1 _to=999 ;;
	head) _from=1 _to=$((_b - 1)) ;;
	rest) _from=$_b _to=999 ;;
	*) echo "format_chain: unknown part $4" >&2; return 1 ;;
	esac
	chain_lines "$3" | awk -F'|' -v pid="$1" -v tid="$2" \
		-v name="${chain_name:-python3}" -v sec="${_t%.*}" -v us="$_us" \
		-v from="$_from" -v to="$_to" '
		NR >= from && NR <= to {
			u = us + 10 * (NR - 1)
			printf "[%s] %s(%s,%s):%s.%03d.%03d [%s]%s %s\n", $1, $2, pid,
				name, sec, int(u / 1000), u % 1000, $3, tid, $4
		}'
}

# write_chain FILE PID TID KIND [PART [TIME]]: appends one chain (or part
# of one, see format_chain) to FILE in a single write, as the logger's
# flush does.
write_chain() {
	_f=$1
	shift
	_lines=$(format_chain "$@") || return 1
	printf '%s\n' "$_lines" >>"$_f"
}

# write_info FILE PID TID: appends a harmless INFO line, as a logger's
# other threads write all the time.
write_info() {
	_t=$(plog_now)
	_u=${_t##*.}
	printf '[INFO] RUNTIME(%s,%s):%s.%s.%s [logger.cc:1426] %s TaskFinished:device_id=0, stream_id=2, task_id=1, task_type=13\n' \
		"$2" "${chain_name:-python3}" "${_t%.*}" "${_u%???}" "${_u#???}" \
		"$3" >>"$1"
}

# plog_name DIR PID N: the path of a plog file with the Nth stamp of a
# made-up day (later N, later stamp).
plog_name() {
	printf '%s/plog-%s_20260301%02d%02d%02d%03d.log' "$1" "$2" \
		$(($3 / 3600 % 24)) $(($3 / 60 % 60)) $(($3 % 60)) $(($3 % 1000))
}

# ---- looking at what plogtop printed ----

# count_json FILTER: how many incidents printed (ndjson) FILTER selects.
count_json() {
	"$JQ" -s "map(select($1)) | length" "$tmp/follow.out"
}

# counts_of: incident counts by pid, code, resource and cause, one
# "pid code resource cause count" line each, sorted; reads a JSON array of
# incidents.
counts_of() {
	"$JQ" -r 'group_by([.pid, .code, .resource, .cause])[] |
		"\(.[0].pid) \(.[0].code) \(.[0].resource) \(.[0].cause) \(length)"'
}

# expect_same_as_once [--select=JQ] [--todo=REASON] PATH...: the counts by
# pid, code, resource and cause of what --follow printed equal those of
# plogtop --once --format=json on the final tree.  --select keeps only
# the printed incidents that are still in the tree (JQ sees $files, the
# paths of the plog files now there); --todo marks the comparison as a
# known bug (see todo_check).
expect_same_as_once() {
	_sel=true
	_todo=
	while :; do
		case ${1:-} in
		--select=*) _sel=${1#--select=}; shift ;;
		--todo=*) _todo=${1#--todo=}; shift ;;
		*) break ;;
		esac
	done
	"$PLOGTOP" --once --format=json "$@" >"$tmp/once.json" 2>"$tmp/once.err"
	once_rc=$?
	find "$@" -type f -name '*.log' 2>/dev/null |
		"$JQ" -R . | "$JQ" -s . >"$tmp/files.json"
	"$JQ" -s --slurpfile f "$tmp/files.json" \
		"\$f[0] as \$files | map(select($_sel))" "$tmp/follow.out" |
		counts_of >"$tmp/follow.counts"
	"$JQ" '.incidents' "$tmp/once.json" | counts_of >"$tmp/once.counts"
	check "--once on the final tree runs (status $once_rc)" \
		test "$once_rc" -le 1
	_desc="--follow's counts equal --once's on the final tree"
	_desc="$_desc ($(wc -l <"$tmp/once.counts" | tr -d ' ') groups, $("$JQ" '.incidents | length' "$tmp/once.json") incidents)"
	if [ -n "$_todo" ]; then
		todo_check "$_desc" "$_todo" same_counts
	else
		check "$_desc" same_counts
	fi
}

same_counts() {
	if [ ! -s "$tmp/once.counts" ]; then
		echo "#   --once found no incident: nothing to compare"
		return 1
	fi
	diff -u "$tmp/once.counts" "$tmp/follow.counts" >"$tmp/counts.diff" &&
		return 0
	echo "#   pid code resource cause count: -once +follow"
	sed 's/^/#   /' "$tmp/counts.diff" | tail -n +3 | head -40
	return 1
}

# todo_check DESC REASON COMMAND...: a check of a known bug, reported as a
# TAP TODO while it fails.  Once it passes it is reported as a plain pass
# (an unexpected pass would fail the suite) with a note to drop the TODO.
todo_check() {
	_td=$1
	_tw=$2
	shift 2
	if "$@"; then
		ok "$_td"
		echo "# the bug this check was marked TODO for seems fixed: $_tw"
	else
		tap_n=$((tap_n + 1))
		echo "not ok $tap_n - $_td # TODO bug: $_tw"
	fi
}
