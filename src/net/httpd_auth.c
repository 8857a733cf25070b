/* The users of basic authentication (httpd_auth.h). */
#include "config.h"

#include <crypt.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "httpd_auth.h"
#include "i18n.h"
#include "sanitize.h"
#include "xalloc.h"

#define CRYPT_SONAME "libcrypt.so.1"
#define CRYPT_PACKAGE "libcrypt1"	/* Debian's; for the message */

/* libcrypt is loaded at run time, not linked (only --listen-auth needs
 * it; a copied binary runs where it is not): its crypt_r, or NULL with
 * dlerror's words in err.  It stays loaded until exit. */
static crypt_fn load_crypt(struct strbuf *err)
{
	void *lib = dlopen(CRYPT_SONAME, RTLD_NOW | RTLD_LOCAL);
	crypt_fn fn = NULL;

	if (lib)
		*(void **)&fn = dlsym(lib, "crypt_r");
	if (!fn) {
		const char *why = dlerror();
		sb_addf(err, _("needs libcrypt (%s): %s"), CRYPT_PACKAGE,
			why ? why : CRYPT_SONAME);
	}
	return fn;
}

int httpd_users_library(struct strbuf *err)
{
	return load_crypt(err) ? 0 : -1;
}

static int fail(struct strbuf *err, const char *path, size_t line,
		const char *why)
{
	sanitize(err, path, strlen(path));
	if (line)
		sb_addf(err, ":%zu", line);
	sb_addf(err, ": %s", why);
	return -1;
}

/* A hash crypt_r can check: it gives back the hash itself for the
 * password, so a hash it cannot read (a "*" or "!" of a locked
 * account, an unknown prefix) fails here, at start. */
static int hash_usable(crypt_fn crypt_fn_of, const char *hash)
{
	struct crypt_data *cd = xcalloc(1, sizeof *cd);
	const char *out = crypt_fn_of("", hash, cd);
	int ok = out && out[0] != '*' && strlen(out) == strlen(hash);

	free(cd);
	return ok;
}

static int add_line(struct httpd_users *u, char *line, const char *path,
		    size_t lineno, struct strbuf *err)
{
	size_t len = strlen(line);
	char *colon;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return 0;
	colon = strchr(line, ':');
	if (!colon || colon == line || !colon[1])
		return fail(err, path, lineno, _("not user:HASH"));
	*colon = '\0';
	if (!hash_usable(u->crypt_r, colon + 1))
		return fail(err, path, lineno, _("not a crypt(3) hash this "
			    "system knows (htpasswd -B makes one)"));
	if (u->n >= HTTPD_AUTH_MAX_USERS)
		return fail(err, path, lineno, _("too many users"));
	u->v = xrealloc(u->v, (u->n + 1) * sizeof *u->v);
	u->v[u->n].name = xstrdup(line);
	u->v[u->n].hash = xstrdup(colon + 1);
	u->n++;
	return 0;
}

/* Passwords' hashes are secrets: a file others can read (or write)
 * is refused, as ssh refuses a private key. */
static int check_mode(FILE *f, const char *path, struct strbuf *err)
{
	struct stat st;

	if (fstat(fileno(f), &st) < 0)
		return fail(err, path, 0, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(err, path, 0, _("not a regular file"));
	if (st.st_mode & (S_IROTH | S_IWOTH))
		return fail(err, path, 0, _("others may read or write it "
			    "(chmod o-rw)"));
	return 0;
}

int httpd_users_load(struct httpd_users *u, const char *path,
		     struct strbuf *err)
{
	char line[HTTPD_AUTH_MAX_LINE + 2];
	size_t lineno = 0;
	int rc = 0;
	FILE *f;

	u->v = NULL;
	u->n = 0;
	if (!(u->crypt_r = load_crypt(err)))
		return -1;
	if (!(f = fopen(path, "re")))
		return fail(err, path, 0, strerror(errno));
	rc = check_mode(f, path, err);
	while (rc == 0 && fgets(line, sizeof line, f)) {
		lineno++;
		if (strlen(line) > HTTPD_AUTH_MAX_LINE)
			rc = fail(err, path, lineno, _("line too long"));
		else
			rc = add_line(u, line, path, lineno, err);
	}
	if (rc == 0 && ferror(f))
		rc = fail(err, path, 0, strerror(errno));
	if (rc == 0 && !u->n)
		rc = fail(err, path, 0, _("no user:HASH line"));
	fclose(f);
	if (rc < 0)
		httpd_users_free(u);
	return rc;
}

/* Equal strings, in a time that depends only on their lengths. */
static int same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

int httpd_users_check(const struct httpd_users *u, const char *user,
		      const char *password)
{
	const struct httpd_user *who = NULL;
	struct crypt_data *cd;
	const char *out;
	int ok;

	for (size_t i = 0; i < u->n; i++)
		if (same(u->v[i].name, user))
			who = &u->v[i];
	/* An unknown user costs a hash all the same (the first user's),
	 * so that timing does not tell which users exist. */
	cd = xcalloc(1, sizeof *cd);
	out = u->crypt_r(password, who ? who->hash : u->v[0].hash, cd);
	ok = out && out[0] != '*' && who && same(out, who->hash);
	free(cd);
	return ok;
}

void httpd_users_free(struct httpd_users *u)
{
	for (size_t i = 0; i < u->n; i++) {
		free(u->v[i].name);
		free(u->v[i].hash);
	}
	free(u->v);
	u->v = NULL;
	u->n = 0;
}
