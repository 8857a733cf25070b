/* The whole reading pipeline on one file of arbitrary bytes, as --once
 * reads it (the follower in one-shot mode: file type, line splitting,
 * records, screen blocks, chains, incidents), then both reports of the
 * model written to /dev/null. */
#ifndef PLOGTOP_TESTS_FUZZ_READER_H
#define PLOGTOP_TESTS_FUZZ_READER_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "follow.h"
#include "fuzz.h"
#include "model.h"
#include "report.h"
#include "rules.h"

static struct ruleset *reader_rules;
static struct catalog *reader_catalog;
static FILE *reader_null;
static char reader_dir[] = "/tmp/plogtop-fuzz.XXXXXX";

static void reader_cleanup(void)
{
	rmdir(reader_dir);
}

static void reader_init(void)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;

	reader_rules = ruleset_new();
	fuzz_data_path(&path, "rules/plogtop.rules");
	if (ruleset_load(reader_rules, path.buf, &err) < 0) {
		fprintf(stderr, "%s\n", err.buf);
		abort();
	}
	fuzz_data_path(&path, "messages/en.txt");
	reader_catalog = catalog_load(path.buf, &err);
	reader_null = fopen("/dev/null", "w");
	if (!reader_catalog || !reader_null || !mkdtemp(reader_dir)) {
		fprintf(stderr, "fuzz set-up: %s %s\n", err.buf,
			strerror(errno));
		abort();
	}
	atexit(reader_cleanup);
	sb_free(&path);
	sb_free(&err);
}

/* Status messages are sanitised: no control byte may be in what the
 * sink keeps (attached: kept as a dashboard would show them). */
static void reader_messages(const struct msglog *log)
{
	for (size_t i = 0; i < log->n; i++)
		for (const unsigned char *p = (const unsigned char *)
		     msglog_get(log, i)->text; *p; p++)
			FUZZ_ASSERT(*p >= 0x20 && *p != 0x7f);
}

/* Reads data as a file called name (its name decides how it is read). */
static void reader_run(const char *name, const uint8_t *data, size_t size)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct msglog log;
	struct follow_opts fo = { .once = 1, .log = &log };
	struct model m;

	msglog_init(&log);
	msglog_attach(&log, 1);

	sb_addf(&path, "%s/%s", reader_dir, name);
	int fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, data, size) == (ssize_t)size);
	close(fd);

	model_init(&m);
	struct follower *fw = follower_new(reader_rules, &m, &fo, &err);
	FUZZ_ASSERT(fw != NULL);
	FUZZ_ASSERT(follower_add(fw, path.buf, 0, &err) == 0);
	follower_start(fw, 0);
	while (follower_history_step(fw, 1000))
		;
	follower_flush(fw);
	follower_free(fw);
	reader_messages(&log);
	msglog_free(&log);
	model_sort(&m);

	struct report_opts ro = {
		.cat = reader_catalog, .host = "fuzz", .version = "0",
		.width = 80,
	};
	FUZZ_ASSERT(report_text(&m, &ro, reader_null) == 0);
	FUZZ_ASSERT(report_json(&m, &ro, reader_null) == 0);
	model_free(&m);
	unlink(path.buf);
	sb_free(&path);
	sb_free(&err);
}

#endif
