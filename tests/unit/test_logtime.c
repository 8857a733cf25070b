/* Log times: plog stamps (with their odd variants), ISO 8601 output and
 * the --since argument. */
#include "config.h"

#include <stdlib.h>
#include <time.h>

#include "unit.h"

#include "logtime.h"

#define USEC 1000000LL

static logtime_t parse(const char *s)
{
	return logtime_parse(s, strlen(s));
}

static void assert_iso(logtime_t t, const char *want)
{
	char buf[LOGTIME_ISO_LEN];

	logtime_iso(t, buf);
	assert_string_equal(buf, want);
}

static void test_parse_full_stamp(void **state)
{
	(void)state;
	logtime_t t = parse("2026-07-13-11:39:20.982.549");
	assert_int_equal(t, logtime_make(2026, 7, 13, 11, 39, 20, 982549));
	assert_iso(t, "2026-07-13T11:39:20.982549");
	/* Microseconds count: two stamps 7 us apart. */
	assert_int_equal(parse("2026-07-13-11:39:20.982.556") - t, 7);
	/* Milliseconds carry into seconds properly across a boundary. */
	assert_int_equal(parse("2026-07-13-11:39:21.000.000") -
			 parse("2026-07-13-11:39:20.999.999"), 1);
}

static void test_parse_lost_colon(void **state)
{
	(void)state;
	/* The EE1001 seed's stamp: the colon between minutes and seconds is
	 * missing, the digits are all there. */
	logtime_t t = parse("2024-01-29-19:2856.519.792");
	assert_int_equal(t, logtime_make(2024, 1, 29, 19, 28, 56, 519792));
	assert_iso(t, "2024-01-29T19:28:56.519792");
}

static void test_parse_without_fraction(void **state)
{
	(void)state;
	logtime_t t = parse("2023-04-14-14:43:17");
	assert_int_equal(t, logtime_make(2023, 4, 14, 14, 43, 17, 0));
	assert_iso(t, "2023-04-14T14:43:17.000000");
	/* Milliseconds only. */
	assert_int_equal(parse("2023-04-14-14:43:17.250"),
			 logtime_make(2023, 4, 14, 14, 43, 17, 250000));
}

static void test_parse_reads_only_n_bytes(void **state)
{
	(void)state;
	const char *line = "2026-07-13-11:39:20.982.549 [api_c.cc:1713]227839";
	/* Only the stamp's bytes are given: the tid after it is not read. */
	assert_int_equal(logtime_parse(line, 27),
			 logtime_make(2026, 7, 13, 11, 39, 20, 982549));
	/* Cut before the seconds: fewer than 14 digits. */
	assert_int_equal(logtime_parse(line, 16), LOGTIME_UNKNOWN);
}

