/* One class more, as a maintainer would add it to src/classify/taxonomy.h: an
 * EE1023 resource "extra" (column Xtra) with its cause extras_created,
 * named so that no real class will clash with them.  test_taxonomy is
 * built, with the whole library, with this file included first. */
#define TAXONOMY_EXTRA_COLUMNS(X) \
	X(EXTRA, "extra", EE1023, N_("Xtra"), N_("extra"), N_("Xtra=extra"))
#define TAXONOMY_EXTRA_CAUSES(X) \
	X(EXTRAS_CREATED, "extras_created", EXTRA)
