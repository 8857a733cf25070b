/* Every text the dashboard shows, in one place: a translation (issue 10)
 * marks these with N_() and tr() looks them up; the code only names
 * them.  Texts with % are formats (tr keeps them checked). */
#ifndef PLOGTOP_DASH_LABELS_H
#define PLOGTOP_DASH_LABELS_H

#define L_TITLE "plogtop"
#define L_DEMO "DEMO (generated logs)"
#define L_PAUSED "PAUSED, p resumes"
#define L_FROZEN "table frozen at %s, counting goes on"
#define L_WINDOW "window %s"
#define L_SINCE "since %s"
#define L_INCIDENTS "incidents: %zu in 1 min / %zu in 1 h / %zu in all"
#define L_PROCESSES "processes %zu"
#define L_FILES "files %zu"
#define L_SKIPPED "skipped %zu"
#define L_LINES_S "lines/s %.0f"
#define L_SORT "sort %s"
#define L_REV " (rev)"
#define L_FILTER "filter '%s'"
#define L_NO_MATCH "No process matches the filter."
#define L_NONE_YET "No EE1023 or EE1001 incident so far."
#define L_IN_WINDOW " %ld %s: %zu incident%s in the window, %zu in all "
#define L_LATEST "Latest: %s, "
#define L_INCIDENT_N "Incident %zu of %zu (] older, [ newer): %s, "
#define L_REPORTED "reported as "
#define L_NO_CODE "no code printed"
#define L_UNKNOWN_TIME "unknown time"
#define L_RAW "Raw lines (o opens the file in $PAGER):"
#define L_RAW_NOT_KEPT "(the raw lines were not kept)"
#define L_FIX "What to do (l shows the raw lines):"
#define L_MORE_BELOW "-- more below (j or Down) --"
#define L_MORE_ABOVE "-- more above --"
#define L_FILTER_PROMPT " filter (pid or name; Enter keeps, Esc clears, " "^U ^W erase): "
#define L_HELP_CLOSE " Esc, ? or h closes the help; j/k scroll; q quits"
#define L_MESSAGES_TITLE "Messages (newest last):"
#define L_MESSAGES_NONE "No message so far."
#define L_MESSAGES_CLOSE " Esc or e closes the messages; j/k scroll"
#define L_SORT_MENU "Sort by:"
#define L_SORT_MENU_KEYS " Up/Down choose, Enter sorts, Esc cancels"
#define L_NOTHING_TO_OPEN "Nothing to open."
#define L_TOO_SMALL "Terminal too small: %dx%d."
#define L_TOO_SMALL_NEEDS "plogtop needs %dx%d or more."
#define L_TOO_SMALL_WHAT "Enlarge the window, or quit (q) and run " "plogtop --once."
#define L_READING "Reading the history: %zu of %zu files, %.1f of %.1f MB"
#define L_WINDOW_CLASSES "In the window (of the %zu incidents kept):"
#define L_ALIVE_YES "yes"
#define L_ALIVE_NO "no"
#define L_ALIVE_DEMO "demo"
#define L_MOUSE_ON "mouse on (m turns it off)"
#define L_MOUSE_OFF "mouse off (m turns it on)"
#define L_MESSAGE_MORE " (e: all %zu messages)"

/* The text shown for a label: the label itself until translations come. */
const char *tr(const char *msgid) __attribute__((format_arg(1)));

#endif
