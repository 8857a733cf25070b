/* Arbitrary bytes as a plog file: see reader.h. */
#include "config.h"

#include "reader.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	reader_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader_run("plog-4242_20260709215200000.log", data, size);
	return 0;
}
