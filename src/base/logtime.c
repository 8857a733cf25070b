#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "logtime.h"

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
 * days_from_civil), so no time zone or libc state is involved. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

static int days_in_month(int y, int m)
{
	static const int dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 ? 28 + leap : dm[m - 1];
}

logtime_t logtime_make(int year, int mon, int day, int hour, int min,
		       int sec, int usec)
{
	if (year < 1971 || year > 9999 || mon < 1 || mon > 12 || day < 1 ||
	    day > days_in_month(year, mon) || hour > 23 || min > 59 ||
	    sec > 60 || usec < 0 || usec > 999999 || hour < 0 || min < 0 ||
	    sec < 0)
		return LOGTIME_UNKNOWN;
	int64_t days = days_from_civil(year, mon, day);
	int64_t secs = days * 86400 + hour * 3600 + min * 60 + sec;
	return (logtime_t)(secs * 1000000 + usec);
}

static int digits(const char *d, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++)
		v = v * 10 + (d[i] - '0');
	return v;
}

#if defined(__SSE2__)
/* Two loads of sixteen (bytes 0-15, 11-26): each byte xor its shape's
 * byte is 0-9 for a digit where the shape has '0' and 0 for the
 * separator itself, and a saturating subtract of that most says
 * whether every byte is within it.  (A loop over the 27 bytes was 300
 * instructions a line.) */
static int shape_half(const char *s, const char *shape, const char *most)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i x = _mm_xor_si128(v, _mm_loadu_si128(
		(const __m128i *)(const void *)shape));
	__m128i over = _mm_subs_epu8(x, _mm_loadu_si128(
		(const __m128i *)(const void *)most));

	return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) ==
	       0xffff;
}

int logtime_plog_shape(const char *s)
{
	static const char shape[LOGTIME_PLOG_LEN + 1] =
		"0000-00-00-00:00:00.000.000";
	static const char most[LOGTIME_PLOG_LEN + 1] =
		"\11\11\11\11\0\11\11\0\11\11\0\11\11\0\11\11\0"
		"\11\11\0\11\11\11\0\11\11\11";

	return shape_half(s, shape, most) &&
	       shape_half(s + 11, shape + 11, most + 11);
}
#else
int logtime_plog_shape(const char *s)
{
	static const char shape[LOGTIME_PLOG_LEN + 1] =
		"0000-00-00-00:00:00.000.000";
	unsigned bad = 0;

	for (int i = 0; i < LOGTIME_PLOG_LEN; i++)
		bad |= shape[i] == '0' ?
		       (unsigned)((unsigned char)s[i] - '0') > 9u :
		       s[i] != shape[i];
	return !bad;
}
#endif

/* The stamp in the logger's shape: its twenty digits are where the
 * loop of logtime_parse would find them. */
logtime_t logtime_parse_shaped(const char *s)
{
	return logtime_make(digits(s, 4), digits(s + 5, 2), digits(s + 8, 2),
			    digits(s + 11, 2), digits(s + 14, 2),
			    digits(s + 17, 2),
			    digits(s + 20, 3) * 1000 + digits(s + 24, 3));
}

logtime_t logtime_parse(const char *s, size_t n)
{
	char d[20];
	int nd = 0;

	/* Past its twentieth digit the loop below reads nothing more. */
	if (n >= LOGTIME_PLOG_LEN && logtime_plog_shape(s))
		return logtime_parse_shaped(s);

	/* The stamp's digits in order, separators ignored: a lost colon or a
	 * missing fraction then only changes how many digits there are. */
	for (size_t i = 0; i < n && nd < 20; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9')
			d[nd++] = c;
		/* The separators, and NUL as strchr(":.- ", c) took it
		 * (this is every plog line's cost: no strchr call). */
		else if (c != ':' && c != '.' && c != '-' && c != ' ' && c)
			break;
	}
	if (nd < 14)
		return LOGTIME_UNKNOWN;
	int usec = 0;
	if (nd >= 17)
		usec = digits(d + 14, 3) * 1000;
	if (nd >= 20)
		usec += digits(d + 17, 3);
	return logtime_make(digits(d, 4), digits(d + 4, 2), digits(d + 6, 2),
			    digits(d + 8, 2), digits(d + 10, 2), digits(d + 12, 2),
			    usec);
}

