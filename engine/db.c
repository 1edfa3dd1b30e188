/*
 * db.c -- opening, closing and writing a database: options and policy
 * lists, the MANIFEST at open, sequence numbers, the memtable and its flush
 * to a new L0 SST (which may trigger compaction), metrics and introspection.
 * The read path is in read.c, compaction in compact.c.
 */
#include "engine_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

int fl_db_fail(fl_db *db, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(db->err, sizeof db->err, fmt, ap);
    va_end(ap);
    return status;
}

const char *fl_db_errmsg(const fl_db *db) { return db->err[0] ? db->err : "no error"; }

/* Each SST keeps its file open; make room for many. */
static void raise_fd_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int fl_db_open_sst(fl_db *db, uint64_t id, fl_sst_reader **out) {
    int rc = fl_sst_open(db->env, db->dir, id, &db->policies, db->calls, out, &db->metrics.filter_errors,
                         db->err, sizeof db->err);
    return rc;
}

static void free_tree(fl_db *db) {
    for (size_t i = 0; i < db->l0_count; i++) fl_sst_close(db->l0[i]);
    free(db->l0);
    for (size_t r = 0; r < db->run_count; r++) {
        for (size_t i = 0; i < db->runs[r].count; i++) fl_sst_close(db->runs[r].ssts[i]);
        free(db->runs[r].ssts);
    }
    free(db->runs);
    db->l0 = NULL;
    db->runs = NULL;
    db->l0_count = db->run_count = 0;
}

static void free_db(fl_db *db) {
    free_tree(db);
    free(db->obsolete);
    if (db->lock) db->env->ops->close(db->env, db->lock);
    fl_memtable_free(db->mem);
    fl_policy_list_free(db->calls, &db->policies);
    fl_policy_list_free(db->calls, &db->compactor);
    fl_options_free(&db->opt);
    fl_calls_free(db->own_calls);
    free(db);
}

static const fl_manifest_sst *said_of(const fl_manifest_data *m, uint64_t id) {
    for (size_t i = 0; i < m->sst_count; i++)
        if (m->ssts[i].id == id) return &m->ssts[i];
    return NULL;
}

/* A key for a message: printable bytes as they are, others as \xNN, at
 * most 24 bytes then "...". */
static void fl_bytes_text(char *out, size_t cap, const uint8_t *p, size_t n) {
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && i < 24 && k + 5 < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\' ? "%c" : "\\x%02x",
                              p[i]);
    if (n > 24 && k + 4 < cap) snprintf(out + k, cap - k, "...");
}

static void range_text(char *out, size_t cap, const uint8_t *lo, size_t lolen, const uint8_t *hi, size_t hilen,
                       bool excl, uint64_t entries) {
    char a[80], b[80];
    fl_bytes_text(a, sizeof a, lo, lolen);
    fl_bytes_text(b, sizeof b, hi, hilen);
    snprintf(out, cap, "keys [%s, %s%c, %llu entr%s", a, b, excl ? ')' : ']', (unsigned long long)entries,
             entries == 1 ? "y" : "ies");
}

/* The SST file must be the one the MANIFEST names: its own id, its
 * database, its key range and entry counts.  A valid SST under another
 * SST's name (a restore mix-up), or from another database, would
 * otherwise give wrong answers without a word. */