static void test_parse_garbage(void **state)
{
	(void)state;
	assert_int_equal(parse(""), LOGTIME_UNKNOWN);
	assert_int_equal(parse("hello"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-07-13"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-07-13-11:39"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-07-13x11:39:20.982.549"), LOGTIME_UNKNOWN);
	assert_int_equal(logtime_parse("2026-07-13-11:39:20", 0),
			 LOGTIME_UNKNOWN);
}

static void test_parse_invalid_dates(void **state)
{
	(void)state;
	assert_int_equal(parse("2026-02-30-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2023-02-29-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2100-02-29-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-13-01-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-00-10-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-04-31-10:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-07-13-24:00:00.000.000"), LOGTIME_UNKNOWN);
	assert_int_equal(parse("2026-07-13-23:60:00.000.000"), LOGTIME_UNKNOWN);
	/* Leap days that exist. */
	assert_int_not_equal(parse("2024-02-29-10:00:00.000.000"),
			     LOGTIME_UNKNOWN);
	assert_int_not_equal(parse("2000-02-29-10:00:00.000.000"),
			     LOGTIME_UNKNOWN);
}

/* A stamp in the logger's shape is read without the loop: whatever its
 * digits (invalid dates too), as the loop reads it with a separator
 * changed to a space (which the shape test refuses). */
static void test_parse_shaped_as_loop(void **state)
{
	unsigned long seed = 5;
	(void)state;

	for (int round = 0; round < 100000; round++) {
		char s[LOGTIME_PLOG_LEN + 1] = "0000-00-00-00:00:00.000.000";
		char loop[sizeof s];
		for (int i = 0; i < LOGTIME_PLOG_LEN; i++) {
			seed = seed * 6364136223846793005ul + 1;
			unsigned r = (unsigned)(seed >> 33);
			/* Years from 1000 to 2999; some dates are valid. */
			if (s[i] == '0')
				s[i] = (char)(i == 0 ? '1' + r % 2 : '0' + r % 10);
		}
		assert_true(logtime_plog_shape(s));
		memcpy(loop, s, sizeof s);
		loop[10] = ' ';
		assert_false(logtime_plog_shape(loop));
		assert_true(logtime_parse(s, LOGTIME_PLOG_LEN) ==
			    logtime_parse(loop, LOGTIME_PLOG_LEN));
		assert_true(logtime_parse_shaped(s) ==
			    logtime_parse(loop, LOGTIME_PLOG_LEN));
	}
	/* Any byte out of its place: a letter, another separator, a
	 * digit for a separator, a byte with the high bit. */
	static const char bad[] = { 'a', ':', '.', '-', '5', ' ', '\0', '\x80',
				    '/', '@' };
	for (int i = 0; i < LOGTIME_PLOG_LEN; i++)
		for (size_t b = 0; b < sizeof bad; b++) {
			char s[] = "2026-07-13-11:39:20.982.549";
			if (s[i] == bad[b] || (bad[b] == '5' && s[i] >= '0' &&
						 s[i] <= '9'))
				continue;
			s[i] = bad[b];
			assert_false(logtime_plog_shape(s));
		}
	assert_false(logtime_plog_shape("2026-07-13-11:39:20.982:549"));
	assert_false(logtime_plog_shape("2026-07-13-11:39:20.982.5a9"));
	assert_true(logtime_parse("2026-07-13-11:39:20.982.549", 27) ==
		    logtime_make(2026, 7, 13, 11, 39, 20, 982549));
}

static void test_iso_unknown_is_empty(void **state)
{
	char buf[LOGTIME_ISO_LEN] = "junk";
	(void)state;

	logtime_iso(LOGTIME_UNKNOWN, buf);
	assert_string_equal(buf, "");
}

/* logtime_iso() and logtime_make() agree on every kind of date: month
 * ends, leap days, the turn of centuries, the far ends of the range. */
static void test_iso_round_trip(void **state)
{
	static const int dates[][7] = {
		{ 1971, 1, 1, 0, 0, 0, 0 },
		{ 1999, 12, 31, 23, 59, 59, 999999 },
		{ 2000, 2, 29, 12, 0, 0, 1 },
		{ 2024, 1, 29, 19, 28, 56, 519792 },
		{ 2026, 7, 13, 11, 39, 20, 982549 },
		{ 2100, 3, 1, 0, 0, 0, 0 },
		{ 9999, 12, 31, 23, 59, 59, 999999 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof dates / sizeof dates[0]; i++) {
		const int *d = dates[i];
		logtime_t t = logtime_make(d[0], d[1], d[2], d[3], d[4], d[5],
					   d[6]);
		char buf[LOGTIME_ISO_LEN], want[LOGTIME_ISO_LEN];
		assert_int_not_equal(t, LOGTIME_UNKNOWN);
		logtime_iso(t, buf);
		snprintf(want, sizeof want, "%04d-%02d-%02dT%02d:%02d:%02d.%06d",
			 d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
		assert_string_equal(buf, want);
	}

	/* Every day from 2023 to 2025: the ISO text read back gives the same
	 * time, and consecutive days are 86400 s apart. */
	logtime_t prev = LOGTIME_UNKNOWN;
	for (logtime_t t = logtime_make(2023, 1, 1, 6, 30, 15, 42);
	     t < logtime_make(2026, 1, 1, 0, 0, 0, 0); t += 86400 * USEC) {
		char buf[LOGTIME_ISO_LEN];
		int y, mo, d, h, mi, s, us;
		logtime_iso(t, buf);
		assert_int_equal(sscanf(buf, "%d-%d-%dT%d:%d:%d.%d", &y, &mo,
					&d, &h, &mi, &s, &us), 7);
		assert_int_equal(logtime_make(y, mo, d, h, mi, s, us), t);
		if (prev != LOGTIME_UNKNOWN)
			assert_int_equal(t - prev, 86400 * USEC);
		prev = t;
	}
}

static void test_make_rejects_out_of_range(void **state)
{
	(void)state;
	assert_int_equal(logtime_make(2026, 7, 13, 11, 0, 0, 1000000),
			 LOGTIME_UNKNOWN);
	assert_int_equal(logtime_make(2026, 7, 13, -1, 0, 0, 0),
			 LOGTIME_UNKNOWN);
	assert_int_equal(logtime_make(1970, 1, 1, 0, 0, 0, 0),
			 LOGTIME_UNKNOWN);
	assert_int_equal(logtime_make(10000, 1, 1, 0, 0, 0, 0),
			 LOGTIME_UNKNOWN);
}

static void test_now_is_plausible(void **state)
{
	(void)state;
	logtime_t now = logtime_now();
	assert_true(now > logtime_make(2020, 1, 1, 0, 0, 0, 0));
	assert_true(now < logtime_make(2200, 1, 1, 0, 0, 0, 0));
}

/* --since: "now", durations back from now, dates and times. */
static void test_since(void **state)
{
	const logtime_t now = logtime_make(2026, 7, 13, 12, 0, 0, 0);
	logtime_t t;
	(void)state;

	assert_int_equal(logtime_parse_since("now", now, &t), 0);
	assert_int_equal(t, now);
	assert_int_equal(logtime_parse_since("2h", now, &t), 0);
	assert_int_equal(t, now - 2 * 3600 * USEC);
	assert_int_equal(logtime_parse_since("30m", now, &t), 0);
	assert_int_equal(t, now - 30 * 60 * USEC);
	assert_int_equal(logtime_parse_since("1h30m", now, &t), 0);
	assert_int_equal(t, now - 90 * 60 * USEC);
	assert_int_equal(logtime_parse_since("1d", now, &t), 0);
	assert_int_equal(t, now - 86400 * USEC);
	assert_int_equal(logtime_parse_since("90s", now, &t), 0);
	assert_int_equal(t, now - 90 * USEC);
	assert_int_equal(logtime_parse_since("0s", now, &t), 0);
	assert_int_equal(t, now);

	assert_int_equal(logtime_parse_since("2026-07-13", now, &t), 0);
	assert_int_equal(t, logtime_make(2026, 7, 13, 0, 0, 0, 0));
	assert_int_equal(logtime_parse_since("2026-07-13T11:00", now, &t), 0);
	assert_int_equal(t, logtime_make(2026, 7, 13, 11, 0, 0, 0));
	assert_int_equal(logtime_parse_since("2026-07-13 11:00:05", now, &t), 0);
	assert_int_equal(t, logtime_make(2026, 7, 13, 11, 0, 5, 0));
	assert_int_equal(logtime_parse_since("2026-07-13T11:00:05", now, &t), 0);
	assert_int_equal(t, logtime_make(2026, 7, 13, 11, 0, 5, 0));
}

static void test_since_errors(void **state)
{
	static const char *const bad[] = {
		"", "2x", "h", "2", "2h-", "1h30", "-2h", "now!", "NOW",
		"2026-13-01", "2026-02-30", "2026-07-13T", "2026-07-13T11",
		"2026-07-13T25:00", "2026-07-13 11:00:05x", "2026-07-13Z",
		"yesterday",
	};
	const logtime_t now = logtime_make(2026, 7, 13, 12, 0, 0, 0);
	(void)state;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		logtime_t t = 12345;
		if (logtime_parse_since(bad[i], now, &t) != -1)
			fail_msg("--since '%s' was accepted", bad[i]);
		assert_int_equal(t, 12345);	/* left alone */
	}
}

static void test_since_huge_duration(void **state)
{
	(void)state;
	/* Regression: a duration of 383 centuries overflowed int64_t
	 * microseconds and wrapped to a time in the future. */
	const logtime_t now = logtime_make(2026, 7, 13, 12, 0, 0, 0);
	logtime_t t = 0;
	int rc = logtime_parse_since("20000000w", now, &t);
	assert_true(rc == -1 || t < now);
}

static long offset_at(const char *tz, int y, int mo, int d, int h, int mi,
		      int se)
{
	long off = 99;

	setenv("TZ", tz, 1);
	tzset();
	assert_int_equal(logtime_utc_offset(logtime_make(y, mo, d, h, mi, se,
							 0), &off), 0);
	return off;
}

/* The offset the zone had at the log's wall clock, DST included. */
static void test_utc_offset(void **state)
{
	char buf[LOGTIME_ISO_LEN], off[LOGTIME_OFFSET_LEN];
	long o;

	(void)state;
	assert_int_equal(offset_at("Asia/Shanghai", 2026, 7, 13, 11, 0, 5),
			 8 * 3600);
	assert_int_equal(offset_at("Asia/Shanghai", 2026, 1, 13, 11, 0, 5),
			 8 * 3600);
	/* Berlin: CET until 2026-03-29 02:00, CEST until 2026-10-25 03:00. */
	assert_int_equal(offset_at("Europe/Berlin", 2026, 3, 29, 1, 59, 59),
			 3600);
	assert_int_equal(offset_at("Europe/Berlin", 2026, 3, 29, 3, 0, 0),
			 7200);
	assert_int_equal(offset_at("Europe/Berlin", 2026, 7, 13, 11, 0, 5),
			 7200);
	assert_int_equal(offset_at("Europe/Berlin", 2026, 10, 25, 3, 0, 1),
			 3600);
	assert_int_equal(offset_at("Europe/Berlin", 2026, 12, 1, 12, 0, 0),
			 3600);
	assert_int_equal(logtime_utc_offset(LOGTIME_UNKNOWN, &o), -1);
	logtime_offset_str(8 * 3600, off);
	assert_string_equal(off, "+08:00");
	logtime_offset_str(-(5 * 3600 + 1800), off);
	assert_string_equal(off, "-05:30");
	assert_int_equal(logtime_offset_parse("-05:30", &o), 0);
	assert_int_equal(o, -(5 * 3600 + 1800));
	assert_int_equal(logtime_offset_parse("Z", &o), 0);
	assert_int_equal(o, 0);
	assert_int_equal(logtime_offset_parse("+19:00", &o), -1);
	assert_int_equal(logtime_offset_parse("0800", &o), -1);
	logtime_utc_iso(logtime_make(2026, 7, 13, 11, 0, 5, 123000), 8 * 3600,
			buf);
	assert_string_equal(buf, "2026-07-13T03:00:05Z");
	logtime_utc_iso(logtime_make(2026, 1, 1, 1, 0, 0, 0), 2 * 3600, buf);
	assert_string_equal(buf, "2025-12-31T23:00:00Z");
}

/* What mktime says of a log's wall clock, the answer logtime_utc_offset
 * must give (it asks localtime_r where only one offset can be meant). */
static int mktime_offset(logtime_t t, long *off)
{
	time_t secs = (time_t)(t / 1000000);
	struct tm tm;

	if (!gmtime_r(&secs, &tm))
		return -1;
	tm.tm_isdst = -1;
	if (mktime(&tm) == (time_t)-1)
		return -1;
	*off = tm.tm_gmtoff;
	return 0;
}

/* Every quarter of an hour (and a few seconds) of three years, in zones
 * with DST of an hour, of half an hour and a jump of a day, and none:
 * the same offset as mktime, in gaps and repeats too. */
static void test_utc_offset_as_mktime(void **state)
{
	static const char *const zones[] = {
		"Europe/Berlin", "America/New_York", "Australia/Lord_Howe",
		"Pacific/Apia", "Asia/Shanghai", "UTC",
	};
	const logtime_t from = logtime_make(2010, 1, 1, 0, 0, 0, 0);
	const logtime_t to = logtime_make(2013, 1, 1, 0, 0, 0, 0);
	long differ = 0, checked = 0;

	(void)state;
	for (size_t z = 0; z < sizeof zones / sizeof *zones; z++) {
		setenv("TZ", zones[z], 1);
		tzset();
		for (logtime_t t = from; t < to; t += 899LL * 1000000) {
			long a = 1, b = 2;
			int ra = logtime_utc_offset(t, &a);
			int rb = mktime_offset(t, &b);
			checked++;
			if (ra != rb || (ra == 0 && a != b))
				differ++;
		}
	}
	assert_true(checked > 600000);
	assert_int_equal(differ, 0);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full_stamp),
		cmocka_unit_test(test_utc_offset),
		cmocka_unit_test(test_utc_offset_as_mktime),
		cmocka_unit_test(test_parse_lost_colon),
		cmocka_unit_test(test_parse_without_fraction),
		cmocka_unit_test(test_parse_reads_only_n_bytes),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_parse_invalid_dates),
		cmocka_unit_test(test_parse_shaped_as_loop),
		cmocka_unit_test(test_iso_unknown_is_empty),
		cmocka_unit_test(test_iso_round_trip),
		cmocka_unit_test(test_make_rejects_out_of_range),
		cmocka_unit_test(test_now_is_plausible),
		cmocka_unit_test(test_since),
		cmocka_unit_test(test_since_errors),
		cmocka_unit_test(test_since_huge_duration),
	};
	return UNIT_RUN("logtime", tests);
}
