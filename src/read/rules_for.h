/* The rules plogtop runs with: the built-in file (or a data
 * directory's), then each --rules file.  Every reader loads its own
 * (a ruleset's match data is not shared between threads). */
#ifndef PLOGTOP_RULES_FOR_H
#define PLOGTOP_RULES_FOR_H

#include "options.h"
#include "rules.h"
#include "strbuf.h"

struct ruleset *rules_for(const struct options *o, struct strbuf *err);

#endif
