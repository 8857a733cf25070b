# Helpers of the dashboard (terminal) tests, sourced after lib.sh.
#
# The real program runs in tmux, on a server of its own (a private socket,
# -L plogtop-test-PID, with no configuration file), so that a test never
# touches a user's tmux.  A test starts plogtop in a detached session of a
# given size, TERM and locale (tui_start), reads the screen with
# capture-pane, sends keys, resizes the window, and waits with wait_screen
# until the screen shows what it must.  Nothing waits on a fixed sleep:
# every wait polls, in small steps, with a deadline.
#
# Files in $tmp: run.sh (what the pane runs), pid (plogtop's pid), exit
# ("EXIT=STATUS" once plogtop has ended), stderr (plogtop's), pane.out
# (every byte plogtop wrote to the terminal, from tmux pipe-pane),
# stty.before / stty.after (the terminal's modes around plogtop), screen
# (the last capture).

# Deadlines in seconds: generous, since they only matter when a test
# fails and CI machines are busy (three suites run on one, beside other
# jobs); doubled for sanitizer builds, which are slower.
tui_deadline=30
if grep -q -a -e __asan_init -e __ubsan_handle "$PLOGTOP" 2>/dev/null; then
	tui_deadline=60
fi

tui_sock=plogtop-test-$$
tui_pid=
tui_tty=
tmux_bin=

# tui_setup: tmux (or skip), a scratch directory, and the clean-up.
tui_setup() {
	# make check passes configure's path to tmux as $TMUX; inside a tmux
	# session $TMUX is that session's "socket,pid,index" instead.
	case ${TMUX:-} in
	*,*) ;;
	?*) [ -x "$TMUX" ] && tmux_bin=$TMUX ;;
	esac
	[ -n "$tmux_bin" ] || tmux_bin=$(command -v tmux 2>/dev/null) ||
		tmux_bin=
	[ -n "$tmux_bin" ] || skip_all "tmux is not installed"
	# Never talk to the tmux this test may run in.
	unset TMUX TMUX_PANE
	command -v infocmp >/dev/null 2>&1 && ! infocmp vt100 >/dev/null 2>&1 &&
		skip_all "no terminfo entry for vt100"
	scratch
	trap 'tui_cleanup' EXIT
	trap 'exit 99' INT TERM HUP
	utf8_locale=$(locale -a 2>/dev/null |
		grep -i -m1 -E '^(C|en_US)\.utf-?8$') || utf8_locale=
	tmux_term=tmux-256color
	if command -v infocmp >/dev/null 2>&1 &&
	   ! infocmp tmux-256color >/dev/null 2>&1; then
		tmux_term=screen-256color
	fi
}

# tm ARGS...: tmux on the private server.
tm() {
	"$tmux_bin" -u -f /dev/null -L "$tui_sock" "$@"
}

tui_cleanup() {
	# plogtop, if it still runs (and the pid is still its).
	case $(cat "/proc/${tui_pid:-0}/comm" 2>/dev/null) in
	*plogtop*)
		kill -CONT "$tui_pid" 2>/dev/null
		kill -KILL "$tui_pid" 2>/dev/null ;;
	esac
	if [ -n "$tmux_bin" ]; then
		tm kill-server >/dev/null 2>&1
		# tmux leaves its socket behind.
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$tui_sock"
	fi
	chmod -R u+rwx "$tmp" 2>/dev/null
	rm -rf "$tmp"
}

now_s() { date +%s; }

