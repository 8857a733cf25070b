/* The live modes' state, shared by the loop (live.c) and the dashboard's
 * side of it (live_dash.c: drawing, keys, themes, the pager). */
#ifndef PLOGTOP_LIVE_INT_H
#define PLOGTOP_LIVE_INT_H

#include <signal.h>

#include "catalog.h"
#include "dash.h"
#include "exec_hook.h"
#include "demo.h"
#include "fleet.h"
#include "follow.h"
#include "httpd.h"
#include "model.h"
#include "msglog.h"
#include "npusmi_run.h"
#include "options.h"
#include "prom.h"
#include "state_positions.h"
#include "strbuf.h"
#include "stream.h"
#include "theme.h"
#include "tui.h"

struct live {
	const struct options *o;
	const struct catalog *cat;
	struct model m;
	struct prom_counts prom;	/* the prom file's, a view of m */
	struct follower *fw;
	struct fleet *fleet;	/* hosts read over ssh, or NULL */
	struct npusmi_run *npu;	/* npu-smi info, or NULL (npusmi_run.h) */
	struct exec_hook *exec;	/* --exec, or NULL (exec_hook.h) */
	char host[256];
	int stop;		/* the output was closed, or a write failed */
	unsigned long long prom_gen, prom_at;
	unsigned long long prom_heartbeat_ms;	/* rewritten at least this often */
	unsigned long long prom_first_by;	/* the first write, at the latest */
	int prom_written;
	/* A prom file that cannot be written is tried again every interval;
	 * after --prom-retry plogtop gives up and exits 2, so that a service
	 * manager or a monitor sees it. */
	int prom_failed, prom_gave_up;
	unsigned long long prom_failed_at;
	int failed;		/* an error that ends plogtop was said: exit 2 */
	/* the dashboard */
	int dashboard;
	struct tui tui;
	struct dash *dash;
	struct theme theme, mono;
	int theme_index;
	unsigned long long drawn_at;
	struct strbuf roots;
	struct msglog log;	/* the one sink of messages */
	enum theme_bg bg;	/* the terminal's, for the t key */
	struct demo *demo;
	sigset_t old_mask;
	/* --state and the --hello stream's cursor lines (live_state.c). */
	struct posset resume;	/* the positions started from */
	int state_lock;		/* held on FILE.lock while it runs, or -1 */
	unsigned long long state_gen, state_at, state_every;
	int state_written, state_failed;
	struct strbuf state_err;
	unsigned long long cursor_gen, cursor_at;
	/* --hello: what the identity lines said of each identity. */
	struct stream_sent sent;
	/* --listen (live_listen.c): the server, or NULL. */
	struct httpd *httpd;
	struct httpd_users users;
	struct httpd_counts listen_said;
	unsigned long long listen_said_at, listen_tick_at;
};

/* live_state.c */
/* Loads the state and the cursor; -1 when plogtop must not start. */
int live_state_start(struct live *lv);
/* Writes the state when due (force: now); and a cursor line. */
void live_state_write(struct live *lv, unsigned long long now, int force);
void live_cursor_write(struct live *lv, unsigned long long now, int force);
int live_state_timeout(const struct live *lv, unsigned long long now);
void live_state_free(struct live *lv);

/* live_listen.c */
/* Starts serving /metrics (--listen); -1 when plogtop must not start. */
int live_listen_start(struct live *lv);
/* The metrics' text, served from now on. */
void live_listen_publish(struct live *lv, const struct strbuf *text);
void live_listen_step(struct live *lv, unsigned long long now);
int live_listen_timeout(const struct live *lv, unsigned long long now);
void live_listen_stop(struct live *lv);

/* live_dash.c */
void live_draw(struct live *lv, unsigned long long now);
void live_keys(struct live *lv, unsigned long long now);
int live_draw_timeout(const struct live *lv, unsigned long long now);
int live_start_dashboard(struct live *lv, struct strbuf *err);
void live_stop_dashboard(struct live *lv);

#endif
