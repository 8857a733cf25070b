/* libmicrohttpd, loaded at run time (dlopen) rather than linked: a copy
 * of the binary runs on a host without it, and only --listen needs it
 * (as httpc.c does for libcurl).  Each server keeps its own table. */
#ifndef PLOGTOP_MHD_DL_H
#define PLOGTOP_MHD_DL_H

#include <microhttpd.h>

#include "strbuf.h"

#define MHD_SONAME "libmicrohttpd.so.12"
#define MHD_PACKAGE "libmicrohttpd12"	/* Debian's; for the message */

/* The functions of libmicrohttpd that httpd.c calls. */
struct mhd_api {
	enum MHD_Result (*is_feature_supported)(enum MHD_FEATURE f);
	struct MHD_Daemon *(*start_daemon)(unsigned flags, uint16_t port,
		MHD_AcceptPolicyCallback apc, void *apc_cls,
		MHD_AccessHandlerCallback dh, void *dh_cls, ...);
	void (*stop_daemon)(struct MHD_Daemon *d);
	struct MHD_Response *(*create_response_from_buffer)(size_t size,
		void *buf, enum MHD_ResponseMemoryMode mode);
	struct MHD_Response *(*create_response_free_cls)(size_t size,
		const void *buf, MHD_ContentReaderFreeCallback crfc,
		void *crfc_cls);
	enum MHD_Result (*add_response_header)(struct MHD_Response *r,
		const char *name, const char *value);
	enum MHD_Result (*queue_response)(struct MHD_Connection *c,
		unsigned status, struct MHD_Response *r);
	enum MHD_Result (*queue_basic_auth_fail_response)(
		struct MHD_Connection *c, const char *realm,
		struct MHD_Response *r);
	void (*destroy_response)(struct MHD_Response *r);
	char *(*basic_auth_get_username_password)(struct MHD_Connection *c,
		char **password);
	void (*free)(void *p);
	const union MHD_ConnectionInfo *(*get_connection_info)(
		struct MHD_Connection *c, enum MHD_ConnectionInfoType t, ...);
	const char *(*lookup_connection_value)(struct MHD_Connection *c,
		enum MHD_ValueKind kind, const char *key);
};

/* Loads the library (it stays loaded until exit) and fills a: 0, or -1
 * with dlerror's words in err ("libmicrohttpd.so.12: cannot open
 * shared object file: ..."). */
int mhd_load(struct mhd_api *a, struct strbuf *err);

#endif
