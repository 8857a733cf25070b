/* npu-smi's "info" output and the chips' limits (npusmi.h).
 *
 * The layout (plog-facts.md section 11): a chip table whose header is two
 * rows, "| NPU Name | Health | Power(W) Temp(C) Hugepages-Usage(page) |"
 * over "| Chip | Bus-Id | AICore(%) Memory-Usage(MB) HBM-Usage(MB) |",
 * then two rows per NPU: "| 0  910B3 | OK | ..." (its number and chip
 * name) over "| 0  | 0000:C1:00.0 | ..." (its chip number; a card with
 * several chips, as a 310P Duo, repeats the pair or gives several chip
 * rows: each chip row takes the NPU row above it).  Then the process
 * table, "| NPU Chip | Process id | Process name | Process memory(MB) |",
 * with rows "| 0 0 | 124528 | python3.8 | 17400 |" and "| No running
 * processes found in NPU 0 |".
 *
 * Everything is hostile: a line longer than NPUSMI_LINE_MAX is not
 * parsed, numbers are digits only and bounded, names keep printable
 * ASCII only ('?' for the rest) and are cut to their field; at most
 * NPU_MAX chips and NPU_PROCS_MAX processes are kept (the rest are not,
 * and nothing else grows). */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "npusmi.h"

#define NPUSMI_LINE_MAX 4096	/* a longer line is not a table row */
#define NPUSMI_CELLS 8		/* cells of a row looked at */
#define NPU_NUMBER_MAX 1000000L	/* an NPU, chip or device number */
#define NPU_PID_MAX 4194304L	/* the kernel's PID_MAX_LIMIT */
#define NPU_MEM_MAX 100000000L	/* MB */

struct cell {
	const char *s;
	size_t n;
};

enum section { SEC_NONE, SEC_CHIPS, SEC_PROCS };

struct parse {
	struct npu_table *t;
	enum section sec;
	int seen;			/* a header was recognised */
	long npu;			/* the NPU row above, or -1 */
	char name[sizeof ((struct npu_chip *)0)->name];
	int pending;			/* an NPU row with no chip row yet */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static struct cell trim(const char *s, size_t n)
{
	while (n && is_space(*s))
		s++, n--;
	while (n && is_space(s[n - 1]))
		n--;
	return (struct cell){ s, n };
}

/* The cells between the '|' of a row; 0 when it is not a row. */
static size_t split_row(const char *s, size_t n, struct cell *c, size_t max)
{
	struct cell line = trim(s, n);
	size_t k = 0;

	if (line.n < 2 || line.s[0] != '|')
		return 0;
	const char *p = line.s + 1, *end = line.s + line.n;
	while (p < end && k < max) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		if (!bar)
			break;	/* text after the last '|' is not a cell */
		c[k++] = trim(p, (size_t)(bar - p));
		p = bar + 1;
	}
	return k;
}

/* The first word of c, and what follows it. */
static struct cell word(struct cell *c)
{
	struct cell w = trim(c->s, c->n);
	size_t i = 0;

	while (i < w.n && !is_space(w.s[i]))
		i++;
	*c = trim(w.s + i, w.n - i);
	return (struct cell){ w.s, i };
}

/* Digits only, at most max; -1 otherwise. */
static long number(struct cell c, long max)
{
	long v = 0;

	if (!c.n || c.n > 10)
		return -1;
	for (size_t i = 0; i < c.n; i++) {
		if (c.s[i] < '0' || c.s[i] > '9')
			return -1;
		v = v * 10 + (c.s[i] - '0');
	}
	return v <= max ? v : -1;
}

/* Printable ASCII but '|' and '\\' kept, '?' for the rest, cut to the
 * field (its NUL included). */
static void clean_name(char *out, size_t size, struct cell c)
{
	size_t n = c.n < size - 1 ? c.n : size - 1;

	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)c.s[i];
		out[i] = b > 0x20 && b < 0x7f && b != '\\' ? (char)b : '?';
	}
	out[n] = '\0';
}

