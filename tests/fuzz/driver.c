/* main() for a fuzz harness in an ordinary build: runs it once over each
 * file named (or each file of each directory named), so make check
 * replays the seed corpora and the inputs that once crashed.  A crash
 * aborts; otherwise it prints how many inputs it ran. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "fuzz.h"

/* libFuzzer calls it when a harness defines it; most do not. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path)
{
	struct strbuf text = STRBUF_INIT;

	if (read_small_file(path, &text, 16 << 20) < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		sb_free(&text);
		return -1;
	}
	/* A copy of exactly its size, so that reading past it shows. */
	uint8_t *copy = malloc(text.len ? text.len : 1);
	if (!copy)
		abort();
	if (text.len)
		memcpy(copy, text.buf, text.len);
	LLVMFuzzerTestOneInput(copy, text.len);
	free(copy);
	sb_free(&text);
	return 0;
}

static int run_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct strbuf path = STRBUF_INIT;
		sb_addf(&path, "%s/%s", dir, e->d_name);
		if (run_file(path.buf) < 0)
			rc = -1;
		else
			++*n;
		sb_free(&path);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	int rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc |= run_dir(argv[i], &n);
		else if (run_file(argv[i]) == 0)
			n++;
		else
			rc = -1;
	}
	printf("%s: %zu inputs run\n", argv[0], n);
	return rc ? 1 : 0;
}
