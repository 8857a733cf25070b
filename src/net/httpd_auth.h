/* Basic authentication's users: a file of "user:HASH" lines, HASH a
 * crypt(3) hash (htpasswd -B's bcrypt, yescrypt, SHA-crypt), checked
 * with libxcrypt's crypt_r (loaded at run time) and compared in
 * constant time. */
#ifndef PLOGTOP_HTTPD_AUTH_H
#define PLOGTOP_HTTPD_AUTH_H

#include <stddef.h>

#include "strbuf.h"

#define HTTPD_AUTH_MAX_USERS 1000
#define HTTPD_AUTH_MAX_LINE 1024

struct httpd_user {
	char *name, *hash;
};

struct crypt_data;
/* libcrypt's crypt_r, loaded at run time (httpd_auth.c). */
typedef char *(*crypt_fn)(const char *phrase, const char *setting,
			  struct crypt_data *data);

struct httpd_users {
	struct httpd_user *v;
	size_t n;
	crypt_fn crypt_r;
};

/* 0 when libcrypt loads, else -1 with "needs libcrypt (libcrypt1):
 * why" in err, for a message that names the option. */
int httpd_users_library(struct strbuf *err);

/* Loads path: blank lines and # comments are skipped; a line that is
 * not user:HASH with a hash crypt knows, a file that others may read or
 * write, or no user at all is refused.  0, or -1 with "PATH: why" (or
 * "PATH:LINE: why") in err. */
int httpd_users_load(struct httpd_users *u, const char *path,
		     struct strbuf *err);
/* 1 when user and password match a line, else 0.  Takes as long for an
 * unknown user as for a wrong password.  Thread-safe. */
int httpd_users_check(const struct httpd_users *u, const char *user,
		      const char *password);
void httpd_users_free(struct httpd_users *u);

#endif