static int check_identity(fl_db *db, const fl_manifest_data *m, const fl_sst_reader *r) {
    const fl_sst_info *in = &r->info;
    const fl_manifest_sst *s = said_of(m, in->id);
    if (!s) return FL_OK;
    bool id_ok = !in->has_stored_id || in->stored_id == in->id;
    bool db_ok = !in->has_db_id || !m->db_id || in->db_id == m->db_id;
    bool range_ok = in->smallest_len == s->smallest_len && in->largest_len == s->largest_len &&
                    (!s->smallest_len || memcmp(in->smallest, s->smallest, s->smallest_len) == 0) &&
                    (!s->largest_len || memcmp(in->largest, s->largest, s->largest_len) == 0) &&
                    in->largest_exclusive == s->largest_exclusive && in->entries == s->entries &&
                    in->range_tombstones == s->range_tombstones;
    if (id_ok && db_ok && range_ok) return FL_OK;
    char file[256], said[256];
    range_text(file, sizeof file, in->smallest, in->smallest_len, in->largest, in->largest_len,
               in->largest_exclusive, in->entries);
    range_text(said, sizeof said, s->smallest, s->smallest_len, s->largest, s->largest_len,
               s->largest_exclusive, s->entries);
    return fl_db_fail(db, FL_ERR_CORRUPT, "%s: not the SST the MANIFEST names: the file is SST %llu of database "
                      "%016llx: %s, %llu range tombstones; the MANIFEST says SST %llu of database %016llx: %s, "
                      "%llu range tombstones", r->path,
                      (unsigned long long)(in->has_stored_id ? in->stored_id : in->id),
                      (unsigned long long)(in->has_db_id ? in->db_id : 0), file,
                      (unsigned long long)in->range_tombstones, (unsigned long long)s->id,
                      (unsigned long long)m->db_id, said, (unsigned long long)s->range_tombstones);
}

static int load_tree(fl_db *db, const fl_manifest_data *m) {
    db->l0 = calloc(m->l0_count ? m->l0_count : 1, sizeof *db->l0);
    db->runs = calloc(m->run_count ? m->run_count : 1, sizeof *db->runs);
    if (!db->l0 || !db->runs) return FL_ERR_NOMEM;
    db->l0_cap = m->l0_count ? m->l0_count : 1;
    db->run_cap = m->run_count ? m->run_count : 1;
    for (size_t i = 0; i < m->l0_count; i++) {
        int rc = fl_db_open_sst(db, m->l0[i], &db->l0[i]);
        if (rc) return rc;
        db->l0_count++;
        if ((rc = check_identity(db, m, db->l0[i]))) return rc;
    }
    for (size_t r = 0; r < m->run_count; r++) {
        fl_run *run = &db->runs[r];
        run->ssts = calloc(m->run_sizes[r] ? m->run_sizes[r] : 1, sizeof *run->ssts);
        if (!run->ssts) return FL_ERR_NOMEM;
        db->run_count++;
        for (size_t i = 0; i < m->run_sizes[r]; i++) {
            int rc = fl_db_open_sst(db, m->runs[r][i], &run->ssts[i]);
            if (rc) return rc;
            run->count++;
            if ((rc = check_identity(db, m, run->ssts[i]))) return rc;
        }
    }
    return FL_OK;
}

/* The directory made if missing, and locked: LOCK, an exclusive lock for
 * the life of the db (a second open, in this process or another, fails
 * naming the holder).  A directory the process cannot write opens
 * read-only, as does opt.read_only: then a shared lock when a LOCK file
 * exists (none can be made), and the directory is never written. */
static int lock_dir(fl_db *db, char *err, size_t err_len) {
    fl_env *env = db->env;
    int e = env->ops->mkdir(env, db->dir);
    if (e && e != EEXIST) {
        snprintf(err, err_len, "%s: cannot create database directory: %s", db->dir, strerror(e));
        return FL_ERR_IO;
    }
    db->read_only = db->opt.read_only || env->ops->writable(env, db->dir) != 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/LOCK", db->dir);
    long holder = 0;
    e = env->ops->lock(env, path, db->read_only, &db->lock, &holder);
    if (e == ENOENT && db->read_only) return FL_OK;
    if (e == EWOULDBLOCK) {
        char who[64] = "another process";
        if (holder > 0 && holder == (long)getpid()) snprintf(who, sizeof who, "this process (pid %ld)", holder);
        else if (holder > 0) snprintf(who, sizeof who, "process %ld", holder);
        snprintf(err, err_len, "%s: the database is open in %s (%s is locked); close it there first",
                 db->dir, who, path);
        return FL_ERR_EXISTS;
    }
    if (e) {
        snprintf(err, err_len, "%s: cannot lock: %s", path, strerror(e));
        return FL_ERR_IO;
    }
    return FL_OK;
}

