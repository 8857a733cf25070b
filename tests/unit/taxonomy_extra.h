/* One class more, as a maintainer would add it to src/taxonomy.h: an
 * EE1023 resource "label" (column Labl) with its cause labels_created.
 * test_taxonomy is built, with the whole library, with this file
 * included first. */
#define TAXONOMY_EXTRA_COLUMNS(X) \
	X(LABEL, "label", EE1023, N_("Labl"), N_("label"), N_("Labl=label"))
#define TAXONOMY_EXTRA_CAUSES(X) \
	X(LABELS_CREATED, "labels_created", LABEL)
