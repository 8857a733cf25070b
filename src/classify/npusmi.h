/* npu-smi's "info" output, parsed (the text only: running it is
 * src/read/npusmi_run.h's), and the per-device limits of each chip
 * model from the aclrtCreateStream/Event/Notify documents
 * (plog-facts.md section 11). */
#ifndef PLOGTOP_NPUSMI_H
#define PLOGTOP_NPUSMI_H

#include <stddef.h>

#include "taxonomy.h"

#define NPU_MAX 64		/* NPUs (chip rows) kept */
#define NPU_PROCS_MAX 1024	/* process rows kept */

struct npu_chip {
	long npu, chip;		/* the "NPU" and "Chip" numbers; chip -1:
				 * an NPU row without its chip row */
	char name[32];		/* "910B3", "310P3": as printed, cleaned */
};

struct npu_proc {
	long npu, chip;
	long pid;		/* a host pid */
	char name[64];		/* as printed, cleaned */
	long mem_mb;		/* -1 if not said */
};

struct npu_table {
	struct npu_chip chips[NPU_MAX];
	size_t nchips;
	struct npu_proc procs[NPU_PROCS_MAX];
	size_t nprocs;
	/* NPUs that said "No running processes found in NPU N". */
	long idle[NPU_MAX];
	size_t nidle;
};

/* Parses the text (hostile: any bytes); returns 0, or -1 when it is not
 * npu-smi's layout (nothing recognised). */
int npusmi_parse(const char *text, size_t len, struct npu_table *out);

/* The limit of resource r on one device of a chip named like name:
 * returns the limit, or 0 when no document gives one; *about is set
 * when the document is not exact, *family to the documents' name for
 * the chip family ("Atlas A2/A3", ...; untranslated). */
unsigned long npu_limit(const char *name, enum resource r, int *about,
			const char **family);

#endif