/* The id of an SST file's name (NNNNNN.sst, as fl_sst_path makes them). */
static bool sst_name(const char *name, uint64_t *id) {
    size_t n = strlen(name);
    if (n < 5 || strcmp(name + n - 4, ".sst") != 0) return false;
    uint64_t v = 0;
    for (size_t i = 0; i + 4 < n; i++) {
        if (name[i] < '0' || name[i] > '9' || v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(name[i] - '0');
    }
    *id = v;
    return true;
}

typedef struct sst_names { uint64_t *ids; size_t count, cap; } sst_names;

static int collect_sst(void *arg, const char *name) {
    sst_names *s = arg;
    uint64_t id;
    if (!sst_name(name, &id)) return 0;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        uint64_t *ids = realloc(s->ids, cap * sizeof *ids);
        if (!ids) return ENOMEM;
        s->ids = ids;
        s->cap = cap;
    }
    s->ids[s->count++] = id;
    return 0;
}

static int list_ssts(fl_db *db, sst_names *out) {
    memset(out, 0, sizeof *out);
    int e = db->env->ops->list(db->env, db->dir, collect_sst, out);
    if (e) {
        free(out->ids);
        memset(out, 0, sizeof *out);
        return fl_db_fail(db, e == ENOMEM ? FL_ERR_NOMEM : FL_ERR_IO, "%s: cannot list: %s", db->dir, strerror(e));
    }
    return FL_OK;
}

/* A database's identity: 64 random bits (never 0), kept in its MANIFEST
 * and written into every SST's info block. */
static uint64_t new_identity(void) {
    uint64_t id = 0;
    if (getrandom(&id, sizeof id, 0) != (ssize_t)sizeof id) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        id = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 48);
        id = (id ^ (id >> 30)) * 0xBF58476D1CE4E5B9ull;        /* splitmix64's finish */
        id = (id ^ (id >> 27)) * 0x94D049BB133111EBull;
        id ^= id >> 31;
    }
    return id ? id : 1;
}

/* No MANIFEST: a new database -- unless SSTs are there already, whose tree
 * is lost with the MANIFEST (deleted, or a crash before the first one was
 * written): opening that as a new database would write 000001.sst over one
 * of them. */
static int create_new(fl_db *db, bool anyway) {
    sst_names s;
    int rc = list_ssts(db, &s);
    if (rc) return rc;
    uint64_t past = 0;                          /* past every file's id */
    for (size_t i = 0; i < s.count; i++) if (s.ids[i] >= past) past = s.ids[i] + 1;
    free(s.ids);
    if (s.count && !anyway)
        return fl_db_fail(db, FL_ERR_CORRUPT, "%s holds %zu SST file%s but no MANIFEST; refusing to open it as a "
                          "new database (move the files away, open another directory, or create it anyway: "
                          "replay --new-db)", db->dir, s.count, s.count == 1 ? "" : "s");
    if (db->read_only)
        return fl_db_fail(db, FL_ERR_INVALID, "%s: no database here (no MANIFEST), and it is opened read-only",
                          db->dir);
    if (s.count)
        snprintf(db->note, sizeof db->note, "%s: a new database made beside %zu SST file%s without a MANIFEST, "
                 "kept: not part of the tree", db->dir, s.count, s.count == 1 ? "" : "s");
    db->next_sst = past > 1 ? past : 1;
    db->next_seq = 1;
    db->db_id = new_identity();
    return fl_db_write_manifest(db);
}

static bool in_manifest(const fl_manifest_data *m, uint64_t id) {
    for (size_t i = 0; i < m->l0_count; i++)
        if (m->l0[i] == id) return true;
    for (size_t r = 0; r < m->run_count; r++)
        for (size_t i = 0; i < m->run_sizes[r]; i++)
            if (m->runs[r][i] == id) return true;
    return false;
}