static int has_word(struct cell c, const char *w)
{
	size_t n = strlen(w);

	for (size_t i = 0; i + n <= c.n; i++)
		if (strncasecmp(c.s + i, w, n) == 0)
			return 1;
	return 0;
}

static void add_chip(struct parse *ps, long chip)
{
	struct npu_table *t = ps->t;

	ps->pending = 0;
	if (t->nchips >= NPU_MAX)
		return;
	struct npu_chip *c = &t->chips[t->nchips++];
	c->npu = ps->npu;
	c->chip = chip;
	memcpy(c->name, ps->name, sizeof c->name);
}

/* A row of the chip table: an NPU row or a chip row. */
static void chip_row(struct parse *ps, const struct cell *c, size_t k)
{
	struct cell first = c[0];
	long n = number(word(&first), NPU_NUMBER_MAX);
	struct cell second = word(&first);

	if (n < 0 || k < 2)
		return;		/* a header's second row, or not ours */
	/* "0  910B3 | OK": an NPU and its chip's name; a chip row's
	 * second cell is a Bus-Id ("0000:C1:00.0"). */
	if (second.n && (number(second, NPU_NUMBER_MAX) < 0 ||
			 (!memchr(c[1].s, ':', c[1].n) &&
			  !(c[1].n == 2 && strncmp(c[1].s, "NA", 2) == 0)))) {
		if (ps->pending)
			add_chip(ps, -1);
		ps->npu = n;
		clean_name(ps->name, sizeof ps->name, second);
		ps->pending = 1;
	} else if (ps->npu >= 0) {
		/* "0" or "0  0" (chip, device): a chip of the NPU above. */
		add_chip(ps, n);
	}
}

static void proc_row(struct parse *ps, const struct cell *c, size_t k)
{
	struct npu_table *t = ps->t;
	static const char idle[] = "No running processes found in NPU";

	if (k >= 1 && c[0].n > sizeof idle - 1 &&
	    strncasecmp(c[0].s, idle, sizeof idle - 1) == 0) {
		struct cell rest = { c[0].s + sizeof idle - 1,
				     c[0].n - (sizeof idle - 1) };
		long npu = number(trim(rest.s, rest.n), NPU_NUMBER_MAX);
		if (npu >= 0 && t->nidle < NPU_MAX)
			t->idle[t->nidle++] = npu;
		return;
	}
	if (k < 3)
		return;
	struct cell first = c[0];
	long npu = number(word(&first), NPU_NUMBER_MAX);
	long chip = first.n ? number(word(&first), NPU_NUMBER_MAX) : 0;
	long pid = number(c[1], NPU_PID_MAX);
	if (npu < 0 || chip < 0 || pid <= 0 || first.n || !c[2].n ||
	    t->nprocs >= NPU_PROCS_MAX)
		return;
	struct npu_proc *p = &t->procs[t->nprocs++];
	*p = (struct npu_proc){ .npu = npu, .chip = chip, .pid = pid,
				.mem_mb = k >= 4 ? number(c[3], NPU_MEM_MAX)
						 : -1 };
	clean_name(p->name, sizeof p->name, c[2]);
}

static void row(struct parse *ps, const char *s, size_t n)
{
	struct cell c[NPUSMI_CELLS];
	size_t k = split_row(s, n, c, NPUSMI_CELLS);

	if (!k)
		return;		/* a separator, a title, not a row */
	if (k >= 2 && has_word(c[0], "NPU") && has_word(c[0], "Name")) {
		ps->sec = SEC_CHIPS;
		ps->seen = 1;
		return;
	}
	if (k >= 3 && has_word(c[1], "Process id")) {
		if (ps->pending)
			add_chip(ps, -1);
		ps->sec = SEC_PROCS;
		ps->seen = 1;
		return;
	}
	if (ps->sec == SEC_CHIPS)
		chip_row(ps, c, k);
	else if (ps->sec == SEC_PROCS)
		proc_row(ps, c, k);
}

