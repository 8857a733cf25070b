# messages/en.txt -> po/catalog.pot: each title, summary and fix template
# of the message file becomes a msgid, exactly the text src/classify/catalog.c
# loads (indentation removed, line breaks kept, trailing ones dropped),
# so that gettext finds its translation by that text.  `make update-po`
# runs it; xgettext then merges catalog.pot into plogtop.pot.
#   awk -f po/catalog-pot.awk messages/en.txt >po/catalog.pot

# The file as the source tree names it, wherever the build is: a
# reference must not depend on the directory the build ran in.
function source_name(   f) {
	f = FILENAME
	sub(/^.*\//, "", f)
	return "messages/" f
}

function flush(   k, source) {
	source = source_name()
	if (key == "")
		return
	sub(/\n+$/, "", value)
	k = value
	if (!(k in seen)) {
		order[++n] = k
		seen[k] = 1
	}
	where[k] = where[k] "#. [" section "] " key "\n"
	refs[k] = refs[k] " " source ":" keyline
	key = ""
	value = ""
}

function po_string(s,   out, lines, i, m) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	m = split(s, lines, "\n")
	if (m == 1)
		return "\"" s "\""
	out = "\"\""
	for (i = 1; i <= m; i++)
		out = out "\n\"" lines[i] (i < m ? "\\n" : "") "\""
	return out
}

{ sub(/\r$/, "") }

/^[ \t]/ {
	if (key != "") {
		line = $0
		sub(/^[ \t]+/, "", line)
		value = value line "\n"
	}
	next
}

{ flush() }

/^$/ || /^#/ { next }

/^\[.*\]$/ { section = substr($0, 2, length($0) - 2); next }

{
	c = index($0, ":")
	if (c == 0 || section == "")
		next
	key = substr($0, 1, c - 1)
	if (key != "title" && key != "summary" && key != "fix") {
		key = ""
		next
	}
	keyline = FNR
	value = substr($0, c + 1)
	sub(/^[ \t]+/, "", value)
	if (value != "")
		value = value "\n"
}

END {
	flush()
	print "# Generated from messages/en.txt by po/catalog-pot.awk: do not edit."
	print "msgid \"\""
	print "msgstr \"\""
	print "\"MIME-Version: 1.0\\n\""
	print "\"Content-Type: text/plain; charset=UTF-8\\n\""
	print "\"Content-Transfer-Encoding: 8bit\\n\""
	for (i = 1; i <= n; i++) {
		k = order[i]
		print ""
		if (i == 1) {
			print "#. TRANSLATORS: the texts of an incident class are templates:"
			print "#. {field} is replaced by the incident's value (pid, name, api,"
			print "#. stream_id...); keep it as is.  {?field:TEXT} shows TEXT only"
			print "#. when the incident has that field, {!field:TEXT} only when it"
			print "#. has not: translate TEXT inside them.  A fix has the lines"
			print "#. Meaning:, Check: and Change: (a line starting \"- \" is a list"
			print "#. item); keep its line breaks."
		}
		printf "%s", where[k]
		print "#:" refs[k]
		print "msgid " po_string(k)
		print "msgstr \"\""
	}
}