/* SSTs the MANIFEST does not name: at or past its next id they were never
 * committed (a crash between writing an SST and the MANIFEST): removed.
 * Below it, who knows: kept, and said in fl_db_note. */
static int orphans(fl_db *db, const fl_manifest_data *m) {
    sst_names s;
    int rc = list_ssts(db, &s);
    if (rc) return rc;
    size_t removed = 0, kept = 0;
    uint64_t first_kept = 0;
    for (size_t i = 0; i < s.count; i++) {
        uint64_t id = s.ids[i];
        if (in_manifest(m, id)) continue;
        bool retired = false;                    /* removed below, by its line */
        for (size_t k = 0; k < m->obsolete_count && !retired; k++) retired = m->obsolete[k] == id;
        if (retired) continue;
        if (id >= m->next_sst && !db->read_only) {
            char path[4200];
            fl_sst_path(db->dir, id, path, sizeof path);
            int e = db->env->ops->remove(db->env, path);
            if (e && e != ENOENT) {
                free(s.ids);
                return fl_db_fail(db, FL_ERR_IO, "%s: cannot remove an uncommitted SST: %s", path, strerror(e));
            }
            removed++;
        } else if (kept++ == 0 || id < first_kept) {
            first_kept = id;
        }
    }
    free(s.ids);
    int n = 0;
    if (removed)
        n = snprintf(db->note, sizeof db->note, "%s: removed %zu SST file%s the MANIFEST never named (written "
                     "after its last commit)", db->dir, removed, removed == 1 ? "" : "s");
    if (kept && n >= 0 && (size_t)n < sizeof db->note)
        snprintf(db->note + n, sizeof db->note - (size_t)n, "%s%s: %zu SST file%s the MANIFEST does not name "
                 "(the first %06llu.sst) kept: not part of the tree", n ? "; " : "", db->dir, kept,
                 kept == 1 ? "" : "s", (unsigned long long)first_kept);
    return FL_OK;
}

const char *fl_db_note(const fl_db *db) { return db->note; }

int fl_db_remove_obsolete(fl_db *db) {
    if (!db->obsolete_count || db->read_only) return FL_OK;
    for (size_t i = 0; i < db->obsolete_count; i++) {
        char path[4200];
        fl_sst_path(db->dir, db->obsolete[i], path, sizeof path);
        int e = db->env->ops->remove(db->env, path);
        if (e && e != ENOENT)
            return fl_db_fail(db, FL_ERR_IO, "%s: cannot remove a retired SST: %s", path, strerror(e));
    }
    int e = db->opt.sync ? db->env->ops->sync_dir(db->env, db->dir) : 0;
    if (e) return fl_db_fail(db, FL_ERR_IO, "%s: cannot sync the directory: %s", db->dir, strerror(e));
    db->obsolete_count = 0;              /* gone for good: the next MANIFEST drops them */
    return FL_OK;
}

