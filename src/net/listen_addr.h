/* The address of a listening socket, as exporters write it:
 * "[ADDR]:PORT".  ":9466" is every interface (IPv6 and IPv4 on one
 * socket where the kernel allows it, else IPv4), "127.0.0.1:9466" one
 * IPv4 address, "[::1]:9466" one IPv6 address.  Only numeric addresses:
 * a name would be resolved once, at start, to whatever it meant then. */
#ifndef PLOGTOP_LISTEN_ADDR_H
#define PLOGTOP_LISTEN_ADDR_H

#include <sys/socket.h>

#include "strbuf.h"

struct listen_addr {
	struct sockaddr_storage sa;
	socklen_t len;
	int any;		/* no address given: every interface */
	unsigned port;
};

/* Parses spec; 0, or -1 with why in err (sanitised). */
int listen_addr_parse(const char *spec, struct listen_addr *a,
		      struct strbuf *err);
/* A listening TCP socket on a (close-on-exec, non-blocking); the fd, or
 * -1 with "SPEC: why" in err (the address in use, a port below 1024
 * without the right, an address this host does not have). */
int listen_addr_open(const struct listen_addr *a, const char *spec,
		     struct strbuf *err);

#endif
