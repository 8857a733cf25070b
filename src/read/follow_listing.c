/* --once's listing: a tree's regular files found before the start, each
 * a directory, a name and a size until its turn in the history
 * (follow_history.c makes its tail then), not a tail: a tree of 200,000
 * files is listed in a few MiB.  Below the history and the directories
 * (follow_dirs.c lists into it), with the one spelling of dir/name. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "codec.h"
#include "follow_int.h"
#include "xalloc.h"

/* The listed files' names, end to end in blocks: a name costs its
 * bytes, not an allocation's.  A block is mapped on its own, so that it
 * goes back to the system as soon as its names are copied into a plan
 * (follow_listed_to_plan), while the plan's paths are written: a heap's
 * free chunks would stay resident beside them. */
#define NAME_BLOCK (64 * 1024)
struct name_block {
	struct name_block *next;
	size_t used;
	size_t live;		/* names not yet copied into a plan */
	int mapped;		/* 0: malloc's (mmap failed) */
	char s[NAME_BLOCK - 3 * sizeof(size_t) - sizeof(void *)];
};

static struct name_block *new_block(void)
{
	struct name_block *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (b == MAP_FAILED) {
		b = xmalloc(sizeof *b);
		b->mapped = 0;
	} else {
		b->mapped = 1;
	}
	b->used = b->live = 0;
	return b;
}

static void free_block(struct name_block *b)
{
	if (!b->mapped)
		free(b);
	else if (munmap(b, sizeof *b) < 0)
		abort();	/* a block of our own, its own size */
}

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

	if (!ds->names || ds->names->used + len > sizeof ds->names->s) {
		struct name_block *b = new_block();
		b->next = ds->names;
		ds->names = b;
	}
	char *s = ds->names->s + ds->names->used;
	memcpy(s, name, len);
	ds->names->used += len;
	ds->names->live++;
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
	if (!l->dir)
		return l->name;	/* its plan's path (follow_listed_to_plan) */
	sb_reset(sb);
	follow_join(sb, l->dir, l->name);
	return sb_str(sb);
}

/* The listing grew by half each time: at the start its room is cut to
 * what it holds (a third of it, at worst, goes back), before the orders
 * that point into it are made. */
void follow_fit_listing(struct follower *fw)
{
	struct dirset *ds = &fw->ds;

	if (ds->nlisted && ds->nlisted < ds->caplisted) {
		ds->listed = xrealloc(ds->listed,
				      ds->nlisted * sizeof *ds->listed);
		ds->caplisted = ds->nlisted;
	}
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

/* Where the block holding name is linked: most often where the last
 * name's is (a listing's names are copied in the order they were
 * listed; only a file named alone, taken out, moved one). */
static struct name_block **block_of(struct dirset *ds, const char *name,
				    struct name_block **last)
{
	struct name_block **at = last;

	if (at && *at && name >= (*at)->s && name < (*at)->s + (*at)->used)
		return at;
	for (at = &ds->names; *at && !(name >= (*at)->s &&
				       name < (*at)->s + (*at)->used);
	     at = &(*at)->next)
		;
	return at;
}

char *follow_listed_to_plan(struct follower *fw, char *at)
{
	struct dirset *ds = &fw->ds;
	struct strbuf sb = STRBUF_INIT;
	struct name_block **last = NULL;

	for (size_t i = 0; i < ds->nlisted; i++) {
		struct listed *l = &ds->listed[i];
		if (!l->dir)
			continue;
		const char *p = follow_listed_path(l, &sb);
		size_t len = strlen(p) + 1;
		last = block_of(ds, l->name, last);
		memcpy(at, p, len);
		l->name = at;
		l->dir = NULL;
		at += len;
		struct name_block *b = *last;
		if (b && !--b->live) {
			*last = b->next;
			free_block(b);
			last = NULL;
		}
	}
	sb_free(&sb);
	return at;
}

void follow_free_listing(struct follower *fw)
{
	struct dirset *ds = &fw->ds;

	while (ds->names) {
		struct name_block *next = ds->names->next;
		free_block(ds->names);
		ds->names = next;
	}
	free(ds->listed);
	ds->listed = NULL;
	ds->nlisted = ds->caplisted = 0;
}