int fl_db_open(const char *dir, const fl_registry *reg, const fl_options *opt,
               fl_db **out, char *err, size_t err_len) {
    *out = NULL;
    fl_db *db = calloc(1, sizeof *db);
    if (!db) return FL_ERR_NOMEM;
    int rc;
    if (strlen(dir) >= sizeof db->dir - 32) {
        snprintf(err, err_len, "%s: path too long", dir);
        free(db);
        return FL_ERR_INVALID;
    }
    snprintf(db->dir, sizeof db->dir, "%s", dir);
    db->reg = reg;
    if ((rc = fl_options_copy(&db->opt, opt))) { free(db); return rc; }
    db->calls = db->opt.calls;
    if (!db->calls) {
        if ((rc = fl_calls_new(reg, &db->own_calls))) { fl_options_free(&db->opt); free(db); return rc; }
        db->calls = db->own_calls;
    }
    db->env = db->opt.env ? db->opt.env : fl_env_posix();
    if ((rc = lock_dir(db, err, err_len))) {
        free_db(db);
        return rc;
    }
    const char *wp = db->opt.policies ? db->opt.policies : FL_DEFAULT_POLICIES;
    const char *cp = db->opt.compactor ? db->opt.compactor : wp;
    char perr[512];
    if ((rc = fl_policy_list_parse(reg, db->calls, wp, &db->policies, perr, sizeof perr))) {
        snprintf(err, err_len, "option policies: %s", perr);
        free_db(db);
        return rc;
    }
    if ((rc = fl_policy_list_parse(reg, db->calls, cp, &db->compactor, perr, sizeof perr))) {
        snprintf(err, err_len, "option compactor: %s", perr);
        free_db(db);
        return rc;
    }
    if ((rc = fl_memtable_new(&db->mem))) { free_db(db); return rc; }
    raise_fd_limit();
    fl_manifest_data m;
    rc = fl_manifest_read(db->env, dir, &m, db->err, sizeof db->err);
    if (rc == FL_ERR_NOTFOUND) {
        rc = create_new(db, db->opt.create_anyway);
    } else if (rc == FL_OK) {
        db->next_sst = m.next_sst;
        db->next_seq = m.next_seq ? m.next_seq : 1;
        db->manifest_known = true;
        db->manifest_hash = m.hash;
        /* an older MANIFEST has none: one now, written with the next commit */
        db->db_id = m.db_id || db->read_only ? m.db_id : new_identity();
        rc = load_tree(db, &m);
        if (rc == FL_OK) rc = orphans(db, &m);
        if (rc == FL_OK && m.obsolete_count) {   /* a compaction's inputs, maybe still there */
            db->obsolete = m.obsolete;
            db->obsolete_count = db->obsolete_cap = m.obsolete_count;
            m.obsolete = NULL;
            m.obsolete_count = 0;
            rc = fl_db_remove_obsolete(db);
        }
        fl_manifest_data_free(&m);
    }
    if (rc) {
        snprintf(err, err_len, "%s", db->err[0] ? db->err : fl_strerror(rc));
        free_db(db);
        return rc;
    }
    fl_call_stats st;
    fl_calls_stats(db->calls, &st);
    db->violations_at_open = st.contract_violations;
    *out = db;
    return FL_OK;
}

void fl_db_abandon(fl_db *db) {
    if (db) free_db(db);
}

int fl_db_close(fl_db *db, char *err, size_t err_len) {
    if (!db) return FL_OK;
    int rc = fl_db_flush(db);
    if (rc == FL_OK) rc = fl_db_write_manifest(db);
    if (rc != FL_OK && err) snprintf(err, err_len, "%s", fl_db_errmsg(db));
    free_db(db);
    return rc;
}

/* ---- Writes ------------------------------------------------------------ */

static int writable(fl_db *db, const char *what) {
    if (!db->read_only) return FL_OK;
    return fl_db_fail(db, FL_ERR_INVALID, "%s: the database %s is open read-only (%s)", what, db->dir,
                      db->opt.read_only ? "as asked" : "its directory is not writable");
}

static int check_key(fl_db *db, fl_slice k, const char *what) {
    int rc = writable(db, strcmp(what, "key") == 0 ? "write" : "delete_range");
    if (rc) return rc;
    if (k.len > FL_MAX_KEY)
        return fl_db_fail(db, FL_ERR_INVALID, "%s of %zu bytes: keys are at most %u bytes",
                          what, k.len, FL_MAX_KEY);
    return FL_OK;
}

static int after_write(fl_db *db) {
    if (fl_memtable_bytes(db->mem) >= db->opt.memtable_bytes) return fl_db_flush(db);
    return FL_OK;
}

