/* A class more is a row more.  This program and the whole library under
 * it are built with tests/unit/taxonomy_extra.h included first: the
 * taxonomy with one EE1023 resource (extra, column Xtra) and its cause
 * more, added as a maintainer would add them.  Nothing else was written
 * for it but a rule and a message section (here, as text): the views
 * follow the table. */
#include "config.h"

#include "unit.h"

#include "catalog.h"
#include "dash_int.h"
#include "model.h"
#include "prom.h"
#include "report.h"
#include "rules.h"
#include "xalloc.h"

static struct incident *extras_incident(void)
{
	struct incident *inc = xcalloc(1, sizeof *inc);

	inc->pid = 4242;
	inc->name = xstrdup("python3");
	inc->code = CODE_EE1023;
	inc->resource = RES_EXTRA;
	inc->cause = CAUSE_EXTRAS_CREATED;
	inc->first = inc->last = LOGTIME_UNKNOWN;
	inc->file = "f.log";
	inc->line = 1;
	inc->nlines = 1;
	return inc;
}

/* The table itself: its names, its parents, its counts. */
static void test_the_row_is_a_class(void **state)
{
	(void)state;
	assert_int_equal(NRES, 7);
	assert_int_equal(RES_COLUMN(6), RES_EXTRA);
	assert_int_equal(resource_from_name("extra"), RES_EXTRA);
	assert_string_equal(resource_name(RES_EXTRA), "extra");
	assert_int_equal(code_of_resource(RES_EXTRA), CODE_EE1023);
	assert_int_equal(cause_from_name("extras_created"),
			 CAUSE_EXTRAS_CREATED);
	assert_int_equal(resource_of_cause(CAUSE_EXTRAS_CREATED), RES_EXTRA);
	/* unknown stays last, and stays the fallback. */
	assert_int_equal(resource_from_name("unknown"), RES_UNKNOWN);
	assert_int_equal(RES_UNKNOWN, RES_COUNT - 1);
	assert_int_equal(resource_fallback(CODE_EE1023), RES_UNKNOWN);
	assert_int_equal(cause_from_name("unknown"), CAUSE_COUNT - 1);
}

/* The dashboard: a column Xtra after Arg, sortable as "extra", its
 * counts read from the resource. */
static void test_dashboard_columns(void **state)
{
	(void)state;
	assert_string_equal(columns[C_RES0 + 5].head, "Arg");
	assert_string_equal(columns[C_RES0 + 6].head, "Xtra");
	assert_int_equal(columns[C_RES0 + 6].sort, S_COL0 + 6);
	assert_int_equal(res_columns[6], RES_EXTRA);
	assert_string_equal(sort_names[S_COL0 + 6], "extra");
	assert_string_equal(columns[C_TOTAL].head, "TOTAL");
	for (int c = 0; c < C_COUNT; c++)
		assert_int_equal(columns[c].id, c);
}

/* The rules: a rule may name the class, and lines it matches say so. */
static void on_rule(void *ctx, const struct rule_info *info)
{
	*(struct rule_info *)ctx = *info;
}

static void test_rules_name_it(void **state)
{
	static const char text[] =
		"[rule extras]\n"
		"cause = extras_created\n"
		"weight = 60\n"
		"match = Too many extras\n"
		"sample = Alloc extra failed. Reason: Too many extras.\n";
	struct ruleset *rs = ruleset_new();
	struct strbuf err = STRBUF_INIT;
	struct rule_info info = { 0 };
	(void)state;

	if (ruleset_load_text(rs, "x.rules", text, strlen(text), &err) < 0)
		fail_msg("%s", sb_str(&err));
	const char line[] = "Alloc extra failed. Reason: Too many extras.";
	assert_int_equal(ruleset_match_line(rs, LEVEL_ERROR, line,
					    strlen(line), on_rule, NULL,
					    &info), 1);
	assert_int_equal(info.cause, CAUSE_EXTRAS_CREATED);
	/* Its parent code, from the table: not EE1001. */
	static const char wrong[] =
		"[rule w]\ncode = EE1001\nresource = extra\nmatch = x\n"
		"sample = x\n";
	assert_int_equal(ruleset_load_text(rs, "w.rules", wrong,
					   strlen(wrong), &err), -1);
	assert_non_null(strstr(sb_str(&err), "resource extra belongs to "
				"EE1023"));
	sb_free(&err);
	ruleset_free(rs);
}