# shq WORD: WORD quoted for sh.
shq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# tui_start WIDTH HEIGHT TERM LOCALE ARGS...: plogtop ARGS (run in $tmp) in
# a detached session "tui" of WIDTH x HEIGHT, with TERM, LC_ALL=LOCALE and
# PAGER=$tui_pager (default true);
# every byte it writes to the terminal is recorded in $tmp/pane.out (from
# before it starts).  Returns once plogtop runs (its pid in $tui_pid).
tui_start() {
	_w=$1 _h=$2 _term=$3 _loc=$4
	shift 4
	tm kill-session -t tui >/dev/null 2>&1
	rm -f "$tmp/exit" "$tmp/pid" "$tmp/go" "$tmp/stty.before" \
	      "$tmp/stty.after"
	: >"$tmp/pane.out"
	: >"$tmp/stderr"
	tui_pid=
	{
		echo "cd $(shq "$tmp") || exit 1"
		echo 'stty -g >stty.before'
		echo 'unset NO_COLOR COLORFGBG PLOGTOP_THEME'
		echo 'until [ -e go ]; do sleep 0.01; done'
		# The pid is the shell's, which execs env, which execs plogtop.
		printf '%s' "sh -c 'echo \$\$ >pid; exec \"\$@\"' sh env"
		# The theme chosen with t is remembered in XDG_RUNTIME_DIR:
		# the test's own, never the user's.
		printf ' %s' "TERM=$_term" "LC_ALL=$_loc" \
			"XDG_RUNTIME_DIR=$(shq "$tmp")" \
			"PAGER=$(shq "${tui_pager:-true}")" \
			"PLOGTOP_DATADIR=$(shq "$PLOGTOP_DATADIR")"
		# tui_env: more VAR=VALUE words for plogtop's environment.
		for _e in ${tui_env:-}; do
			printf ' %s' "$(shq "$_e")"
		done
		printf ' %s' "$(shq "$PLOGTOP")"
		for _a; do
			printf ' %s' "$(shq "$_a")"
		done
		echo ' 2>stderr'
		echo 'rc=$?'
		echo 'stty -g >stty.after'
		echo 'echo "EXIT=$rc" >exit.tmp && mv exit.tmp exit'
		echo 'echo "EXIT=$rc"'
		echo 'exec sleep 60'
	} >"$tmp/run.sh"
	# The server (started here) gives the pane sh as its shell.
	if ! SHELL=/bin/sh tm new-session -d -s tui -x "$_w" -y "$_h" \
		"/bin/sh $(shq "$tmp/run.sh")"; then
		echo "# tmux new-session failed"
		return 1
	fi
	wait_file "$tmp/stty.before" || return 1
	tm pipe-pane -t tui -o "cat >>$(shq "$tmp/pane.out")" || return 1
	: >"$tmp/go"
	wait_file "$tmp/pid" || return 1
	tui_pid=$(cat "$tmp/pid")
	tui_tty=$(pane_tty)
}

# wait_file FILE: until it exists (and is not empty, for the pid).
wait_file() {
	_end=$(($(now_s) + tui_deadline))
	until [ -s "$1" ] || { [ -e "$1" ] && [ "$1" != "$tmp/pid" ]; }; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# $1 did not appear within ${tui_deadline}s"
			return 1
		fi
		sleep 0.01
	done
}

# screen: what the pane shows now (trailing blanks cut), also in
# $tmp/screen.
screen() {
	tm capture-pane -p -t tui >"$tmp/screen" 2>/dev/null
	cat "$tmp/screen"
}

# show_screen: the last capture as TAP comments, and how plogtop is.
show_screen() {
	echo "#   screen (window $(tm display -p -t tui '#{window_width}x#{window_height}' 2>/dev/null), terminal $(pty_size | sed 's/\(.*\) \(.*\)/\2x\1/')):"
	sed 's/^/#   |/' "$tmp/screen"
	if [ -e "$tmp/exit" ]; then
		echo "#   plogtop ended: $(cat "$tmp/exit")"
	fi
	if [ -s "$tmp/stderr" ]; then
		echo "#   stderr:"
		sed 's/^/#     /' "$tmp/stderr" | head -40
	fi
}

# frame_done: the last capture shows a whole frame.  A frame is drawn top
# to bottom and the dashboard's bottom line (key help, prompt or message)
# comes last; tmux may show a large frame (the first, a resize, Ctrl-L)
# before all of it has arrived.
frame_done() {
	[ -n "$(tail -n 1 "$tmp/screen")" ]
}