int fl_db_put(fl_db *db, fl_slice key, fl_slice value) {
    int rc = check_key(db, key, "key");
    if (rc) return rc;
    if (value.len > FL_MAX_VALUE)
        return fl_db_fail(db, FL_ERR_INVALID, "value of %zu bytes: values are at most 1 MiB", value.len);
    fl_entry e = { key.data, key.len, value.data, value.len, db->next_seq, FL_ENTRY_PUT };
    if ((rc = fl_memtable_add(db->mem, &e))) return rc;
    db->next_seq++;
    return after_write(db);
}

int fl_db_delete(fl_db *db, fl_slice key) {
    int rc = check_key(db, key, "key");
    if (rc) return rc;
    fl_entry e = { key.data, key.len, (const uint8_t *)"", 0, db->next_seq, FL_ENTRY_DELETE };
    if ((rc = fl_memtable_add(db->mem, &e))) return rc;
    db->next_seq++;
    return after_write(db);
}

int fl_db_delete_range(fl_db *db, fl_slice start, fl_slice end) {
    int rc = check_key(db, start, "range start");
    if (!rc) rc = check_key(db, end, "range end");
    if (rc) return rc;
    if (fl_bytes_cmp(end.data, end.len, start.data, start.len) <= 0) return FL_OK;
    if ((rc = fl_memtable_add_rtomb(db->mem, start, end, db->next_seq))) return rc;
    db->next_seq++;
    return after_write(db);
}

/* Writes the memtable to one new L0 SST with the writer's policies. */
int fl_db_flush_memtable(fl_db *db) {
    if (fl_memtable_empty(db->mem)) return FL_OK;
    fl_sst_write_cfg cfg = {
        .env = db->env, .db_id = db->db_id, .dir = db->dir, .policies = &db->policies, .min_filter_keys = db->opt.min_filter_keys,
        .block_bytes = db->opt.block_bytes, .legacy_filters = db->opt.legacy_filters,
        .sync = db->opt.sync, .calls = db->calls,
    };
    uint64_t id = db->next_sst++;
    fl_sst_writer *w;
    int rc = fl_sst_writer_new(&cfg, id, &w, db->err, sizeof db->err);
    if (rc) return rc;
    fl_mt_iter it;
    fl_entry e;
    fl_memtable_seek(db->mem, NULL, 0, &it);
    while (rc == FL_OK && fl_memtable_next(&it, &e)) rc = fl_sst_writer_add(w, &e);
    const fl_rtomb_list *rts = fl_memtable_rtombs(db->mem);
    for (size_t i = 0; i < rts->count && rc == FL_OK; i++) rc = fl_sst_writer_add_rtomb(w, &rts->items[i]);
    if (rc) {
        char why[sizeof db->err - 16];
        fl_sst_writer_why(w, rc, why, sizeof why);
        fl_sst_writer_abort(w);
        return fl_db_fail(db, rc, "flush: %s", why);
    }
    fl_sst_info info;
    if ((rc = fl_sst_writer_finish(w, &info, db->err, sizeof db->err))) return rc;
    fl_sst_info_free(&info);
    fl_sst_reader *r;
    if ((rc = fl_db_open_sst(db, id, &r))) return rc;
    if (db->l0_count == db->l0_cap) {
        size_t cap = db->l0_cap ? db->l0_cap * 2 : 8;
        fl_sst_reader **n = realloc(db->l0, cap * sizeof *n);
        if (!n) { fl_sst_close(r); return FL_ERR_NOMEM; }
        db->l0 = n;
        db->l0_cap = cap;
    }
    memmove(db->l0 + 1, db->l0, db->l0_count * sizeof *db->l0);
    db->l0[0] = r;
    db->l0_count++;
    db->metrics.ssts_written++;
    db->metrics.flushes++;
    fl_memtable *fresh;
    if ((rc = fl_memtable_new(&fresh))) return rc;
    fl_memtable_free(db->mem);
    db->mem = fresh;
    return fl_db_write_manifest(db);
}

int fl_db_flush(fl_db *db) {
    if (fl_memtable_empty(db->mem)) return FL_OK;
    int rc = fl_db_flush_memtable(db);
    return rc ? rc : fl_compact_auto(db, false);
}

