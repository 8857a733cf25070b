/* The one monotonic clock plogtop measures waits and durations with, and
 * the name of the machine it runs on: small facts of the system that
 * several layers need, kept here so that each is asked one way. */
#ifndef PLOGTOP_MONOCLOCK_H
#define PLOGTOP_MONOCLOCK_H

#include <stddef.h>

/* Milliseconds of CLOCK_MONOTONIC: for deadlines and waits. */
unsigned long long monotonic_ms(void);
/* Seconds of CLOCK_MONOTONIC, with fractions: for durations shown. */
double monotonic_seconds(void);
/* This machine's host name in buf (always terminated; "" if unknown). */
void local_host_name(char *buf, size_t size);

#endif
