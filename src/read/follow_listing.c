/* --once's listing: a tree's regular files found before the start, each
 * a directory, a name and a size until its turn in the history
 * (follow_history.c makes its tail then), not a tail: a tree of 200,000
 * files is listed in a few MiB.  Below the history and the directories
 * (follow_dirs.c lists into it), with the one spelling of dir/name. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "follow_int.h"
#include "xalloc.h"

/* The listed files' names, end to end in blocks: a name costs its
 * bytes, not an allocation's. */
#define NAME_BLOCK (64 * 1024)
struct name_block {
	struct name_block *next;
	size_t used;
	char s[NAME_BLOCK];
};

/* A compressed copy (X.gz beside X, follow_skip_copies) and an archive
 * keep their tails, which the start's checks look at; so does a file
 * with a resume point, or not read from its start. */
int follow_may_list(const struct follower *fw, const char *name)
{
	return fw->o.once && !fw->started && !fw->o.resume_for &&
	       !fw->o.skip_history && !codec_suffix(name) &&
	       !codec_archive_name(name, strlen(name));
}

static const char *keep_name(struct dirset *ds, const char *name)
{
	size_t len = strlen(name) + 1;	/* a name is below NAME_MAX + 1 */

	if (!ds->names || ds->names->used + len > NAME_BLOCK) {
		struct name_block *b = xmalloc(sizeof *b);
		b->next = ds->names;
		b->used = 0;
		ds->names = b;
	}
	char *s = ds->names->s + ds->names->used;
	memcpy(s, name, len);
	ds->names->used += len;
	return s;
}

void follow_list_file(struct follower *fw, const char *dir,
		      const char *name, size_t root, unsigned long long size)
{
	struct dirset *ds = &fw->ds;

	if (ds->nlisted == ds->caplisted) {
		ds->caplisted = ds->caplisted ? ds->caplisted / 2 * 3 : 1024;
		ds->listed = xrealloc(ds->listed,
				      ds->caplisted * sizeof *ds->listed);
	}
	ds->listed[ds->nlisted++] = (struct listed){
		keep_name(ds, name), dir, size, root };
}

void follow_join(struct strbuf *out, const char *dir, const char *name)
{
	if (strcmp(dir, ".") != 0) {
		sb_adds(out, dir);
		if (out->len && out->buf[out->len - 1] != '/')
			sb_addc(out, '/');
	}
	sb_adds(out, name);
}

const char *follow_listed_path(const struct listed *l, struct strbuf *sb)
{
	sb_reset(sb);
	follow_join(sb, l->dir, l->name);
	return sb_str(sb);
}

/* Only files named alone ask: a few, each a walk of the listing. */
int follow_unlist(struct follower *fw, const char *path, struct listed *out)
{
	struct dirset *ds = &fw->ds;
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (!fw->started && i < ds->nlisted &&
	       strcmp(follow_listed_path(&ds->listed[i], &sb), path) != 0)
		i++;
	sb_free(&sb);
	if (fw->started || i == ds->nlisted)
		return 0;
	*out = ds->listed[i];
	ds->listed[i] = ds->listed[--ds->nlisted];	/* sorted later */
	return 1;
}

void follow_free_listing(struct follower *fw)
{
	struct dirset *ds = &fw->ds;

	while (ds->names) {
		struct name_block *next = ds->names->next;
		free(ds->names);
		ds->names = next;
	}
	free(ds->listed);
	ds->listed = NULL;
	ds->nlisted = ds->caplisted = 0;
}