int fl_db_compact(fl_db *db, bool full) {
    int wrc = writable(db, "compact");
    if (wrc) return wrc;
    if (full) {
        int rc = fl_db_flush_memtable(db);
        return rc ? rc : fl_compact_full(db);
    }
    return fl_compact_auto(db, true);
}

/* ---- Metrics, trace and introspection ------------------------------------ */

void fl_db_metrics(const fl_db *db, fl_metrics *out) {
    fl_call_stats st;
    fl_calls_stats(db->calls, &st);
    *out = db->metrics;
    out->contract_violations = st.contract_violations - db->violations_at_open;
}

void fl_db_set_probe_trace(fl_db *db, fl_probe_fn fn, void *arg) {
    db->trace = fn;
    db->trace_arg = arg;
}

static int meta_from(fl_sst_meta *m, const fl_sst_reader *r, int level) {
    const fl_sst_info *in = &r->info;
    memset(m, 0, sizeof *m);
    m->id = in->id;
    m->level = level;
    m->smallest = fl_memdup(in->smallest, in->smallest_len);
    m->largest = fl_memdup(in->largest, in->largest_len);
    m->smallest_len = in->smallest_len;
    m->largest_len = in->largest_len;
    m->largest_exclusive = in->largest_exclusive;
    m->entries = in->entries;
    m->range_tombstones = in->range_tombstones;
    m->filter_names = calloc(r->sub_count ? r->sub_count : 1, sizeof(char *));
    if (!m->smallest || !m->largest || !m->filter_names) return FL_ERR_NOMEM;
    for (size_t i = 0; i < r->sub_count; i++) {
        if (!(m->filter_names[i] = strdup(r->subs[i].name))) return FL_ERR_NOMEM;
        m->filter_count = i + 1;
    }
    return FL_OK;
}

/* L0 newest (highest id) first, then each deeper level in key order. */
static int fl_meta_read_order(const void *pa, const void *pb) {
    const fl_sst_meta *a = pa, *b = pb;
    if (a->level != b->level) return a->level < b->level ? -1 : 1;
    if (a->level == 0) return a->id > b->id ? -1 : a->id < b->id;
    size_t n = a->smallest_len < b->smallest_len ? a->smallest_len : b->smallest_len;
    int c = n ? memcmp(a->smallest, b->smallest, n) : 0;
    return c ? c : (a->smallest_len > b->smallest_len) - (a->smallest_len < b->smallest_len);
}

void fl_sst_meta_sort_leveled(fl_sst_meta *metas, size_t count) {
    if (count > 1) qsort(metas, count, sizeof *metas, fl_meta_read_order);
}

void fl_sst_meta_free(fl_sst_meta *metas, size_t count) {
    for (size_t i = 0; metas && i < count; i++) {
        free(metas[i].smallest);
        free(metas[i].largest);
        for (size_t j = 0; j < metas[i].filter_count; j++) free(metas[i].filter_names[j]);
        free(metas[i].filter_names);
    }
    free(metas);
}

int fl_db_ssts(const fl_db *db, fl_sst_meta **out, size_t *count) {
    size_t n = db->l0_count;
    for (size_t r = 0; r < db->run_count; r++) n += db->runs[r].count;
    fl_sst_meta *m = calloc(n ? n : 1, sizeof *m);
    if (!m) return FL_ERR_NOMEM;
    size_t k = 0;
    int rc = FL_OK;
    for (size_t i = 0; i < db->l0_count && !rc; i++) rc = meta_from(&m[k++], db->l0[i], 0);
    for (size_t r = 0; r < db->run_count; r++)
        for (size_t i = 0; i < db->runs[r].count && !rc; i++)
            rc = meta_from(&m[k++], db->runs[r].ssts[i], (int)r + 1);
    if (rc) { fl_sst_meta_free(m, k); return rc; }
    *out = m;
    *count = n;
    return FL_OK;
}

/* ---- Options of an open database ----------------------------------------- */

