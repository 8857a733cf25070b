/* The texts of the tables' cells that are more than a number: the time
 * of the latest incident, and the trend as a sparkline. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dash_int.h"

void day_time(char *buf, size_t n, logtime_t t)
{
	char iso[LOGTIME_ISO_LEN], today[LOGTIME_ISO_LEN];

	if (t == LOGTIME_UNKNOWN) {
		snprintf(buf, n, "-");
		return;
	}
	logtime_iso(t, iso);
	logtime_iso(logtime_now(), today);
	if (strncmp(iso, today, 10) == 0)
		snprintf(buf, n, "%.8s", iso + 11);
	else
		snprintf(buf, n, "%.5s %.5s", iso + 5, iso + 11);
}

void trend_text(const struct tui *t, const unsigned *trend,
		struct strbuf *sb)
{
	unsigned max = 1;

	for (int i = 0; i < TREND_MINUTES; i++)
		if (trend[i] > max)
			max = trend[i];
	for (int i = 0; i < TREND_MINUTES; i++)
		sb_adds(sb, tui_spark(t, trend[i]
			? 1 + (int)(7 * trend[i] / max) : 0));
}