logtime_t logtime_now(void)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	return logtime_make(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			    tm.tm_hour, tm.tm_min, tm.tm_sec,
			    (int)(ts.tv_nsec / 1000));
}

/* v (0 <= v < 10^n) in n digits, leading zeros. */
static char *put_digits(char *p, int v, int n)
{
	for (int i = n - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + n;
}

void logtime_iso(logtime_t t, char *buf)
{
	if (t == LOGTIME_UNKNOWN) {
		buf[0] = '\0';
		return;
	}
	int64_t secs = t / 1000000, usec = t % 1000000;
	int64_t days = secs / 86400, rem = secs % 86400;
	int y, m, d;

	civil_from_days(days, &y, &m, &d);
	if (y < 0 || usec < 0 || rem < 0) {	/* not a log's: printf's way */
		snprintf(buf, LOGTIME_ISO_LEN,
			 "%04d-%02d-%02dT%02d:%02d:%02d.%06d", y % 10000,
			 m % 100, d % 100, (int)(rem / 3600) % 100,
			 (int)(rem / 60 % 60), (int)(rem % 60),
			 (int)usec % 1000000);
		return;
	}
	/* The same text as that snprintf, digit by digit: four times per
	 * incident in a JSON report, and printf was most of it. */
	char *p = buf;
	p = put_digits(p, y % 10000, 4);
	*p++ = '-';
	p = put_digits(p, m % 100, 2);
	*p++ = '-';
	p = put_digits(p, d % 100, 2);
	*p++ = 'T';
	p = put_digits(p, (int)(rem / 3600) % 100, 2);
	*p++ = ':';
	p = put_digits(p, (int)(rem / 60 % 60), 2);
	*p++ = ':';
	p = put_digits(p, (int)(rem % 60), 2);
	*p++ = '.';
	p = put_digits(p, (int)usec, 6);
	*p = '\0';
}

static int parse_duration(const char *s, int64_t *secs)
{
	int64_t total = 0;
	int parts = 0;

	while (*s) {
		if (!isdigit((unsigned char)*s))
			return -1;
		int64_t v = 0;
		while (isdigit((unsigned char)*s)) {
			v = v * 10 + (*s++ - '0');
			if (v > 100000000)
				return -1;
		}
		switch (*s++) {
		case 's': break;
		case 'm': v *= 60; break;
		case 'h': v *= 3600; break;
		case 'd': v *= 86400; break;
		case 'w': v *= 7 * 86400; break;
		default: return -1;
		}
		total += v;
		parts++;
		/* Past a thousand years it is a typo, and microseconds of it
		 * would not fit in 64 bits. */
		if (total > 1000LL * 366 * 86400)
			return -1;
	}
	if (!parts)
		return -1;
	*secs = total;
	return 0;
}

static int parse_time(const char *s, logtime_t *out)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, used = 0;

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3)
		return -1;
	s += used;
	if (*s == 'T' || *s == ' ') {
		s++;
		used = 0;
		if (sscanf(s, "%2d:%2d%n", &h, &mi, &used) != 2)
			return -1;
		s += used;
		if (*s == ':') {
			used = 0;
			if (sscanf(s + 1, "%2d%n", &sec, &used) != 1)
				return -1;
			s += 1 + used;
		}
	}
	if (*s)
		return -1;
	logtime_t t = logtime_make(y, mo, d, h, mi, sec, 0);
	if (t == LOGTIME_UNKNOWN)
		return -1;
	*out = t;
	return 0;
}

int logtime_parse_since(const char *arg, logtime_t now, logtime_t *out)
{
	int64_t secs;

	if (strcmp(arg, "now") == 0) {
		*out = now;
		return 0;
	}
	if (parse_duration(arg, &secs) == 0) {
		*out = now - secs * 1000000;
		return 0;
	}
	return parse_time(arg, out);
}

