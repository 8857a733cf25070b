/* The text report's sections: one per class, with its count, its example
 * (the first of the class in model_incident_cmp's order, whose raw lines
 * the report shows) and the processes it hit.  A view of the model
 * (model_watch) that only the text report needs: the model keeps none of
 * it. */
#ifndef PLOGTOP_REPORT_SECTIONS_H
#define PLOGTOP_REPORT_SECTIONS_H

#include <stddef.h>

#include "model.h"

struct section {
	struct class_key k;
	size_t n;
	struct incident *example;	/* keeps its raw lines */
	/* Set by report_sections_sort: the processes hit, in the order
	 * first hit. */
	struct process **procs;
	size_t nprocs;
};

struct report_sections {
	struct model *m;
	struct section *v;
	size_t n;
};

/* Watches m from now on. */
void report_sections_init(struct report_sections *rs, struct model *m);
/* Sections by count, most first, each with the processes it hit. */
void report_sections_sort(struct report_sections *rs);
/* Stops watching, and gives the examples back to the model. */
void report_sections_free(struct report_sections *rs);

#endif
