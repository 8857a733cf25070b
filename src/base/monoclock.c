#include "config.h"

#include <time.h>
#include <unistd.h>

#include "monoclock.h"

unsigned long long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 +
	       (unsigned long long)ts.tv_nsec / 1000000;
}

double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void local_host_name(char *buf, size_t size)
{
	if (!size)
		return;
	/* gethostname need not terminate a name it truncates. */
	if (gethostname(buf, size - 1) != 0)
		buf[0] = '\0';
	buf[size - 1] = '\0';
}
