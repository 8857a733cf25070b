/* The texts plogtop shows for each class of incident — a one-line summary
 * and the suggested fix — kept in a message file per language
 * (messages/en.txt), so that a translation is a new file, not new code.
 * Texts are templates: {field} is replaced by the incident's field (or
 * pid, name, code, resource, cause), sanitised; {?field:text} keeps text
 * only when the incident has that field, {!field:text} only when it has
 * not. */
#ifndef PLOGTOP_CATALOG_H
#define PLOGTOP_CATALOG_H

#include "incident.h"
#include "strbuf.h"

struct catalog;

/* Limits on a message file: its size, and how deep templates nest (each
 * level is a level of recursion when rendering). */
#define CATALOG_FILE_MAX (1u << 20)
#define CATALOG_MAX_NESTING 16

/* Loads a message file.  On error returns NULL with "FILE:LINE: what is
 * wrong" in err. */
struct catalog *catalog_load(const char *path, struct strbuf *err);
struct catalog *catalog_load_text(const char *path, const char *text,
				  size_t len, struct strbuf *err);
void catalog_free(struct catalog *cat);

/* The text of key ("summary", "fix", "title") for the incident's class,
 * falling back from code/resource/cause to code/resource/any and then
 * code/any/any (written "*" in the file).
 * Appends the rendered text to out; returns 0, or -1 if there is none. */
int catalog_render(const struct catalog *cat, const char *key,
		   const struct incident *inc, struct strbuf *out);

/* The language its texts are rendered in ("en", "zh_CN"): the
 * translation's, found at load in the locale main() set. */
const char *catalog_lang(const struct catalog *cat);

/* A plain entry of the [ui] section (report headings), or the key itself. */
const char *catalog_text(const struct catalog *cat, const char *key);

/* Checks that every class plogtop can report has a summary and a fix;
 * returns -1 with the first missing one in err. */
int catalog_check_complete(const struct catalog *cat, struct strbuf *err);

#endif
