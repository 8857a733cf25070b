#include "config.h"

#include <limits.h>
#include <string.h>

#include "plogline.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_stamp_byte(char c)
{
	return is_digit(c) || c == ':' || c == '.' || c == '-';
}

static int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

/* By length and first letter: this runs on every line the splitter
 * lets through (a table of names compared in turn was a loop of
 * compares per line). */
static enum plog_level level_of(const char *s, size_t n)
{
	switch (n) {
	case 4:
		if (memcmp(s, "INFO", 4) == 0)
			return LEVEL_INFO;
		if (memcmp(s, "WARN", 4) == 0)
			return LEVEL_WARNING;
		break;
	case 5:
		switch (s[0]) {
		case 'E':
			if (memcmp(s, "ERROR", 5) == 0)
				return LEVEL_ERROR;
			if (memcmp(s, "EVENT", 5) == 0)
				return LEVEL_EVENT;
			break;
		case 'D':
			if (memcmp(s, "DEBUG", 5) == 0)
				return LEVEL_DEBUG;
			break;
		case 'T':
			if (memcmp(s, "TRACE", 5) == 0)
				return LEVEL_TRACE;
			break;
		}
		break;
	case 7:
		if (memcmp(s, "WARNING", 7) == 0)
			return LEVEL_WARNING;
		break;
	}
	return LEVEL_OTHER;
}

/* "[LEVEL]" where LEVEL is [A-Z]+ or [0-9]+; returns the length or 0. */
static size_t level_token(const char *line, size_t len)
{
	size_t i = 1;

	if (len < 3 || line[0] != '[')
		return 0;
	if (is_upper(line[1]))
		while (i < len && is_upper(line[i]))
			i++;
	else
		while (i < len && is_digit(line[i]))
			i++;
	if (i == 1 || i >= len || line[i] != ']' || i > 12)
		return 0;
	return i + 1;
}

int plog_peek_level(const char *line, size_t len, enum plog_level *level)
{
	size_t n = level_token(line, len);

	if (!n)
		return 0;
	*level = level_of(line + 1, n - 2);
	return 1;
}

static long parse_long(const char *s, size_t n, size_t *used)
{
	long v = 0;
	size_t i = 0;

	while (i < n && is_digit(s[i]) && i < 18)
		v = v * 10 + (s[i++] - '0');
	*used = i;
	return v;
}

/* The pid of a header: digits, or '-' and digits.  One out of range
 * (negative, or above LONG_MAX) is no pid the system could have: it is
 * taken as unknown (0, as when the log does not say), so that the chain
 * is still counted, under its process name (the raw lines keep the pid
 * as the log wrote it).  Returns the bytes used, 0 if there is no pid. */
static size_t parse_pid(const char *s, size_t n, long *pid)
{
	const size_t neg = s[0] == '-';
	size_t i = neg;
	long v = 0;
	int over = 0;

	for (; i < n && is_digit(s[i]); i++) {
		int d = s[i] - '0';
		if (v > (LONG_MAX - d) / 10)
			over = 1;
		else
			v = v * 10 + d;
	}
	if (i == neg)
		return 0;
	*pid = over || neg ? 0 : v;
	return i;
}

/* After the stamp: the RUNTIME/ASCENDCL shape "[file.cc:LINE]TID " or
 * "[file.cc:LINE] TID ", which gives the thread.  Other shapes keep tid 0
 * and their text starts right after the stamp. */
static void parse_srcloc_tid(const char *line, size_t len, size_t i,
			     struct plog_header *h)
{
	h->msg = i;
	if (i >= len || line[i] != '[')
		return;
	const char *close = memchr(line + i, ']', len - i);
	if (!close)
		return;
	size_t end = (size_t)(close - line);
	size_t colon = end;
	while (colon > i && line[colon - 1] != ':')
		colon--;
	if (colon <= i + 1 || colon == end)
		return;
	for (size_t k = colon; k < end; k++)
		if (!is_digit(line[k]))
			return;
	h->srcloc.off = i + 1;
	h->srcloc.len = end - i - 1;
	size_t j = end + 1;
	if (j < len && line[j] == ' ')
		j++;
	size_t used;
	long tid = parse_long(line + j, len - j, &used);
	if (used && j + used < len && line[j + used] == ' ') {
		h->tid = tid;
		h->msg = j + used + 1;
	} else {
		h->msg = end + 1;
	}
}

int plog_parse(const char *line, size_t len, struct plog_header *h)
{
	size_t i = level_token(line, len);

	if (!i)
		return 0;
	memset(h, 0, sizeof *h);
	h->level = level_of(line + 1, i - 2);
	while (i < len && line[i] == ' ')
		i++;
	h->module.off = i;
	while (i < len && (is_upper(line[i]) || is_digit(line[i]) ||
			   line[i] == '_' || (line[i] >= 'a' && line[i] <= 'z')))
		i++;
	h->module.len = i - h->module.off;
	if (!h->module.len || i >= len || line[i] != '(')
		return 0;
	if (i + 1 >= len)
		return 0;
	size_t used = parse_pid(line + i + 1, len - i - 1, &h->pid);
	i += 1 + used;
	if (!used || i >= len || line[i] != ',')
		return 0;
	h->name.off = ++i;
	while (i < len && line[i] != ')') {
		/* A comma in the name is MindSpore's own (pid,tid,name). */
		if (line[i] == ',' || line[i] == '\n')
			return 0;
		i++;
	}
	if (i + 1 >= len || line[i + 1] != ':')
		return 0;
	h->name.len = i - h->name.off;
	i += 2;
	h->stamp.off = i;
	/* The logger's own stamp, and no stamp byte after it: its length
	 * and time without the loops (this is every ERROR line's). */
	if (len - i > LOGTIME_PLOG_LEN && logtime_plog_shape(line + i) &&
	    !is_stamp_byte(line[i + LOGTIME_PLOG_LEN])) {
		h->stamp.len = LOGTIME_PLOG_LEN;
		h->time = logtime_parse_shaped(line + i);
		i += LOGTIME_PLOG_LEN;
	} else {
		while (i < len && is_stamp_byte(line[i]))
			i++;
		h->stamp.len = i - h->stamp.off;
		if (!h->stamp.len || !is_digit(line[h->stamp.off]))
			return 0;
		h->time = logtime_parse(line + h->stamp.off, h->stamp.len);
	}
	if (i < len && line[i] == ' ')
		i++;
	parse_srcloc_tid(line, len, i, h);
	return 1;
}

const char *plog_level_name(enum plog_level level)
{
	switch (level) {
	case LEVEL_DEBUG: return "DEBUG";
	case LEVEL_INFO: return "INFO";
	case LEVEL_WARNING: return "WARNING";
	case LEVEL_ERROR: return "ERROR";
	case LEVEL_EVENT: return "EVENT";
	case LEVEL_TRACE: return "TRACE";
	case LEVEL_SCREEN: return "SCREEN";
	default: return "OTHER";
	}
}
