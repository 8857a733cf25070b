/* Log times.  plog stamps are local wall-clock times with no zone, so
 * plogtop keeps them as microseconds since 1970-01-01 of that same wall
 * clock ("local epoch"): comparable with each other and with --since,
 * printable without ever guessing a zone. */
#ifndef PLOGTOP_LOGTIME_H
#define PLOGTOP_LOGTIME_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t logtime_t;	/* local-epoch microseconds; 0 = unknown */

#define LOGTIME_UNKNOWN ((logtime_t)0)

/* Parses a plog stamp such as 2026-07-13-11:39:20.982.549 from the n
 * bytes at s.  Tolerant of lost separators (2024-01-29-19:2856.519.792)
 * and missing fractions (2023-04-14-14:43:17).  Returns LOGTIME_UNKNOWN
 * when fewer than the 14 digits of a date and time are there or they do
 * not form a valid date. */
logtime_t logtime_parse(const char *s, size_t n);

/* The bytes of a stamp in the logger's own shape, 2026-07-13-11:39:20.982.549
 * (every plog line's), and whether the LOGTIME_PLOG_LEN bytes at s have it:
 * then logtime_parse takes it without its byte-by-byte loop. */
#define LOGTIME_PLOG_LEN 27
int logtime_plog_shape(const char *s);
/* logtime_parse of a stamp that logtime_plog_shape accepted. */
logtime_t logtime_parse_shaped(const char *s);

/* Builds a time from its parts; returns LOGTIME_UNKNOWN if out of range. */
logtime_t logtime_make(int year, int mon, int day, int hour, int min,
		       int sec, int usec);

/* The wall clock now, as a local-epoch time. */
logtime_t logtime_now(void);

/* Writes 2026-07-13T11:39:20.982549 (ISO 8601, no zone) into buf, which
 * holds at least LOGTIME_ISO_LEN bytes; "" for an unknown time. */
#define LOGTIME_ISO_LEN 48
void logtime_iso(logtime_t t, char *buf);

/* The UTC offset (seconds east, |off| <= LOGTIME_OFFSET_MAX) this
 * host's zone (TZ) had at the local time t, DST included: 0, or -1 when
 * not known (an unknown time). */
#define LOGTIME_OFFSET_MAX (18L * 3600)
int logtime_utc_offset(logtime_t t, long *off);
/* "+08:00", "-05:30" into buf (LOGTIME_OFFSET_LEN bytes). */
#define LOGTIME_OFFSET_LEN 16
void logtime_offset_str(long off, char *buf);
/* Reads "+08:00", "-05:30" or "Z": 0, or -1. */
int logtime_offset_parse(const char *s, long *off);
/* The UTC time of local time t at offset off, RFC 3339 to the second
 * (2026-07-13T03:39:20Z) into buf (LOGTIME_ISO_LEN); "" when unknown. */
void logtime_utc_iso(logtime_t t, long off, char *buf);

/* Parses a --since argument: "now", a duration (90s, 15m, 2h, 1d, 1h30m)
 * counted back from now, or a time (2026-07-13, 2026-07-13T11:00,
 * 2026-07-13 11:00:05).  Returns 0 and stores the time, or -1. */
int logtime_parse_since(const char *arg, logtime_t now, logtime_t *out);

#endif
