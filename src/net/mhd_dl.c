/* libmicrohttpd's functions, found in the loaded library (mhd_dl.h). */
#include "config.h"

#include <dlfcn.h>

#include "mhd_dl.h"

/* POSIX's way from a void * to a function pointer: through the
 * pointer's own bytes.  NULL when missing (dlerror says which). */
#define FIND(lib, field, name) (*(void **)&(field) = dlsym((lib), (name)))

int mhd_load(struct mhd_api *a, struct strbuf *err)
{
	void *lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	int ok;

	if (lib) {
		ok = FIND(lib, a->is_feature_supported,
			  "MHD_is_feature_supported") &&
		     FIND(lib, a->start_daemon, "MHD_start_daemon") &&
		     FIND(lib, a->stop_daemon, "MHD_stop_daemon") &&
		     FIND(lib, a->create_response_from_buffer,
			  "MHD_create_response_from_buffer") &&
		     FIND(lib, a->create_response_free_cls,
			  "MHD_create_response_from_buffer_with_free_callback_cls") &&
		     FIND(lib, a->add_response_header,
			  "MHD_add_response_header") &&
		     FIND(lib, a->queue_response, "MHD_queue_response") &&
		     FIND(lib, a->queue_basic_auth_fail_response,
			  "MHD_queue_basic_auth_fail_response") &&
		     FIND(lib, a->destroy_response, "MHD_destroy_response") &&
		     FIND(lib, a->basic_auth_get_username_password,
			  "MHD_basic_auth_get_username_password") &&
		     FIND(lib, a->free, "MHD_free") &&
		     FIND(lib, a->get_connection_info,
			  "MHD_get_connection_info") &&
		     FIND(lib, a->lookup_connection_value,
			  "MHD_lookup_connection_value");
		if (ok)
			return 0;
	}
	const char *why = dlerror();
	sb_adds(err, why ? why : MHD_SONAME);
	return -1;
}