/* The zone's offset at instant secs, by localtime_r: unlike mktime, it
 * does not look at the zone file again (glibc's mktime stats
 * /etc/localtime on every call when TZ is unset, which was a quarter of
 * a --once run on a dense tree).  Sets ok to 0 when it fails. */
static long offset_at(time_t secs, int *ok)
{
	struct tm tm;

	if (!localtime_r(&secs, &tm)) {
		*ok = 0;
		return 0;
	}
	return tm.tm_gmtoff;
}

/* The offset the zone had at wall clock secs when that wall clock names
 * one instant only: the offset o with localtime(secs - o) == o, the same
 * for two days either side (offsets differ by less than that, so no
 * other instant can show this wall clock).  0 when it does not. */
static int offset_unique(time_t secs, long *off)
{
	int ok = 1;
	long o = offset_at(secs, &ok);

	for (int i = 0; i < 2 && ok; i++) {
		long o2 = offset_at(secs - o, &ok);
		if (o2 == o)
			break;
		o = o2;
	}
	time_t at = secs - o;
	const time_t day2 = 2 * 86400;
	/* mktime's -1 is also its error: that second is left to it. */
	if (!ok || at == (time_t)-1 || offset_at(at, &ok) != o || offset_at(at - day2, &ok) != o ||
	    offset_at(at + day2, &ok) != o || !ok)
		return 0;
	*off = o;
	return 1;
}

/* mktime with tm_isdst -1 says which offset the zone had at that wall
 * clock (DST included); a time in a gap or a repeat is taken as mktime
 * takes it (the later offset in a gap, one of the two in a repeat).
 * Most times are far from any change of offset: for them localtime_r
 * gives the same answer much faster, and mktime runs only near one. */
int logtime_utc_offset(logtime_t t, long *off)
{
	if (t == LOGTIME_UNKNOWN)
		return -1;
	time_t secs = (time_t)(t / 1000000);
	struct tm tm;

	if (offset_unique(secs, off))
		return *off >= -LOGTIME_OFFSET_MAX && *off <= LOGTIME_OFFSET_MAX
		       ? 0 : -1;
	if (!gmtime_r(&secs, &tm))
		return -1;
	tm.tm_isdst = -1;
	if (mktime(&tm) == (time_t)-1)
		return -1;	/* before 1971 a log time is unknown anyway */
	*off = tm.tm_gmtoff;
	return *off >= -LOGTIME_OFFSET_MAX && *off <= LOGTIME_OFFSET_MAX
	       ? 0 : -1;
}

void logtime_offset_str(long off, char *buf)
{
	long a = off < 0 ? -off : off;

	snprintf(buf, LOGTIME_OFFSET_LEN, "%c%02ld:%02ld", off < 0 ? '-' : '+',
		 a / 3600 % 100, a / 60 % 60);
}

int logtime_offset_parse(const char *s, long *off)
{
	if (strcmp(s, "Z") == 0) {
		*off = 0;
		return 0;
	}
	if (strlen(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' ||
	    !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2]) ||
	    !isdigit((unsigned char)s[4]) || !isdigit((unsigned char)s[5]))
		return -1;
	long h = digits(s + 1, 2), m = digits(s + 4, 2);
	if (h > 18 || m > 59)
		return -1;
	*off = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
	return 0;
}

void logtime_utc_iso(logtime_t t, long off, char *buf)
{
	if (t == LOGTIME_UNKNOWN) {
		buf[0] = '\0';
		return;
	}
	char iso[LOGTIME_ISO_LEN];
	logtime_iso(t - (logtime_t)off * 1000000, iso);
	/* To the second: jq's fromdateiso8601 takes no fraction. */
	size_t n = strnlen(iso, 19);
	memcpy(buf, iso, n);
	buf[n] = 'Z';
	buf[n + 1] = '\0';
}
