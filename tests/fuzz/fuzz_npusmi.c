/* npu-smi's info text (npusmi_parse): any bytes give a table within its
 * bounds whose names are printable ASCII, NUL-terminated, and whose
 * numbers are in range; every chip name found gives a limit lookup
 * that never fails. */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "npusmi.h"
#include "xalloc.h"

static void check_name(const char *s, size_t size)
{
	size_t n = strnlen(s, size);

	FUZZ_ASSERT(n < size);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(s[i] > 0x20 && s[i] < 0x7f && s[i] != '\\');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct npu_table t;
	int rc = npusmi_parse((const char *)data, size, &t);

	FUZZ_ASSERT(rc == 0 || rc == -1);
	FUZZ_ASSERT(t.nchips <= NPU_MAX && t.nprocs <= NPU_PROCS_MAX &&
		    t.nidle <= NPU_MAX);
	for (size_t i = 0; i < t.nchips; i++) {
		int about;
		const char *family;
		check_name(t.chips[i].name, sizeof t.chips[i].name);
		FUZZ_ASSERT(t.chips[i].npu >= 0 && t.chips[i].chip >= -1);
		unsigned long lim = npu_limit(t.chips[i].name, RES_STREAM,
					      &about, &family);
		FUZZ_ASSERT(lim == 0 || family != NULL);
	}
	for (size_t i = 0; i < t.nprocs; i++) {
		check_name(t.procs[i].name, sizeof t.procs[i].name);
		FUZZ_ASSERT(t.procs[i].pid > 0 && t.procs[i].npu >= 0 &&
			    t.procs[i].chip >= 0 && t.procs[i].mem_mb >= -1);
	}
	return 0;
}
