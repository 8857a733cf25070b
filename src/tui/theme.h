/* Colour themes: plain-text files of "item foreground background
 * attributes" lines in themes/, installed under $(pkgdatadir)/themes. */
#ifndef PLOGTOP_THEME_H
#define PLOGTOP_THEME_H

#include "strbuf.h"

enum theme_item {
	TI_HEADER, TI_TITLE, TI_TABLE_HEAD, TI_ROW, TI_SELECTED, TI_DEAD,
	TI_COUNT, TI_ZERO, TI_GRAPH, TI_DETAIL_TITLE, TI_FIX, TI_RAW, TI_KEYS,
	TI_STATUS, TI_WARNING, TI_NEW, TI_ITEMS
};

#define TA_BOLD 1u
#define TA_DIM 2u
#define TA_UNDERLINE 4u
#define TA_REVERSE 8u
#define TA_STANDOUT 16u

struct theme_style {
	short fg, bg;		/* -1: the terminal's default; 0..255 */
	unsigned attrs;
};

/* The terminal background a theme is readable on ("background" line). */
enum theme_bg { BG_ANY, BG_DARK, BG_LIGHT };

struct theme {
	char name[64];
	enum theme_bg background;
	struct theme_style item[TI_ITEMS];
};

/* Loads NAME (a file themes/NAME.theme of the data directory) or a FILE
 * (a name with a '/' or ending in .theme) over the default theme: a theme
 * may set only some items.  The default theme must set every item.
 * Returns 0, or -1 with "FILE:LINE: what is wrong" in err. */
int theme_load(const char *name_or_file, struct theme *t, struct strbuf *err);
/* Sets the items TEXT names in *t; with complete, every item must be. */
int theme_parse(const char *path, const char *text, struct theme *t,
		int complete, struct strbuf *err);

/* The largest theme file read (a theme has a line per item). */
#define THEME_FILE_MAX (64u * 1024)

/* The built-in theme names, in the order the t key cycles them. */
extern const char *const theme_names[];
#define THEME_COUNT 4

/* The terminal's background as $COLORFGBG tells ("15;0": dark), else
 * what the theme chosen at start was made for, else dark. */
enum theme_bg theme_terminal_bg(const struct theme *start);
/* The index of the next built-in theme after index `from` that is
 * readable on bg (loaded into *t); -1 when none loads. */
int theme_next(int from, enum theme_bg bg, struct theme *t,
	       struct strbuf *err);

#endif
