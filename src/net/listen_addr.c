/* [ADDR]:PORT, parsed and bound (listen_addr.h). */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "listen_addr.h"
#include "i18n.h"
#include "sanitize.h"

#define LISTEN_BACKLOG 128

static int bad(struct strbuf *err, const char *spec, const char *why)
{
	sanitize(err, spec, strlen(spec));
	sb_addf(err, ": %s", why);
	return -1;
}

/* PORT: 1 to 65535, digits only. */
static int parse_port(const char *s, unsigned *port)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

/* The host part, without brackets: "" (every interface), IPv4 or IPv6. */
static int parse_host(const char *host, int v6, struct listen_addr *a)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&a->sa;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a->sa;

	memset(&a->sa, 0, sizeof a->sa);
	a->any = !*host && !v6;
	if (a->any || v6) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)a->port);
		s6->sin6_addr = in6addr_any;
		a->len = sizeof *s6;
		return a->any ? 0 : inet_pton(AF_INET6, host, &s6->sin6_addr) == 1
					  ? 0 : -1;
	}
	s4->sin_family = AF_INET;
	s4->sin_port = htons((unsigned short)a->port);
	a->len = sizeof *s4;
	return inet_pton(AF_INET, host, &s4->sin_addr) == 1 ? 0 : -1;
}

int listen_addr_parse(const char *spec, struct listen_addr *a,
		      struct strbuf *err)
{
	char host[64];
	const char *colon, *h = spec;
	size_t hl;
	int v6 = 0;

	if (*spec == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':')
			return bad(err, spec, _("an IPv6 address is written "
				   "[ADDR]:PORT"));
		h = spec + 1;
		hl = (size_t)(close - h);
		colon = close + 1;
		v6 = 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon)
			return bad(err, spec, _("no port (write :PORT, "
				   "ADDR:PORT or [ADDR]:PORT)"));
		hl = (size_t)(colon - spec);
	}
	if (parse_port(colon + 1, &a->port) < 0)
		return bad(err, spec, _("the port must be a number from 1 "
			   "to 65535"));
	if (hl >= sizeof host || (v6 && !hl))
		return bad(err, spec, _("not a numeric IP address"));
	memcpy(host, h, hl);
	host[hl] = '\0';
	if (!v6 && strchr(host, ':'))
		return bad(err, spec, _("an IPv6 address is written "
			   "[ADDR]:PORT"));
	if (parse_host(host, v6, a) < 0)
		return bad(err, spec, _("not a numeric IP address (a name "
			   "is not resolved)"));
	return 0;
}

static int try_bind(int family, const struct sockaddr *sa, socklen_t len,
		    int dual)
{
	int one = 1, zero = 0;
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -1;
	/* A restart must not wait for the old connections' TIME_WAIT; the
	 * port still cannot be taken from a live listener (no SO_REUSEPORT). */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    (family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, dual ? &zero : &one,
			sizeof one) < 0) ||
	    bind(fd, sa, len) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int listen_addr_open(const struct listen_addr *a, const char *spec,
		     struct strbuf *err)
{
	int fd = try_bind(a->sa.ss_family, (const struct sockaddr *)&a->sa,
			  a->len, a->any);

	/* Every interface on a host without IPv6: IPv4's. */
	if (fd < 0 && a->any &&
	    (errno == EAFNOSUPPORT || errno == EADDRNOTAVAIL)) {
		struct sockaddr_in s4;
		memset(&s4, 0, sizeof s4);
		s4.sin_family = AF_INET;
		s4.sin_port = htons((unsigned short)a->port);
		s4.sin_addr.s_addr = htonl(INADDR_ANY);
		fd = try_bind(AF_INET, (const struct sockaddr *)&s4,
			      sizeof s4, 0);
	}
	if (fd < 0)
		return bad(err, spec, strerror(errno));
	return fd;
}
