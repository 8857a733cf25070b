/* What the identity files share (ident.h is what the rest of plogtop
 * sees).  The order of calls: model.c and model_live.c call into
 * ident_learn.c and ident_host.c; those call ident_ledger.c and ident.c;
 * ident_devices.c reads what they keep. */
#ifndef PLOGTOP_IDENT_INT_H
#define PLOGTOP_IDENT_INT_H

#include "ident.h"
#include "model.h"

/* ident_names.c: names and jobs kept once each (one reference per
 * call to get; put NULL does nothing).  The model's process and identity
 * names and identities' jobs are these: never written through. */
char *ident_name_get(struct idents *ids, const char *s);
void ident_name_put(struct idents *ids, const char *s);
void ident_names_free(struct idents *ids);

/* ident_room.c: id->more, made when it has none. */
struct ident_more *ident_more_mut(struct ident *id);

/* ident.c: the table. */
/* id's environment record, made when it has none. */
struct ident_env *ident_env_mut(struct ident *id);
/* The identity of (host, pid, name), created when new (the table is
 * bounded: ident.h). */
struct ident *ident_get(struct model *m, struct model_host *host, long pid,
			const char *name, logtime_t t);
/* A cluster's pid-less process of one device (model_add_counted): its
 * identity, keyed by (host, name, device), made when new / or NULL. */
struct ident *ident_get_dev(struct model *m, struct model_host *host,
			    const char *name, long dev, logtime_t t);
struct ident *ident_find_dev(const struct model *m,
			     const struct model_host *host, const char *name,
			     long dev);
/* The identity of (host, pid, name), or NULL. */
struct ident *ident_find(const struct model *m,
			 const struct model_host *host, long pid,
			 const char *name);
/* The name of the one named identity or process row of pid on host;
 * when several, of the one whose last time is nearest t (without a
 * time, the one seen last); NULL when none. */
const char *ident_name_by_pid(const struct model *m,
			      const struct model_host *host, long pid,
			      logtime_t t);
/* The process row of (host, pid, name), or NULL. */
struct process *ident_row(const struct model *m,
			  const struct model_host *host, long pid,
			  const char *name);
/* Whether it knows more than its row did: a device, a ledger, a leak. */
int ident_worth_keeping(const struct ident *id);
/* Lets it go (not counted in idents.dropped: it knew nothing). */
void ident_drop(struct model *m, struct ident *id);
/* Its job from --job or the roots, while it has none; file: a path of
 * one of its lines. */
void ident_find_job(struct model *m, struct ident *id, const char *file);
void ident_set_job(struct model *m, struct ident *id, const char *job);
/* The same, saying which rule named it (one of IDENT_JOB_*). */
void ident_set_job_by(struct model *m, struct ident *id, const char *job,
		      const char *rule);
/* t widens its first and last times. */
void ident_saw(struct ident *id, logtime_t t);

/* ident_learn.c */
/* The device it works on now (adds it to dev[]); its index there. */
size_t ident_set_device(struct ident *id, long device);
/* The physical NPU of its device from its map (when it has one). */
void ident_map_phys(struct ident *id);
/* model.c, once the incident's process is found: the row of its
 * identity. */
void ident_link_proc(struct model *m, struct process *p);

/* ident_ledger.c: the ledger of one resource of id, at log time t. */
void ledger_create(struct ident *id, struct ledger *l, enum ledger_res r,
		   logtime_t t);
void ledger_created(struct ident *id, struct ledger *l, enum ledger_res r,
		    logtime_t t);
void ledger_destroyed(struct ident *id, struct ledger *l, logtime_t t);
void ledger_failed(struct ident *id, struct ledger *l, enum ledger_res r,
		   logtime_t t);
/* A failed create of r: in its ledger, or counted without one. */
void ident_ledger_failed(struct ident *id, enum ledger_res r, logtime_t t);
void ledger_statistics(struct ledger *l, enum ledger_res r,
		       const struct fact *f);
/* Whether id has a finding (a leak) that keeps it. */
int ident_has_finding(const struct ident *id);

/* ident_host.c: what the host says of live local processes. */
/* Called by model_alive with what it found: reads the environment of a
 * live one once. */
void ident_alive(struct model *m, struct process *p, int alive);
void ident_alive_id(struct model *m, struct ident *id, int alive);
/* The model folds p: its identity stays, without a row. */
void ident_forget_proc(struct model *m, const struct process *p);
/* npu-smi's NPU for id (from the kept table), when it can be matched. */
void ident_apply_npu(struct model *m, struct ident *id);

#endif