# wait_screen REGEX [DEADLINE_S]: until a line of the screen matches the
# extended REGEX, in a whole frame.  On failure the screen is printed as
# TAP comments.  wait_screen_any: in any screen (the "Too small" message,
# the shell's after plogtop has ended).
wait_screen() {
	_frame=frame_done
	_wait_screen "$@"
}
wait_screen_any() {
	_frame=true
	_wait_screen "$@"
}
_wait_screen() {
	_re=$1
	_end=$(($(now_s) + ${2:-$tui_deadline}))
	_gone=
	while :; do
		screen >/dev/null
		grep -E -q -e "$_re" "$tmp/screen" && $_frame && return 0
		if [ -n "$_gone" ] || [ "$(now_s)" -ge "$_end" ]; then
			echo "# waited for a line matching /$_re/"
			show_screen
			return 1
		fi
		# Once plogtop has ended, one more look (the screen may lag).
		if [ -e "$tmp/exit" ]; then
			_gone=1
		else
			sleep 0.03
		fi
	done
}

# wait_screen_not REGEX [DEADLINE_S]: until no line matches, in a whole
# frame.
wait_screen_not() {
	_re=$1
	_end=$(($(now_s) + ${2:-$tui_deadline}))
	while :; do
		screen >/dev/null
		grep -E -q -e "$_re" "$tmp/screen" || { frame_done && return 0; }
		if [ "$(now_s)" -ge "$_end" ] || [ -e "$tmp/exit" ]; then
			echo "# waited ${2:-$tui_deadline}s for no line to match /$_re/"
			show_screen
			return 1
		fi
		sleep 0.03
	done
}

# keys KEY...: tmux key names (Enter, Tab, Escape, Up, C-l...) or
# characters, sent to plogtop.  text STRING: STRING as typed.
keys() {
	tm send-keys -t tui "$@"
}
text() {
	tm send-keys -t tui -l "$1"
}

# resize WIDTH HEIGHT: the window resized, and then plogtop's terminal:
# tmux resizes the window at once but the pane's terminal (and so sends
# SIGWINCH) up to 250 ms later, a resize after another; this waits for
# the terminal.  Returns 1 (with a comment) when it is not resized.
resize() {
	tm resize-window -t tui -x "$1" -y "$2" || return 1
	_end=$(($(now_s) + tui_deadline))
	until [ "$(pty_size)" = "$2 $1" ] || [ -z "$(pty_size)" ]; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# tmux did not resize the terminal to $1x$2 (it is $(pty_size), rows columns)"
			return 1
		fi
		sleep 0.01
	done
}

# pty_size: "ROWS COLUMNS" of the pane's terminal (empty without GNU stty).
pty_size() {
	stty -F "$tui_tty" size 2>/dev/null
}

# pane_flags: "alternate_on cursor_flag keypad_flag keypad_cursor_flag"
# of the pane: 0 1 0 0 is a terminal as a shell leaves it.
pane_flags() {
	tm display -p -t tui \
		'#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag}'
}

# pane_tty: the pane's terminal device.
pane_tty() {
	tm display -p -t tui '#{pane_tty}'
}

# alive: plogtop still runs (and has not been replaced by the shell).
alive() {
	[ -n "$tui_pid" ] && [ ! -e "$tmp/exit" ] && kill -0 "$tui_pid" 2>/dev/null
}