/* Opens every live SST again for the policies in pl, into fresh arrays;
 * FL_OK or an error with nothing allocated. */
static int reopen_readers(fl_db *db, const fl_policy_list *pl, fl_sst_reader ***l0, fl_run **runs,
                          char *err, size_t err_len) {
    *l0 = calloc(db->l0_cap ? db->l0_cap : 1, sizeof **l0);
    *runs = calloc(db->run_cap ? db->run_cap : 1, sizeof **runs);
    int rc = *l0 && *runs ? FL_OK : FL_ERR_NOMEM;
    for (size_t i = 0; i < db->l0_count && rc == FL_OK; i++)
        rc = fl_sst_open(db->env, db->dir, db->l0[i]->info.id, pl, db->calls, &(*l0)[i],
                         &db->metrics.filter_errors, err, err_len);
    for (size_t r = 0; r < db->run_count && rc == FL_OK; r++) {
        fl_run *run = &(*runs)[r];
        if (!(run->ssts = calloc(db->runs[r].count ? db->runs[r].count : 1, sizeof *run->ssts))) {
            rc = FL_ERR_NOMEM;
            break;
        }
        run->count = db->runs[r].count;
        for (size_t i = 0; i < run->count && rc == FL_OK; i++)
            rc = fl_sst_open(db->env, db->dir, db->runs[r].ssts[i]->info.id, pl, db->calls, &run->ssts[i],
                             &db->metrics.filter_errors, err, err_len);
    }
    if (rc == FL_OK) return FL_OK;
    for (size_t i = 0; *l0 && i < db->l0_count; i++) fl_sst_close((*l0)[i]);
    for (size_t r = 0; *runs && r < db->run_count; r++) {
        for (size_t i = 0; i < (*runs)[r].count; i++) fl_sst_close((*runs)[r].ssts[i]);
        free((*runs)[r].ssts);
    }
    free(*l0);
    free(*runs);
    return rc;
}

int fl_db_set_options(fl_db *db, const fl_options *opt, char *err, size_t err_len) {
    fl_options copy;
    fl_policy_list pl = { NULL, 0 }, cl = { NULL, 0 };
    char perr[512] = "";
    int rc = fl_options_copy(&copy, opt);
    if (rc) return rc;
    copy.calls = db->opt.calls;                 /* the db reports where it did */
    const char *wp = copy.policies ? copy.policies : FL_DEFAULT_POLICIES;
    const char *cp = copy.compactor ? copy.compactor : wp;
    if ((rc = fl_policy_list_parse(db->reg, db->calls, wp, &pl, perr, sizeof perr))) {
        snprintf(err, err_len, "option policies: %s", perr);
    } else if ((rc = fl_policy_list_parse(db->reg, db->calls, cp, &cl, perr, sizeof perr))) {
        snprintf(err, err_len, "option compactor: %s", perr);
    }
    fl_sst_reader **l0 = NULL;
    fl_run *runs = NULL;
    if (rc == FL_OK) rc = reopen_readers(db, &pl, &l0, &runs, err, err_len);
    if (rc != FL_OK) {
        fl_policy_list_free(db->calls, &pl);
        fl_policy_list_free(db->calls, &cl);
        fl_options_free(&copy);
        return rc;
    }
    size_t l0_count = db->l0_count, l0_cap = db->l0_cap, run_count = db->run_count,
           run_cap = db->run_cap;
    free_tree(db);
    db->l0 = l0;
    db->l0_count = l0_count;
    db->l0_cap = l0_cap ? l0_cap : 1;
    db->runs = runs;
    db->run_count = run_count;
    db->run_cap = run_cap ? run_cap : 1;
    fl_policy_list_free(db->calls, &db->policies);
    fl_policy_list_free(db->calls, &db->compactor);
    db->policies = pl;
    db->compactor = cl;
    fl_options_free(&db->opt);
    db->opt = copy;                    /* a smaller memtable_bytes: at the next write */
    return FL_OK;
}
