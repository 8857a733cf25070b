#include "config.h"

#include "lineprefix.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t digit_run(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_digit(s[i]))
		i++;
	return i;
}

size_t lineprefix_clock(const char *s, size_t n)
{
	size_t i = 0, groups = 0;
	int timeish = 0, short_group = 0;

	for (;;) {
		size_t g = digit_run(s + i, n - i);
		if (!g)
			break;
		groups++;
		short_group |= g < 2;
		i += g;
		char c = i < n ? s[i] : '\0';
		/* A comma only after a time: Python's logging writes
		 * "12:00:01,123"; "[1,0]" names an MPI rank. */
		if (!(c == ':' || c == '.' || c == '-' || c == '/' || c == 'T' ||
		      (c == ',' && timeish)) ||
		    i + 1 >= n || !is_digit(s[i + 1]))
			break;
		timeish |= c == ':' || c == '.' || c == 'T';
		i++;
	}
	/* "0-1" in "worker-0-1" names something; "05-09" is a date. */
	if (groups < 2 || (!timeish && short_group))
		return 0;
	if (i < n && s[i] == 'Z')
		i++;
	return i;
}

/* Where a clock may start: at a digit that is not inside a word or a
 * number ("python3", "4242"). */
static size_t clock_at(const char *s, size_t n, size_t i)
{
	if (i >= n || !is_digit(s[i]) || (i > 0 && is_alnum(s[i - 1])))
		return 0;
	return lineprefix_clock(s + i, n - i);
}

void lineprefix_shape(const char *p, size_t n, struct strbuf *out)
{
	size_t end = n, i = 0;

	sb_reset(out);
	while (end && is_blank(p[end - 1]))
		end--;
	if (!end)
		return;
	while (i < end) {
		size_t k = clock_at(p, end, i);
		if (k) {
			sb_addc(out, SHAPE_CLOCK);
			i += k;
		} else if (is_blank(p[i])) {
			while (i < end && is_blank(p[i]))
				i++;
			sb_addc(out, SHAPE_SPACE);
		} else {
			/* A token byte in the log itself must not act as one. */
			char c = p[i++];
			sb_addc(out, c == SHAPE_CLOCK || c == SHAPE_SPACE ? '?' : c);
		}
	}
	sb_add(out, p + end, n - end);
}

/* The rest of a shape is the blanks that end it. */
static int only_blanks(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_blank(s[i]))
			return 0;
	return 1;
}

int lineprefix_match(const char *shape, size_t shapelen, const char *line,
		     size_t len, size_t *off)
{
	size_t i = 0;

	for (size_t k = 0; k < shapelen; k++) {
		char c = shape[k];
		if (c == SHAPE_CLOCK) {
			size_t m = clock_at(line, len, i);
			if (!m)
				return 0;
			i += m;
		} else if (c == SHAPE_SPACE) {
			if (i >= len || !is_blank(line[i]))
				return 0;
			while (i < len && is_blank(line[i]))
				i++;
		} else if (i >= len) {
			if (!only_blanks(shape + k, shapelen - k))
				return 0;
			break;
		} else if (line[i] != c) {
			return 0;
		} else {
			i++;
		}
	}
	*off = i;
	return 1;
}
