/* The text report's "Devices:" and "Leaks:" sections (plogtop(1),
 * OUTPUT): who is on each device, what fails there and who else holds
 * it (npu-smi), with the guide's checks called out; and each process
 * that leaked.  Given what they show, so that a test can give it by
 * hand. */
#ifndef PLOGTOP_REPORT_DEVICES_H
#define PLOGTOP_REPORT_DEVICES_H

#include <stddef.h>

#include "ident.h"
#include "npusmi.h"
#include "strbuf.h"

/* hosts: name each device's host. */
void report_devices(struct strbuf *sb, const struct device_row *v, size_t n,
		    const struct npu_table *npu, int hosts, size_t width);
/* Leaks listed in text; the rest are counted (JSON lists all). */
#define REPORT_LEAKS_SHOWN 20
/* Returns how many leaks there are (none: nothing appended). */
size_t report_leaks(struct strbuf *sb, const struct ident *const *v,
		    size_t n, int hosts, size_t width);

#endif
