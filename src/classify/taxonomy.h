/* The taxonomy: every class of incident plogtop counts (a code, one of
 * its resources, one of that resource's causes), the names every output
 * gives them (JSON, text, prom, the message file's sections, the rules'
 * keys), their column heads and the order they are shown in.  Adding a
 * class is a row here, its rules (rules/plogtop.rules), its messages
 * (messages/en.txt) and its translations (po/zh_CN.po); the enums, the
 * sizes of the arrays counted by class, the columns of the text report
 * and the dashboard and the prom labels all follow from these rows.  A
 * resource with a column is also said in TAXONOMY_COLUMNS_HELP below,
 * and its column must still let the text report fit 80 cells (its
 * widths are report_text.c's).  The order of the rows is the order of
 * the enums and of the columns; state files and remote hosts carry the
 * names, never the numbers, so a row may go where it is best shown.
 *
 * A compile-time table, not data read at start: arrays counted by class
 * (chain.h, model.h, catalog.c) and the dashboard's column table are
 * sized by it, the rules and the message file are checked against it,
 * and xgettext finds the column heads here; a class read at start would
 * still need rules, messages and translations, and would add a way for
 * plogtop to fail before it reads a line. */
#ifndef PLOGTOP_TAXONOMY_H
#define PLOGTOP_TAXONOMY_H

#include <stddef.h>

/* Rows a build may add after the table's own (empty here; the unit test
 * tests/unit/test_taxonomy.c builds everything with one class more). */
#ifndef TAXONOMY_EXTRA_COLUMNS
#define TAXONOMY_EXTRA_COLUMNS(X)
#endif
#ifndef TAXONOMY_EXTRA_CAUSES
#define TAXONOMY_EXTRA_CAUSES(X)
#endif

/* The codes.  X(ID, name, fallback): fallback is the resource an
 * incident of the code gets when no line says which. */
#define TAXONOMY_CODES(X) \
	X(EE1023, "EE1023", UNKNOWN) \
	X(EE1001, "EE1001", ARGUMENT)

/* The resources that have a column, in the order of the columns.
 * X(ID, name, code, head, word, legend): code is the one it belongs
 * to; head the column head (text report, dashboard); word what the
 * dashboard's sort menu calls it; legend its entry in the report's
 * legend line.
 * TRANSLATORS: head is a column head (a column is as wide as its head);
 * translate every head of these columns or none (zh_CN keeps all six
 * short codes, as its texts keep Stream, Notify and Event): a row of
 * heads half translated reads as a mistake.  word a sort key (the
 * dashboard's "sort %s", the s menu); legend says what the head stands
 * for. */
#define TAXONOMY_COLUMNS(X) \
	X(STREAM, "stream", EE1023, N_("Strm"), N_("stream"), \
	  N_("Strm=stream")) \
	X(NOTIFY, "notify", EE1023, N_("Ntfy"), N_("notify"), \
	  N_("Ntfy=notify")) \
	X(EVENT, "event", EE1023, N_("Evnt"), N_("event"), \
	  N_("Evnt=event")) \
	X(ASYNC_COPY, "async_copy", EE1023, N_("Acpy"), N_("async copy"), \
	  N_("Acpy=async copy")) \
	X(MEMCPY, "memcpy", EE1001, N_("Mcpy"), N_("memcpy"), \
	  N_("Mcpy=memcpy")) \
	X(ARGUMENT, "argument", EE1001, N_("Arg"), N_("argument"), \
	  N_("Arg=argument")) \
	TAXONOMY_EXTRA_COLUMNS(X)

/* The dashboard help's sentence on the columns, translated whole (the
 * order of its words is the translator's): a column more is said here
 * too. */
#define TAXONOMY_COLUMNS_HELP \
	N_("Columns: Strm stream, Ntfy notify, Evnt event, Acpy async copy " \
	   "queue (EE1023); Mcpy memcpy kind, Arg other argument (EE1001).")

/* Every resource: those with a column, then those without.  unknown is
 * EE1023's fallback (the log says EE1023 but not which resource: the
 * report counts it only in TOTAL); EE1001's is argument. */
#define TAXONOMY_RESOURCES(X) \
	TAXONOMY_COLUMNS(X) \
	X(UNKNOWN, "unknown", EE1023, NULL, NULL, NULL)

/* The causes, each with the resource it belongs to.  X(ID, name,
 * resource); unknown (the log does not say) belongs to none. */
#define TAXONOMY_CAUSES(X) \
	X(GRAPH_STREAMS, "graph_streams", STREAM) \
	X(STREAMS_CREATED, "streams_created", STREAM) \
	X(GRAPH_CONCURRENCY, "graph_concurrency", NOTIFY) \
	X(NOTIFIES_CREATED, "notifies_created", NOTIFY) \
	X(EVENTS_CREATED, "events_created", EVENT) \
	X(GRAPH_COPY_TASKS, "graph_copy_tasks", ASYNC_COPY) \
	X(KIND_LOCATION_MISMATCH, "kind_location_mismatch", MEMCPY) \
	TAXONOMY_EXTRA_CAUSES(X) \
	X(UNKNOWN, "unknown", NONE)

