# A throwaway sshd on a loopback port for the fleet tests, sourced after
# lib.sh and live-lib.sh.  Its host key, the user's key, authorized_keys
# and a client config (aliases host-a, host-b, host-c of 127.0.0.1) live
# in $tmp/ssh; plogtop reaches them with --ssh="ssh -F $ssh_cfg".
# Skips the test (exit 77 through skip_all) when sshd or ssh is missing,
# or when this user cannot run sshd (it needs root for key logins as
# oneself on most systems; CI runs as root).

ssh_dir=
ssh_cfg=
sshd_pid=
sshd_port=

ssh_need() {
	for _c in /usr/sbin/sshd /usr/local/sbin/sshd $(command -v sshd 2>/dev/null); do
		[ -x "$_c" ] && sshd_bin=$_c && break
	done
	[ -n "${sshd_bin:-}" ] || skip_all "sshd is not installed (openssh-server)"
	command -v ssh >/dev/null 2>&1 || skip_all "ssh is not installed"
	command -v ssh-keygen >/dev/null 2>&1 || skip_all "ssh-keygen is not installed"
	[ "$(id -u)" = 0 ] || skip_all "sshd needs root here (CI runs as root)"
}

# ssh_setup: keys, configs, and sshd listening.
ssh_setup() {
	ssh_need
	ssh_dir=$tmp/ssh
	mkdir -p "$ssh_dir" && chmod 700 "$ssh_dir" || exit 99
	ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key" || exit 99
	ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/id" || exit 99
	cp "$ssh_dir/id.pub" "$ssh_dir/authorized_keys" || exit 99
	# sshd's privilege separation directory (Debian's package makes it
	# at boot only).
	mkdir -p /run/sshd 2>/dev/null
	_user=$(id -un)
	for _try in 1 2 3 4 5 6 7 8; do
		sshd_port=$((20000 + ($$ * 7 + _try * 131) % 40000))
		cat >"$ssh_dir/sshd_config" <<EOC
Port $sshd_port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
AuthorizedKeysFile $ssh_dir/authorized_keys
PidFile $ssh_dir/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
LogLevel ERROR
EOC
		cat >"$ssh_dir/config" <<EOC
Host host-a host-b host-c
	HostName 127.0.0.1
	Port $sshd_port
	User $_user
	IdentityFile $ssh_dir/id
	IdentitiesOnly yes
	UserKnownHostsFile /dev/null
	StrictHostKeyChecking no
	LogLevel ERROR
EOC
		ssh_cfg=$ssh_dir/config
		sshd_start && return 0
	done
	echo "# sshd would not start:"; sed 's/^/#   /' "$ssh_dir/sshd.err"
	exit 99
}

# sshd_start: sshd in the foreground (-D) in the background, until a
# login works.
sshd_start() {
	"$sshd_bin" -D -e -f "$ssh_dir/sshd_config" 2>"$ssh_dir/sshd.err" &
	sshd_pid=$!
	live_pids="$live_pids $sshd_pid"
	_end=$(($(now_s) + live_deadline))
	while [ "$(now_s)" -le "$_end" ]; do
		if ssh -F "$ssh_cfg" -o BatchMode=yes host-a true 2>/dev/null; then
			return 0
		fi
		kill -0 "$sshd_pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

sshd_stop() {
	kill "$sshd_pid" 2>/dev/null
	wait "$sshd_pid" 2>/dev/null
	sshd_pid=
}

# wait_grep FILE PATTERN [N]: until FILE has N (default 1) lines matching.
wait_grep() {
	_end=$(($(now_s) + live_deadline))
	# A file not there yet counts 0 (grep prints nothing then, and
	# [ "" -lt N ] would end the wait at once: a background job's
	# redirection may not have made the file yet on a busy machine).
	while [ "$(grep -c -e "$2" "$1" 2>/dev/null || :)" -lt "${3:-1}" ] 2>/dev/null ||
	      ! [ -e "$1" ]; do
		if [ "$(now_s)" -gt "$_end" ]; then
			echo "# no${3:+ $3} '$2' in $1:"
			sed 's/^/#   /' "$1" | tail -20
			return 1
		fi
		sleep 0.05
	done
}