# settle: until plogtop sleeps in its event loop (poll), that is, has read
# every key that reached it and drawn; returns 1 when it ends or is still
# busy after the deadline.  Where the kernel hides wchan, returns at once.
settle() {
	_end=$(($(now_s) + tui_deadline))
	while :; do
		_st=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\) .*/\1/p' \
			"/proc/$tui_pid/stat" 2>/dev/null)
		_wc=$(cat "/proc/$tui_pid/wchan" 2>/dev/null)
		case $_st in '' | Z) return 1 ;; esac
		# Asleep in poll, or asleep where the kernel hides where.
		case $_st.$_wc in S.*poll* | S.0 | S.) return 0 ;; esac
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# plogtop still busy after ${tui_deadline}s (state $_st, in $_wc)"
			return 1
		fi
		sleep 0.01
	done
}

# wait_exit: until plogtop has ended; its status is in $tui_rc.
wait_exit() {
	tui_rc=
	_end=$(($(now_s) + tui_deadline))
	until [ -s "$tmp/exit" ]; do
		if [ "$(now_s)" -ge "$_end" ]; then
			echo "# plogtop did not end within ${tui_deadline}s"
			screen >/dev/null
			show_screen
			return 1
		fi
		sleep 0.02
	done
	tui_rc=$(sed -n 's/^EXIT=//p' "$tmp/exit")
	tui_pid=
}

# ---- the header and the process table ----

# status_has ITEM...: the status lines (the header's lines after the
# first, up to the table head) of the last capture have each ITEM
# ("12 in all", "window 1 min", "filter 'x'") between blanks, in any order.
status_has() {
	_l=" $(awk 'NR > 1 && /^PID / { exit } NR > 1 && NR < 6' "$tmp/screen" |
		tr '\n' ' ') "
	for _i; do
		case $_l in *" $_i "*) ;; *) return 1 ;; esac
	done
}

# row_re PID NAME "STRM NTFY EVNT ACPY MCPY ARG TOTAL": a regex for the
# row of a process with these counts (in the window shown).
row_re() {
	_re="^$1 +$2 +(yes|no)"
	for _c in $3; do
		_re="$_re +$_c"
	done
	echo "$_re( |\$)"
}

# rows: the process rows of the last capture, "PID NAME" each, in order.
rows() {
	awk '$3 ~ /^(yes|no)$/ && $1 ~ /^([0-9]+|-)$/ && NF >= 10 {
		print $1, $2 }' "$tmp/screen"
}

# row_counts PID NAME: the counts of that row in the last capture.
row_counts() {
	awk -v pid="$1" -v name="$2" '$1 == pid && $2 == name &&
		$3 ~ /^(yes|no)$/ { print $4, $5, $6, $7, $8, $9, $10 }' \
		"$tmp/screen"
}

# ---- writing plog files ----

# plog_now: the current time as plog lines have it, to the microsecond
# (YYYY-MM-DD-HH:MM:SS.uuuuuu, split by write_chain).
plog_now() {
	date +%Y-%m-%d-%H:%M:%S.%6N
}

# fixture_chain KIND: the lines of one failed call, copied from the
# fixture tree (without other threads' lines in between).
fixture_chain() {
	_fx="$srcdir/tests/fixtures/tree/debug/plog"
	case $1 in
	stream)		# EE1023 stream streams_created
		sed -n '5p;7p;9,13p' "$_fx/plog-4711_20260713113900000.log" ;;
	event)		# EE1023 event events_created
		sed -n '15,20p' "$_fx/plog-4711_20260713113900000.log" ;;
	memcpy)		# EE1001 memcpy kind_location_mismatch
		sed -n '2,5p' "$_fx/plog-5150_20260801090000000.log" ;;
	argument)	# EE1001 argument unknown
		sed -n '6,8p' "$_fx/plog-5150_20260801090000000.log" ;;
	graph)		# EE1023 stream graph_streams
		sed -n '1,4p' "$_fx/plog-7000_20260902100000000.log" ;;
	async)		# EE1023 async_copy graph_copy_tasks
		sed -n '6,10p' "$_fx/plog-7000_20260902100000000.log" ;;
	*)
		echo "fixture_chain: unknown kind $1" >&2
		return 1 ;;
	esac
}
chain_kinds="stream event memcpy argument graph async"