/* The words for a class's parts, one vocabulary for every output: JSON
 * keys, prom labels, placeholders of the message file, keys of a rule. */
#define TAX_KEY_CODE "code"
#define TAX_KEY_RESOURCE "resource"
#define TAX_KEY_CAUSE "cause"
#define TAX_KEY_PROCESS "process"
/* The prom series of incidents, labelled by the keys above. */
#define TAX_PROM_INCIDENTS "plogtop_incidents_total"
/* A device's label: npu-exporter's name for the NPU, so that a query
 * joins its per-NPU metrics on the node and id; only ever a physical NPU
 * on evidence (no label when there is none: the logged id is "device"). */
#define TAX_KEY_NPU "id"
/* The one label vocabulary of the metrics (issue 17), beside those
 * above.  npu-exporter's names where a label means what its label means
 * (id, pod_name, namespace, container_name), so that a query joins its
 * series per node and NPU; our own for the rest.  "device" is the
 * logical id a process logged (set device, device_id=), "id" the
 * physical NPU only when evidence gives it.  The node is never a label
 * of ours (the scrape's target gives it, relabelled as "node"); "host"
 * only for incidents read from a host over ssh.  "task_id", not "job",
 * for --job and MINDX_TASK_ID: Prometheus owns the job label. */
#define TAX_KEY_DEVICE "device"
#define TAX_KEY_HOST "host"
#define TAX_KEY_NODE "node"
#define TAX_KEY_INSTANCE "instance"
#define TAX_KEY_POD "pod_name"
#define TAX_KEY_NAMESPACE "namespace"
#define TAX_KEY_CONTAINER "container_name"
#define TAX_KEY_PID "pid"
#define TAX_KEY_RANK "rank"
#define TAX_KEY_TASK "task_id"
/* One series per live process, value 1, gone with the process: what an
 * alert on a bounded series leads to. */
#define TAX_PROM_PROCESS_INFO "plogtop_process_info"
/* The prom gauges per device (prom_device.c). */
#define TAX_PROM_DEVICE_HELD "plogtop_device_resources_held"
#define TAX_PROM_DEVICE_FAILING "plogtop_device_failing_processes"

#define TAX_ENUM_CODE(id, ...) CODE_##id,
#define TAX_ENUM_RES(id, ...) RES_##id,
#define TAX_ENUM_CAUSE(id, ...) CAUSE_##id,
#define TAX_ONE(...) + 1

/* NONE (0) is "not said"; COUNT sizes an array indexed by the enum. */
enum code { CODE_NONE, TAXONOMY_CODES(TAX_ENUM_CODE) CODE_COUNT };
enum resource { RES_NONE, TAXONOMY_RESOURCES(TAX_ENUM_RES) RES_COUNT };
enum cause { CAUSE_NONE, TAXONOMY_CAUSES(TAX_ENUM_CAUSE) CAUSE_COUNT };

/* The resource columns: column i shows resource RES_COLUMN(i). */
#define NRES (0 TAXONOMY_COLUMNS(TAX_ONE))
#define RES_COLUMN(i) ((enum resource)(RES_NONE + 1 + (i)))

/* What names a class of incident: a code, a resource and a cause. */
struct class_key {
	enum code code;
	enum resource resource;
	enum cause cause;
};

/* Orders classes by code, then resource, then cause (the table's
 * order); 0 when they are the same class. */
int class_key_cmp(const struct class_key *a, const struct class_key *b);

const char *code_name(enum code c);
const char *resource_name(enum resource r);
const char *cause_name(enum cause c);
/* NONE when the name is none of the table's ("" included). */
enum code code_from_name(const char *s);
enum resource resource_from_name(const char *s);
enum cause cause_from_name(const char *s);

/* The code a resource belongs to (CODE_NONE for RES_NONE). */
enum code code_of_resource(enum resource r);
/* The resource a cause belongs to (RES_NONE for CAUSE_UNKNOWN). */
enum resource resource_of_cause(enum cause c);
/* The resource an incident of the code gets when nothing says which. */
enum resource resource_fallback(enum code c);

/* For a resource with a column: its head, its word in the sort menu and
 * its legend entry, untranslated (N_); NULL for the others. */
const char *resource_head(enum resource r);
const char *resource_word(enum resource r);
const char *resource_legend(enum resource r);

/* The best of the codes, by the weight of the evidence for each (w[c]
 * for code c): the heaviest, the earlier row on a tie, CODE_NONE when
 * none has any.  *weight (if not NULL) gets its weight. */
enum code code_heaviest(const int w[CODE_COUNT], int *weight);

#endif
