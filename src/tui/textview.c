/* Text that scrolls, for the help, the messages and the hosts view:
 * lines from d->view_top, a marker when more is below, and the keys
 * that scroll it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dash_int.h"
#include "textfit.h"
#include "xalloc.h"

void draw_text(struct dash *d, int y0, int height, struct strbuf *text)
{
	const char **lines = xcalloc(text->len + 1, sizeof *lines);
	size_t n = 0;

	for (char *p = text->buf, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		lines[n++] = p;
	}
	draw_lines(d, y0, height, lines, n, TI_TITLE);
	free(lines);
}

/* Lines from d->view_top in height rows; the last row says when more is
 * below.  The scroll stops at the end. */
void draw_lines(struct dash *d, int y0, int height, const char *const *lines,
		size_t n, enum theme_item first_item)
{
	struct tui *t = d->tui;
	int max = n > (size_t)height ? (int)(n - (size_t)height) : 0;

	if (d->view_top > max)
		d->view_top = max;
	if (d->view_top < 0)
		d->view_top = 0;
	size_t from = (size_t)d->view_top;
	int more = n - from > (size_t)height;
	int show = more ? height - 1 : height;
	for (int i = 0; i < show && from + (size_t)i < n; i++)
		tui_text(t, y0 + i, 2, t->cols - 3, lines[from + (size_t)i],
			 from + (size_t)i ? TI_FIX : first_item, 0);
	if (more)
		tui_text(t, y0 + height - 1, 2, t->cols - 3,
			 _(L_MORE_BELOW), TI_STATUS, 0);
}

/* Appends s wrapped to width cells, a line per "\n"-ended piece. */
void wrap_into(struct strbuf *out, const char *s, size_t width)
{
	do {
		size_t n = strcspn(s, "\n");
		struct strbuf piece = STRBUF_INIT;
		sb_add(&piece, s, n);
		const char *p = piece.buf ? piece.buf : "";
		do {
			size_t k = wrap_break(p, width);
			sb_add(out, p, k);
			sb_addc(out, '\n');
			p += k;
			while (*p == ' ')
				p++;
		} while (*p);
		sb_free(&piece);
		s += n + (s[n] == '\n');
	} while (*s);
}

enum dash_action textview_key(struct dash *d, int key)
{
	int page = d->tui->rows / 2;

	switch (key) {
	case 'q': case TK_F(10): return DASH_QUIT;
	case TK_UP: case 'k': d->view_top--; break;
	case TK_DOWN: case 'j': d->view_top++; break;
	case TK_PPAGE: d->view_top -= page; break;
	case TK_NPAGE: case ' ': d->view_top += page; break;
	case TK_HOME: case 'g': d->view_top = 0; break;
	case TK_END: case 'G': d->view_top = 1 << 20; break;
	case TK_RESIZE: break;
	default: d->view = V_MAIN; break;	/* any other key closes it */
	}
	return DASH_REDRAW;
}

