#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/* A field a rule captured itself is left as it is. */
static void set(struct incident *inc, const char *key, const char *value)
{
	if (!incident_field(inc, key))
		incident_set_field(inc, key, value, strlen(value));
}

static int number(const char *s, long *out)
{
	char *end;

	if (!s || !*s)
		return 0;
	*out = strtol(s, &end, 10);
	return *end == '\0';
}

/* Per-device stream limits: 1024 (310P), 1984 (A2/A3/950), 2048 (Atlas
 * training).  Ids are handed out from the bottom, so an id just under a
 * limit means the process holds nearly all of them. */
static void decode_stream_limit(struct incident *inc)
{
	static const long limits[] = { 1024, 1984, 2048 };
	long id;

	if (!number(incident_field(inc, "stream_id"), &id))
		return;
	for (size_t i = 0; i < 3; i++) {
		if (id < limits[i] && id >= limits[i] - 32) {
			char buf[16];
			snprintf(buf, sizeof buf, "%ld", limits[i]);
			set(inc, "stream_limit", buf);
			return;
		}
	}
}

struct kind_words {
	const char *name, *src, *dst;
};

/* The runtime's rtMemcpyKind numbering. */
static const struct kind_words kinds[] = {
	{ "host to host", "host", "host" },
	{ "host to device", "host", "device" },
	{ "device to host", "device", "host" },
	{ "device to device", "device", "device" },
	{ "managed memory", NULL, NULL },
	{ "device to device by address", "device", "device" },
	{ "host to device (extended)", "host", "device" },
	{ "device to host (extended)", "device", "host" },
	{ "default (chosen by address)", NULL, NULL },
};

/* loc type numbering changed between releases: CANN documentation of
 * 2024 says 1 host, 2 device, 3 SVM, 4 DVPP; the current runtime says
 * 0 host, 1 device, 2 unregistered, 3 managed, 4 host NUMA.  A 0 can only
 * be the current numbering; otherwise the older logs that print numbers
 * are read with the older table, and the field says which was used. */
static const char *const loc_2024[] = { NULL, "host", "device", "svm", "dvpp" };
static const char *const loc_now[] = {
	"host", "device", "unregistered", "managed", "host_numa"
};

/* New releases print the kind's name: RT_MEMCPY_HOST_TO_DEVICE or
 * ACL_MEMCPY_HOST_TO_DEVICE; the same four directions as 0..3. */
static long kind_from_name(const char *s)
{
	static const char *const dirs[] = {
		"HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST",
		"DEVICE_TO_DEVICE"
	};
	const char *tail = s ? strstr(s, "MEMCPY_") : NULL;

	if (!tail)
		return -1;
	tail += strlen("MEMCPY_");
	for (long i = 0; i < 4; i++)
		if (strcmp(tail, dirs[i]) == 0)
			return i;
	return -1;
}

static void decode_memcpy(struct incident *inc)
{
	long kind, src, dst;
	const char *ks = incident_field(inc, "kind");

	if (!number(ks, &kind))
		kind = kind_from_name(ks);
	if (kind >= 0 && kind <= 8) {
		const struct kind_words *k = &kinds[kind];
		set(inc, "kind_name", k->name);
		if (k->src) {
			set(inc, "expected_src", k->src);
			set(inc, "expected_dst", k->dst);
		}
	}
	if (!number(incident_field(inc, "src_loc"), &src) ||
	    !number(incident_field(inc, "dst_loc"), &dst) || src < 0 ||
	    dst < 0 || src > 4 || dst > 4) {
		/* New releases print names: they are the words already. */
		const char *s = incident_field(inc, "src_loc");
		const char *d = incident_field(inc, "dst_loc");
		if (s && d && !number(s, &src)) {
			set(inc, "src_loc_name", s);
			set(inc, "dst_loc_name", d);
		}
	} else {
		int now = src == 0 || dst == 0;
		const char *const *t = now ? loc_now : loc_2024;
		set(inc, "src_loc_name", t[src]);
		set(inc, "dst_loc_name", t[dst]);
		set(inc, "loc_numbering", now ? "runtime-current"
					      : "cann-2024-doc");
	}
	const char *es = incident_field(inc, "expected_src");
	const char *ed = incident_field(inc, "expected_dst");
	const char *sn = incident_field(inc, "src_loc_name");
	const char *dn = incident_field(inc, "dst_loc_name");
	if (es && sn && strcmp(es, sn) != 0)
		set(inc, "src_mismatch", "yes");
	if (ed && dn && strcmp(ed, dn) != 0)
		set(inc, "dst_mismatch", "yes");
}

void decode_incident(struct incident *inc)
{
	decode_stream_limit(inc);
	if (inc->resource == RES_MEMCPY)
		decode_memcpy(inc);
}
