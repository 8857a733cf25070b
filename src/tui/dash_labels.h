/* Every text the dashboard shows, in one place, marked with N_() for
 * xgettext (po/plogtop.pot); _() gives the translation where they are
 * used.  Texts with % are formats (gettext's format_arg keeps them
 * checked).  Their widths are terminal cells, whatever the language
 * (textfit.h). */
#ifndef PLOGTOP_DASH_LABELS_H
#define PLOGTOP_DASH_LABELS_H

#include "i18n.h"

#define L_TITLE "plogtop"
#define L_DEMO N_("DEMO (generated logs)")
#define L_PAUSED N_("PAUSED, p resumes")
#define L_FROZEN N_("table frozen at %s, counting goes on")
#define L_WINDOW N_("window %s")
#define L_SINCE N_("since %s")
#define L_INCIDENTS N_("incidents: %zu in 1 min / %zu in 1 h / %zu in all")
#define L_PROCESSES N_("processes %zu")
#define L_FILES N_("files %zu")
#define L_SKIPPED N_("skipped %zu")
#define L_LINES_S N_("lines/s %.0f")
#define L_SORT N_("sort %s")
#define L_REV N_(" (rev)")
#define L_FILTER N_("filter '%s'")
#define L_NO_MATCH N_("No process matches the filter.")
#define L_NONE_YET N_("No EE1023 or EE1001 incident so far.")
#define L_IN_WINDOW N_(" %ld %s: %zu incident in the window, %zu in all ")
#define L_IN_WINDOW_PL N_(" %ld %s: %zu incidents in the window, %zu in all ")
#define L_LATEST N_("Latest: %s, ")
#define L_INCIDENT_N N_("Incident %zu of %zu (] older, [ newer): %s, ")
#define L_REPORTED N_("reported as ")
#define L_NO_CODE N_("no code printed")
#define L_UNKNOWN_TIME N_("unknown time")
#define L_RAW N_("Raw lines (o opens the file in $PAGER):")
#define L_RAW_NOT_KEPT N_("(the raw lines were not kept)")
#define L_FIX N_("What to do (l shows the raw lines):")
#define L_MORE_BELOW N_("-- more below (j or Down) --")
#define L_MORE_ABOVE N_("-- more above --")
#define L_FILTER_PROMPT N_(" filter (pid or name; Enter keeps, Esc clears, " "^U ^W erase): ")
#define L_HELP_CLOSE N_(" Esc, ? or h closes the help; j/k scroll; q quits")
#define L_MESSAGES_TITLE N_("Messages (newest last):")
#define L_MESSAGES_NONE N_("No message so far.")
#define L_MESSAGES_CLOSE N_(" Esc or e closes the messages; j/k scroll")
#define L_SORT_MENU N_("Sort by:")
#define L_SORT_MENU_KEYS N_(" Up/Down choose, Enter sorts, Esc cancels")
#define L_NOTHING_TO_OPEN N_("Nothing to open.")
#define L_TOO_SMALL N_("Terminal too small: %dx%d.")
#define L_TOO_SMALL_NEEDS N_("plogtop needs %dx%d or more.")
#define L_TOO_SMALL_WHAT N_("Enlarge the window, or quit (q) and run " "plogtop --once.")
#define L_READING N_("Reading the history: %zu of %zu files, %.1f of %.1f MB")
#define L_WINDOW_CLASSES N_("In the window (of the %zu incidents kept):")
#define L_ALIVE_YES N_("yes")
#define L_ALIVE_NO N_("no")
#define L_ALIVE_DEMO N_("demo")
#define L_MOUSE_ON N_("mouse on (m turns it off)")
#define L_MOUSE_OFF N_("mouse off (m turns it on)")
#define L_MESSAGE_MORE N_(" (e: all %zu messages)")

/* Hosts read over ssh: the header, v and H. */
#define L_HOSTS_UP N_("hosts %zu/%zu up")
#define L_HOSTS_DOWN N_("down: %s")
#define L_HOSTS_DOWN_MORE N_("down: %s +%zu")
#define L_HOSTS_TITLE N_("Hosts: %zu of %zu up (v: the table by host)")
#define L_HOSTS_CLOSE N_(" Esc or H closes the hosts; j/k scroll")
#define L_HOST_SINCE N_("%s since %s (%s), connections tried %u")
#define L_HOST_COUNTS N_("incidents %zu (EE1023 %zu, EE1001 %zu), processes %zu, latest %s")
#define L_HOST_REFUSED N_("lines refused (too long or not JSON): %zu")
#define L_HOST_WHY N_("why: %s")
#define L_HOST_RETRY N_("next try in %llu s")
#define L_HOST_READ N_("read: %zu files, %zu lines")
#define L_HOST_LOCAL N_("(local)")
#define L_HOST_LOCAL_DETAIL N_("the paths named on this machine")
#define L_STATE_HEAD N_("STATE")
#define L_PROCS_HEAD N_("PROCS")
#define L_NO_HOST_MATCH N_("No host matches the filter.")
#define L_NO_HOSTS N_("No host is read (HOST:PATH, -H or --hosts name some).")
#define L_FILTER_PROMPT_HOST N_(" filter (pid, name or host; Enter keeps, Esc clears, " "^U ^W erase): ")

#endif
