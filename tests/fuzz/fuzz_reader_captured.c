/* Arbitrary bytes as a job's captured output: see reader.h. */
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
	reader_run("job-4242.out", data, size);
	return 0;
}
