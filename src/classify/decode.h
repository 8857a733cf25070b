/* Fields derived from what a log printed: device limits a stream_id is
 * close to, and the words for memcpy kinds and memory locations. */
#ifndef PLOGTOP_DECODE_H
#define PLOGTOP_DECODE_H

#include "incident.h"

void decode_incident(struct incident *inc);

#endif