# write_chain FILE PID NAME TID KIND: appends one chain (one incident) to
# FILE in a single write, as the logger's flush does: the fixture's lines
# with this pid, name and thread, at the current time (10 us apart).
write_chain() {
	_t=$(plog_now)
	_lines=$(fixture_chain "$5" | awk -v pid="$2" -v name="$3" \
		-v tid="$4" -v sec="${_t%.*}" -v us="${_t##*.}" '
	{
		if (!match($0, /^\[[A-Z]+\] [A-Z]+\(/))
			next
		head = substr($0, 1, RLENGTH - 1)
		rest = substr($0, RLENGTH + 1)
		# pid,name):TIME [loc]TID text
		i = index(rest, " [")
		rest = substr(rest, i + 1)
		j = index(rest, "]")
		loc = substr(rest, 1, j)
		rest = substr(rest, j + 1)
		sub(/^[0-9]+/, "", rest)
		u = us + 10 * (NR - 1)
		if (u > 999999) u = 999999
		printf "%s(%s,%s):%s.%03d.%03d %s%s%s\n", head, pid, name, sec,
			int(u / 1000), u % 1000, loc, tid, rest
	}') || return 1
	printf '%s\n' "$_lines" >>"$1"
}

# ---- what reached the terminal ----

# sgr_colours FILE: the SGR sequences in FILE that set a colour.
sgr_colours() {
	LC_ALL=C grep -a -o -E "$(printf '\033')\\[[0-9;:]*m" "$1" |
		LC_ALL=C grep -a -E '[[;](3[0-9]|4[0-9]|9[0-7]|10[0-7])[;:m]' |
		sort -u | cat -v
}

# foreign_sequences FILE: the escape sequences in FILE that a VT100 does
# not know (anything but cursor motion, erasing, scroll regions, SGR
# 0/1/4/5/7, modes 1 (cursor keys) and 7 (wrap), keypad, charset and
# save/restore), one of each, made visible.
foreign_sequences() {
	LC_ALL=C perl -ne '
		while (/\e(\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|[\x20-\x2f]*[\x30-\x7e])/g) {
			my $s = $1;
			next if $s =~ /^\[\d*(;\d*)?[Hf]$/;
			next if $s =~ /^\[\d*[ABCDJK]$/;
			next if $s =~ /^\[(\d*;\d*)?r$/;
			if ($s =~ /^\[([0-9;]*)m$/) {
				my $ok = 1;
				for my $p (split /;/, $1) {
					$ok = 0 unless $p =~ /^0*[01457]?$/;
				}
				next if $ok;
			}
			next if $s =~ /^\[\?[17](;[17])*[hl]$/;
			next if $s =~ /^[=>78DEM]$/ || $s =~ /^[()][0-2AB]$/;
			next if $s =~ /^\[[03]?g$/;
			$seen{$s}++ or print "ESC$s\n";
		}' "$1"
}

# ---- checks ----

# wait_for COMMAND...: until COMMAND succeeds on a whole frame (each try
# sees a new capture in $tmp/screen); on failure the screen is printed as
# TAP comments.
wait_for() {
	_end=$(($(now_s) + tui_deadline))
	while :; do
		screen >/dev/null
		frame_done && "$@" && return 0
		if [ "$(now_s)" -ge "$_end" ] || [ -e "$tmp/exit" ]; then
			echo "# waited for: $*"
			show_screen
			return 1
		fi
		sleep 0.03
	done
}

# todo_check DESC REASON COMMAND...: a check of a known bug, reported as a
# TAP TODO while it fails, and as a plain pass (with a note) once it passes.
todo_check() {
	desc=$1
	why=$2
	shift 2
	if "$@"; then
		ok "$desc"
		echo "# the bug this check was marked TODO for seems fixed: $why"
	else
		tap_n=$((tap_n + 1))
		echo "not ok $tap_n - $desc # TODO bug: $why"
	fi
}