int npusmi_parse(const char *text, size_t len, struct npu_table *out)
{
	struct parse ps = { .t = out, .npu = -1 };
	const char *p = text, *end = text + len;

	memset(out, 0, sizeof *out);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n <= NPUSMI_LINE_MAX && !memchr(p, '\0', n))
			row(&ps, p, n);
		p += n + (nl != NULL);
	}
	if (ps.pending)
		add_chip(&ps, -1);
	return ps.seen ? 0 : -1;
}

/* ---- the limits ---- */

/* The families of the aclrtCreateStream, aclrtCreateEventWithFlag (and
 * aclrtRecordEvent) and aclrtCreateNotify documents, with their
 * per-device limits (plog-facts.md section 11). */
enum family { FAM_A2A3, FAM_TRAINING, FAM_INFERENCE, FAM_200I500A2,
	      FAM_350, FAM_NONE };

static const struct {
	const char *name;	/* the documents' name, untranslated */
	unsigned long stream, notify, event;
} families[] = {
	[FAM_A2A3] = { "Atlas A2/A3", 1984, 8192, 65536 },
	[FAM_TRAINING] = { "Atlas training", 2048, 1024, 65535 },
	[FAM_INFERENCE] = { "Atlas inference", 1024, 1024, 1023 },
	[FAM_200I500A2] = { "Atlas 200I/500 A2", 512, 2048, 65536 },
	[FAM_350] = { "Atlas 350", 1984, 65535, 65536 },
};

/* From npu-smi's chip name to the documents' family.  The documents name
 * products, not chips, so this table is ours; where the name alone does
 * not settle it, about is 1:
 *   910B1..910B4 (910B and a digit)     Atlas A2 training/inference
 *   910_93*  (910_9391, 910_9382, ...)  Atlas A3
 *   910A, 910ProA, 910ProB, 910PremiumA Atlas training (the first 910)
 *   910B alone, 910 alone               Atlas training, about: older
 *                                       npu-smi printed 910 Pro B so
 *   310P*    (310P1, 310P3)             Atlas inference (300I, 300V)
 *   310B*    (310B1, 310B4)             Atlas 200I/500 A2
 *   350*                                Atlas 350, about: no npu-smi
 *                                       output of it is at hand
 * An "Ascend" before the name is skipped; case does not matter.  Any
 * other name (310 of the first Atlas 200/300) has no limit here. */
static enum family family_of(const char *name, int *about)
{
	*about = 0;
	if (strncasecmp(name, "Ascend", 6) == 0)
		name += 6;
	while (*name == ' ' || *name == '-' || *name == '_')
		name++;
	if (strncasecmp(name, "910B", 4) == 0 && name[4] >= '0' &&
	    name[4] <= '9')
		return FAM_A2A3;
	if (strncmp(name, "910_93", 6) == 0)
		return FAM_A2A3;
	if (strcasecmp(name, "910A") == 0 || strcasecmp(name, "910ProA") == 0 ||
	    strcasecmp(name, "910ProB") == 0 ||
	    strcasecmp(name, "910PremiumA") == 0)
		return FAM_TRAINING;
	if (strcasecmp(name, "910B") == 0 || strcmp(name, "910") == 0) {
		*about = 1;
		return FAM_TRAINING;
	}
	if (strncasecmp(name, "310P", 4) == 0)
		return FAM_INFERENCE;
	if (strncasecmp(name, "310B", 4) == 0)
		return FAM_200I500A2;
	if (strncmp(name, "350", 3) == 0) {
		*about = 1;
		return FAM_350;
	}
	return FAM_NONE;
}

unsigned long npu_limit(const char *name, enum resource r, int *about,
			const char **family)
{
	enum family f = name ? family_of(name, about) : FAM_NONE;

	*family = NULL;
	if (f == FAM_NONE) {
		*about = 0;
		return 0;
	}
	*family = families[f].name;
	switch (r) {
	case RES_STREAM:
		return families[f].stream;
	case RES_NOTIFY:
		return families[f].notify;
	case RES_EVENT:
		return families[f].event;
	default:
		*about = 0;
		return 0;
	}
}
