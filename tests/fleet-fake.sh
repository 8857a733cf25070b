# Stand-ins for a fleet's hosts, sourced by the reconnect tests after
# lib.sh: fleet_fakes writes into $tmp
# - fake-ssh: ssh's stand-in, HOST COMMAND: the command run by sh here;
# - remote-old: this plogtop as an older remote (no "resume" in its hello,
#   no cursor lines, no identity lines), its stream living a second and then ending (its
#   lifetime is input, not a wait);
# - remote-real: this plogtop as it is, living a second (a resuming remote
#   when it says "resume": true); notes "given" in $tmp/cursors for each
#   --resume=-;
# - remote-resume: the stream of an older one made a resuming one: its
#   hello says
#   "resume": true (its identity lines left out, as an older one's), it writes a cursor after every second incident (the
#   lines of the incidents sent so far: plogtop's own cursor names file
#   positions) and, given --resume=-, reads the cursor from standard input
#   and leaves out what it covers; the incident after the last cursor
#   comes again on a reconnect.  It notes in $tmp/cursors whether the
#   cursor it was given is the last it sent ("same").
# Each connection adds a line to $tmp/connections.
fleet_fakes() {
	: >"$tmp/connections"
	: >"$tmp/cursors"
	: >"$tmp/last-sent"
cat >"$tmp/fake-ssh" <<'EOF'
#!/bin/sh
shift
exec sh -c "$1"
EOF
cat >"$tmp/remote-old" <<EOF
#!/bin/sh
echo x >>'$tmp/connections'
timeout 1 '$PLOGTOP' "\$@" | awk '
	NR == 1 { sub(/, "resume": true/, "") }
	/^{"type": "cursor"/ { next }
	/^{"type": "identity"/ { next }
	{ print; fflush() }'
EOF
cat >"$tmp/remote-real" <<EOF
#!/bin/sh
echo x >>'$tmp/connections'
case " \$* " in *" --resume=- "*) echo given >>'$tmp/cursors' ;; esac
exec timeout 1 '$PLOGTOP' "\$@"
EOF
cat >"$tmp/remote-resume" <<EOF
#!/bin/sh
echo x >>'$tmp/connections'
skip=
for a; do
	shift
	case \$a in
	--resume=-)
		cur=\$(cat)
		if [ "\$cur" = "\$(cat '$tmp/last-sent')" ]; then
			echo same >>'$tmp/cursors'
		else
			echo "differs: \$cur" >>'$tmp/cursors'
		fi
		skip=\$(printf '%s' "\$cur" | sed -n 's/^{"lines":\[\([0-9,]*\)\]}\$/\1/p')
		;;
	*) set -- "\$@" "\$a" ;;
	esac
done
timeout 1 '$PLOGTOP' "\$@" | awk -v list="\$skip" -v last='$tmp/last-sent' '
	BEGIN { n = split(list, a, ","); for (i = 1; i <= n; i++) covered[a[i]] = 1 }
	NR == 1 {
		sub(/, "resume": true/, "")
		sub(/}\$/, ", \"resume\": true}")
		print
		fflush()
		next
	}
	/^{"type": "cursor"/ { next }
	/^{"type": "identity"/ { next }
	{
		l = \$0
		sub(/.*"line": /, "", l)
		sub(/,.*/, "", l)
		if (l in covered)
			next
		print
		list = list (list == "" ? "" : ",") l
		if (++k % 2 == 0) {
			c = "{\"lines\":[" list "]}"
			printf "{\"type\": \"cursor\", \"cursor\": %s}\n", c
			print c >last
			close(last)
		}
		fflush()
	}'
EOF
chmod +x "$tmp/fake-ssh" "$tmp/remote-old" "$tmp/remote-resume" \
	"$tmp/remote-real"
}