/* The messages: the shipped file plus a section for the class. */
static struct catalog *messages(void)
{
	static const char extra[] =
		"\n[EE1023/extra/extras_created]\n"
		"title: too many extras created\n"
		"summary: process {pid} ({name}) could not create an extra\n"
		"fix: Create fewer extras.\n";
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;

	unit_data_path(&path, "messages/en.txt");
	FILE *f = fopen(path.buf, "r");
	assert_non_null(f);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&text, buf, n);
	fclose(f);
	sb_adds(&text, extra);
	struct catalog *cat = catalog_load_text(path.buf, text.buf, text.len,
						&err);
	if (!cat || catalog_check_complete(cat, &err) < 0)
		fail_msg("%s", sb_str(&err));
	sb_free(&path);
	sb_free(&text);
	sb_free(&err);
	return cat;
}

/* The line of the report that starts with start. */
static char *line_of(const char *text, const char *start)
{
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (strncmp(l, start, strlen(start)) == 0)
			return xstrndup(l, len);
		l = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* The --once text report: the heads, the row, the legend, a section. */
static void test_text_report(void **state)
{
	struct model m;
	struct catalog *cat = messages();
	struct report_opts o = { .cat = cat, .version = "0", .width = 80 };
	char *text = NULL;
	size_t len = 0;
	(void)state;

	struct report_sections sections;

	model_init(&m);
	report_sections_init(&sections, &m);
	model_add(&m, extras_incident(), READ_BEFORE);
	model_sort(&m);
	report_sections_sort(&sections);
	o.sections = &sections;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	report_text(&m, &o, f);
	fclose(f);

	char *head = line_of(text, "PID");
	assert_non_null(head);
	/* A seventh column makes the table 85 wide: FIRST drops, first
	 * in report_text.c's order, so that it holds 80. */
	assert_non_null(strstr(head, " TOTAL Strm Ntfy Evnt Acpy Mcpy  Arg "
				"Xtra LAST"));
	char *row = line_of(text, "4242");
	assert_non_null(row);
	assert_non_null(strstr(row, "python3          1    .    .    .    "
				".    .    .    1 "));
	char *legend = line_of(text, "Strm=stream");
	assert_non_null(legend);
	assert_string_equal(legend, "Strm=stream Ntfy=notify Evnt=event "
			    "Acpy=async copy Mcpy=memcpy Arg=argument "
			    "Xtra=extra");
	char *section = line_of(text, "== EE1023 extra");
	assert_non_null(section);
	assert_string_equal(section, "== EE1023 extra / extras_created: too "
			    "many extras created");
	free(head);
	free(row);
	free(legend);
	free(section);
	free(text);
	report_sections_free(&sections);
	model_free(&m);
	catalog_free(cat);
}

/* The prom file: the class's series, with the table's label names. */
static void test_prom_series(void **state)
{
	struct model m;
	struct strbuf out = STRBUF_INIT;
	(void)state;

	struct prom_counts pc;

	model_init(&m);
	prom_counts_init(&pc, &m);
	model_add(&m, extras_incident(), READ_BEFORE);
	prom_render(&out, &m, &pc, 0, 0);
	assert_non_null(strstr(sb_str(&out), "\nplogtop_incidents_total{"
				"code=\"EE1023\",resource=\"extra\","
				"cause=\"extras_created\",process=\"python3\"}"
				" 1\n"));
	sb_free(&out);
	prom_counts_free(&pc);
	model_free(&m);
}

int main(void)
{
	cmocka_set_message_output(CM_OUTPUT_TAP);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_row_is_a_class),
		cmocka_unit_test(test_dashboard_columns),
		cmocka_unit_test(test_rules_name_it),
		cmocka_unit_test(test_text_report),
		cmocka_unit_test(test_prom_series),
	};
	return UNIT_RUN("taxonomy", tests);
}
