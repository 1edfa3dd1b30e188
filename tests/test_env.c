/*
 * test_env.c -- the env seam (engine.h): one body of tests run against the
 * posix and the memory env alike (a caller never knows which it holds);
 * the fault env's error injection and crash; and the files the engine can
 * trust: a directory with SSTs but no MANIFEST, an SST id that is taken,
 * a second open (the LOCK file), read-only opens that never write, orphan
 * SSTs at open, and I/O errors that name the operation, the file and the
 * OS's reason and lose nothing committed.
 */
#include "test.h"
#include "../engine/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static fl_slice S(const char *s) { return (fl_slice){ (const uint8_t *)s, strlen(s) }; }

/* ---- The same tests over each env ------------------------------------------ */

typedef struct names { char seen[8][32]; int n; } names;

static int note_name(void *arg, const char *name) {
    names *s = arg;
    if (s->n < 8) snprintf(s->seen[s->n++], 32, "%s", name);
    return 0;
}

static bool listed(const names *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->seen[i], name) == 0) return true;
    return false;
}

static void env_contract(fl_env *env, const char *root) {
    char dir[4200], a[4300], b[4300], lock[4300];
    snprintf(dir, sizeof dir, "%s/d", root);
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(lock, sizeof lock, "%s/LOCK", dir);
    const fl_env_ops *o = env->ops;
    CHECK_EQ(o->mkdir(env, dir), 0);
    CHECK_EQ(o->mkdir(env, dir), EEXIST);
    fl_file *f, *g;
    CHECK_EQ(o->open(env, a, FL_OPEN_READ, &f), ENOENT);
    CHECK_EQ(o->open(env, a, FL_OPEN_CREATE, &f), 0);
    CHECK_EQ(o->append(env, f, "hello ", 6), 0);
    CHECK_EQ(o->append(env, f, "world", 5), 0);
    CHECK_EQ(o->sync(env, f), 0);
    CHECK_EQ(o->close(env, f), 0);
    CHECK_EQ(o->open(env, a, FL_OPEN_CREATE, &f), EEXIST);     /* never over a file */
    CHECK_EQ(o->open(env, a, FL_OPEN_READ, &f), 0);
    uint64_t size = 0;
    char buf[32] = "";
    size_t got = 0;
    CHECK_EQ(o->size(env, f, &size), 0);
    CHECK_EQ(size, 11);
    CHECK_EQ(o->read(env, f, 6, buf, sizeof buf, &got), 0);   /* short at the end */
    CHECK_EQ(got, 5);
    CHECK(memcmp(buf, "world", 5) == 0);
    const void *v = NULL;                                       /* (optional) */
    if (o->view) {
        CHECK_EQ(o->view(env, f, 6, 32, &v, &got), 0);          /* short at the end */
        CHECK(got == 5 && memcmp(v, "world", 5) == 0);
        CHECK_EQ(o->view(env, f, 11, 4, &v, &got), 0);
        CHECK_EQ(got, 0);
    }
    /* removed while open: still readable through the handle */
    CHECK_EQ(o->remove(env, a), 0);
    CHECK_EQ(o->read(env, f, 0, buf, 5, &got), 0);
    CHECK(got == 5 && memcmp(buf, "hello", 5) == 0);
    if (o->view) {
        CHECK_EQ(o->view(env, f, 0, 5, &v, &got), 0);
        CHECK(got == 5 && memcmp(v, "hello", 5) == 0);
    }
    CHECK_EQ(o->close(env, f), 0);
    CHECK_EQ(o->remove(env, a), ENOENT);
    /* replace truncates; rename replaces atomically */
    CHECK_EQ(fl_env_write_file(env, a, "one", 3, true), 0);
    CHECK_EQ(fl_env_write_file(env, b, "two!", 4, true), 0);
    CHECK_EQ(o->rename(env, a, b), 0);
    fl_buf data;
    fl_buf_init(&data);
    CHECK_EQ(fl_env_read_file(env, b, &data), 0);
    CHECK(data.len == 3 && memcmp(data.data, "one", 3) == 0);
    fl_buf_free(&data);
    CHECK_EQ(o->open(env, a, FL_OPEN_READ, &f), ENOENT);
    CHECK_EQ(o->sync_dir(env, dir), 0);
    names s = { .n = 0 };
    CHECK_EQ(o->list(env, dir, note_name, &s), 0);
    CHECK(s.n == 1 && listed(&s, "b"));
    /* locks: exclusive against anyone, in this process too; the holder named */
    long holder = -1;
    CHECK_EQ(o->lock(env, lock, false, &f, &holder), 0);
    CHECK_EQ(o->lock(env, lock, false, &g, &holder), EWOULDBLOCK);
    CHECK_EQ(holder, getpid());
    CHECK_EQ(o->lock(env, lock, true, &g, &holder), EWOULDBLOCK);
    CHECK_EQ(o->close(env, f), 0);
    CHECK_EQ(o->lock(env, lock, true, &f, &holder), 0);        /* readers share */
    CHECK_EQ(o->lock(env, lock, true, &g, &holder), 0);
    CHECK_EQ(o->close(env, g), 0);
    CHECK_EQ(o->close(env, f), 0);
    CHECK_EQ(o->writable(env, dir), 0);
}

FL_TEST(env_posix_contract) { env_contract(fl_env_posix(), fl_test_tmpdir()); }

FL_TEST(env_memory_contract) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    CHECK(m->ops->view != NULL);                    /* SST blocks without a copy */
    env_contract(m, "/nowhere");
    fl_env_free(m);
}

/* The fault env views through its base, and not once dead. */
FL_TEST(env_fault_view) {
    fl_env *m, *f;
    CHECK_OK(fl_env_memory_new(&m));
    CHECK_OK(fl_env_fault_new(m, &f));
    env_contract(f, "/nowhere");
    CHECK_EQ(fl_env_write_file(f, "/v", "abc", 3, true), 0);
    fl_file *h;
    const void *v;
    size_t got;
    CHECK_EQ(f->ops->open(f, "/v", FL_OPEN_READ, &h), 0);
    CHECK_EQ(f->ops->view(f, h, 1, 2, &v, &got), 0);
    CHECK(got == 2 && memcmp(v, "bc", 2) == 0);
    CHECK_EQ(f->ops->close(f, h), 0);
    fl_env_free(f);
    CHECK_OK(fl_env_fault_new(fl_env_posix(), &f));          /* a base without view */
    char path[4200];
    snprintf(path, sizeof path, "%s/v", fl_test_tmpdir());
    CHECK_EQ(fl_env_write_file(f, path, "abc", 3, true), 0);
    CHECK_EQ(f->ops->open(f, path, FL_OPEN_READ, &h), 0);
    CHECK_EQ(f->ops->view(f, h, 0, 3, &v, &got), ENOTSUP);
    CHECK_EQ(f->ops->close(f, h), 0);
    fl_env_free(f);
    fl_env_free(m);
}

FL_TEST(env_by_name) {
    fl_env *e;
    CHECK_OK(fl_env_by_name("posix", &e));
    CHECK(e == fl_env_posix());
    CHECK_OK(fl_env_by_name("memory", &e));
    CHECK_STR(e->name, "memory");
    fl_env_free(e);
    CHECK_RC(fl_env_by_name("disk", &e), FL_ERR_INVALID);
}

/* ---- The fault env --------------------------------------------------------- */

static bool file_is(fl_env *env, const char *path, const char *want) {
    fl_buf b;
    fl_buf_init(&b);
    int e = fl_env_read_file(env, path, &b);
    bool ok = want ? e == 0 && b.len == strlen(want) && (b.len == 0 || memcmp(b.data, want, b.len) == 0)
                   : e == ENOENT;
    fl_buf_free(&b);
    return ok;
}

/* A crash keeps exactly what was synced: file bytes by fsync, names by a
 * sync of their directory. */
FL_TEST(env_fault_crash_keeps_only_what_was_synced) {
    fl_env *m, *f;
    CHECK_OK(fl_env_memory_new(&m));
    CHECK_OK(fl_env_fault_new(m, &f));
    const fl_env_ops *o = f->ops;
    CHECK_EQ(o->mkdir(f, "/d"), 0);
    CHECK_EQ(fl_env_write_file(f, "/d/old", "durable", 7, true), 0);
    CHECK_EQ(fl_env_write_file(f, "/d/M", "v1", 2, true), 0);
    CHECK_EQ(o->sync_dir(f, "/d"), 0);
    /* after the directory sync: a new file half synced, a replaced M, a
     * removed file -- none of which the directory has made durable */
    fl_file *h;
    CHECK_EQ(o->open(f, "/d/new", FL_OPEN_CREATE, &h), 0);
    CHECK_EQ(o->append(f, h, "abc", 3), 0);
    CHECK_EQ(o->sync(f, h), 0);
    CHECK_EQ(o->append(f, h, "def", 3), 0);
    CHECK_EQ(o->close(f, h), 0);
    CHECK_EQ(fl_env_write_file(f, "/d/M.tmp", "v2", 2, true), 0);
    CHECK_EQ(o->rename(f, "/d/M.tmp", "/d/M"), 0);
    CHECK_EQ(o->remove(f, "/d/old"), 0);
    CHECK(file_is(m, "/d/M", "v2"));
    CHECK_CONTAINS(fl_env_fault_log(f), "rename /d/M");
    CHECK_EQ(fl_env_fault_crash(f), 0);
    CHECK(file_is(m, "/d/M", "v1"));
    CHECK(file_is(m, "/d/M.tmp", NULL));
    CHECK(file_is(m, "/d/new", NULL));
    CHECK(file_is(m, "/d/old", "durable"));
    /* once the directory is synced, the names are durable; bytes only to
     * the last fsync */
    CHECK_EQ(o->open(f, "/d/new", FL_OPEN_CREATE, &h), 0);
    CHECK_EQ(o->append(f, h, "abc", 3), 0);
    CHECK_EQ(o->sync(f, h), 0);
    CHECK_EQ(o->append(f, h, "def", 3), 0);
    CHECK_EQ(o->close(f, h), 0);
    CHECK_EQ(o->sync_dir(f, "/d"), 0);
    CHECK_EQ(fl_env_fault_crash(f), 0);
    CHECK(file_is(m, "/d/new", "abc"));
    fl_env_free(f);
    fl_env_free(m);
}

FL_TEST(env_fault_fail_at_and_crash_after) {
    fl_env *m, *f;
    CHECK_OK(fl_env_memory_new(&m));
    CHECK_OK(fl_env_fault_new(m, &f));
    const fl_env_ops *o = f->ops;
    CHECK_EQ(o->mkdir(f, "/d"), 0);
    fl_env_fault_fail_at(f, fl_env_fault_ops(f) + 2, ENOSPC);   /* the write */
    fl_file *h;
    CHECK_EQ(o->open(f, "/d/x", FL_OPEN_CREATE, &h), 0);
    CHECK_EQ(o->append(f, h, "abc", 3), ENOSPC);
    CHECK_EQ(o->append(f, h, "abc", 3), 0);                    /* once only */
    CHECK_EQ(o->close(f, h), 0);
    uint64_t at = fl_env_fault_ops(f);
    fl_env_fault_crash_after(f, at + 1);
    CHECK_EQ(fl_env_write_file(f, "/d/y", "yy", 2, true), EIO);  /* created, then dead */
    CHECK(fl_env_fault_dead(f));
    CHECK_EQ(o->remove(f, "/d/x"), EIO);
    CHECK(file_is(m, "/d/x", "abc"));                           /* nothing happened */
    CHECK_EQ(fl_env_fault_crash(f), 0);
    CHECK(!fl_env_fault_dead(f));
    CHECK(file_is(m, "/d/y", NULL));
    CHECK(file_is(m, "/d/x", NULL));          /* never made durable by a dir sync */
    fl_env_free(f);
    fl_env_free(m);
}

/* crash_after(op) makes op the last operation whatever its kind -- create,
 * replace, write, fsync, rename, remove, fsync of a directory: it happens,
 * and the env is dead right after it (not one operation later, which would
 * never put a crash between an fsync and the rename it makes safe). */
FL_TEST(env_fault_crash_after_each_kind_of_operation) {
    static const char *const kinds[] = { "create", "replace", "write", "fsync", "rename", "remove",
                                         "fsync-dir" };
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        fl_env *m, *f;
        CHECK_OK(fl_env_memory_new(&m));
        CHECK_OK(fl_env_fault_new(m, &f));
        const fl_env_ops *o = f->ops;
        CHECK_EQ(o->mkdir(f, "/d"), 0);
        fl_file *h = NULL;
        if (k != 0) CHECK_EQ(o->open(f, "/d/x", FL_OPEN_CREATE, &h), 0);
        if (k >= 3) CHECK_EQ(o->append(f, h, "abc", 3), 0);
        if (h && k != 2 && k != 3) { CHECK_EQ(o->close(f, h), 0); h = NULL; }
        uint64_t last = fl_env_fault_ops(f) + 1;
        fl_env_fault_crash_after(f, last);
        CHECK(!fl_env_fault_dead(f));
        int e;
        fl_file *g = NULL;
        switch (k) {
        case 0: e = o->open(f, "/d/x", FL_OPEN_CREATE, &g); break;
        case 1: e = o->open(f, "/d/x", FL_OPEN_REPLACE, &g); break;
        case 2: e = o->append(f, h, "def", 3); break;
        case 3: e = o->sync(f, h); break;
        case 4: e = o->rename(f, "/d/x", "/d/y"); break;
        case 5: e = o->remove(f, "/d/x"); break;
        default: e = o->sync_dir(f, "/d"); break;
        }
        if (e != 0 || fl_env_fault_ops(f) != last || !fl_env_fault_dead(f))
            fl_test_fail(__FILE__, __LINE__, "crash_after at a %s: it returned %d, %llu ops, %s", kinds[k], e,
                         (unsigned long long)fl_env_fault_ops(f), fl_env_fault_dead(f) ? "dead" : "alive");
        CHECK_EQ(fl_env_write_file(f, "/d/z", "z", 1, true), EIO);   /* nothing after it */
        if (g) CHECK_EQ(o->close(f, g), 0);
        if (h) CHECK_EQ(o->close(f, h), 0);
        fl_env_free(f);
        fl_env_free(m);
    }
}

/* ---- Files the engine can trust -------------------------------------------- */

static fl_registry *reg_new(void) {
    fl_registry *r = NULL;
    CHECK_OK(fl_registry_new(&r));
    return r;
}

static int open_db(const char *dir, fl_registry *reg, fl_env *env, bool ro, fl_db **db, char *err, size_t n) {
    fl_options o;
    fl_options_init(&o);
    o.env = env;
    o.read_only = ro;
    int rc = fl_db_open(dir, reg, &o, db, err, n);
    fl_options_free(&o);
    return rc;
}

static bool has_key(fl_db *db, const char *k, const char *want) {
    fl_buf v;
    fl_buf_init(&v);
    bool found = false;
    int rc = fl_db_get(db, S(k), NULL, &v, &found);
    bool ok = rc == FL_OK && found == (want != NULL) &&
              (!want || (v.len == strlen(want) && memcmp(v.data, want, v.len) == 0));
    fl_buf_free(&v);
    return ok;
}

/* a database with two flushed SSTs in the memory env */
static void two_ssts(fl_env *env, fl_registry *reg, const char *dir) {
    fl_db *db;
    char err[512];
    CHECK_OK(open_db(dir, reg, env, false, &db, err, sizeof err));
    CHECK_OK(fl_db_put(db, S("a"), S("1")));
    CHECK_OK(fl_db_flush(db));
    CHECK_OK(fl_db_put(db, S("b"), S("2")));
    CHECK_OK(fl_db_flush(db));
    CHECK_OK(fl_db_close(db, err, sizeof err));
}

/* A memory env whose /db holds two SSTs and no MANIFEST (lost, or a
 * crash before the first commit). */
static fl_env *ssts_without_manifest(fl_registry *reg) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    two_ssts(m, reg, "/db");
    CHECK_EQ(m->ops->remove(m, "/db/MANIFEST"), 0);
    return m;
}

FL_TEST(db_refuses_ssts_without_manifest) {
    fl_registry *reg = reg_new();
    fl_env *m = ssts_without_manifest(reg);
    fl_db *db;
    char err[512] = "";
    CHECK_RC(open_db("/db", reg, m, false, &db, err, sizeof err), FL_ERR_CORRUPT);
    CHECK(db == NULL);
    CHECK_CONTAINS(err, "/db holds 2 SST files but no MANIFEST; refusing to open it as a new database");
    CHECK(file_is(m, "/db/000001.sst", NULL) == false);     /* untouched */
    fl_registry_free(reg);
    fl_env_free(m);
}

/* Asked to, the engine makes a new database beside them: its SST ids past
 * theirs, the old files untouched and not part of the tree, and every open
 * says they are there. */
FL_TEST(db_creates_anyway_beside_ssts_without_manifest) {
    fl_registry *reg = reg_new();
    fl_env *m = ssts_without_manifest(reg);
    fl_buf before;
    fl_buf_init(&before);
    CHECK_EQ(fl_env_read_file(m, "/db/000002.sst", &before), 0);
    fl_options o;
    fl_options_init(&o);
    o.env = m;
    o.create_anyway = true;
    fl_db *db;
    char err[512] = "";
    CHECK_OK(fl_db_open("/db", reg, &o, &db, err, sizeof err));
    fl_options_free(&o);
    CHECK_CONTAINS(fl_db_note(db), "/db: a new database made beside 2 SST files without a MANIFEST, kept");
    CHECK(has_key(db, "a", NULL));                      /* not part of the tree */
    CHECK_OK(fl_db_put(db, S("c"), S("3")));
    CHECK_OK(fl_db_flush(db));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK(file_is(m, "/db/000003.sst", NULL) == false);          /* past theirs */
    fl_buf after;
    fl_buf_init(&after);
    CHECK_EQ(fl_env_read_file(m, "/db/000002.sst", &after), 0);
    CHECK_MEM(after.data, after.len, before.data, before.len);   /* untouched */
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK_CONTAINS(fl_db_note(db), "2 SST files the MANIFEST does not name (the first 000001.sst) kept");
    CHECK(has_key(db, "c", "3"));
    CHECK(has_key(db, "b", NULL));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_buf_free(&before);
    fl_buf_free(&after);
    fl_registry_free(reg);
    fl_env_free(m);
}

/* The MANIFEST's text with "next_sst A" made "next_sst B", checksum
 * recomputed: a hand-edited (or restored, or forged) MANIFEST. */
static void edit_next_sst(fl_env *env, const char *path, unsigned from, unsigned to) {
    fl_buf b;
    fl_buf_init(&b);
    CHECK_EQ(fl_env_read_file(env, path, &b), 0);
    CHECK_OK(fl_buf_append(&b, "", 1) == FL_OK ? FL_OK : FL_ERR_NOMEM);
    char *text = (char *)b.data, want[32], *ck = strstr(text, "checksum ");
    snprintf(want, sizeof want, "next_sst %u\n", from);
    char *at = strstr(text, want);
    CHECK(at && ck);
    if (at && ck) {
        char out[8192];
        int n = snprintf(out, sizeof out, "%.*snext_sst %u\n%.*s", (int)(at - text), text, to,
                         (int)(ck - at - strlen(want)), at + strlen(want));
        n += snprintf(out + n, sizeof out - (size_t)n, "checksum %016llx\n",
                      (unsigned long long)XXH3_64bits(out, (size_t)n));
        CHECK_EQ(fl_env_write_file(env, path, out, (size_t)n, true), 0);
    }
    fl_buf_free(&b);
}

/* A MANIFEST whose next SST id is behind the SSTs it names: the flush
 * refuses to write over the live file that holds the id, and names it. */
FL_TEST(db_never_writes_over_an_sst) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    fl_registry *reg = reg_new();
    two_ssts(m, reg, "/db");                                  /* 000001, 000002 */
    edit_next_sst(m, "/db/MANIFEST", 3, 2);
    fl_buf before, after;
    fl_buf_init(&before);
    fl_buf_init(&after);
    CHECK_EQ(fl_env_read_file(m, "/db/000002.sst", &before), 0);
    fl_db *db;
    char err[512] = "";
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK_STR(fl_db_note(db), "");
    CHECK_OK(fl_db_put(db, S("c"), S("3")));
    CHECK_RC(fl_db_flush(db), FL_ERR_EXISTS);
    CHECK_CONTAINS(fl_db_errmsg(db), "/db/000002.sst: cannot create: the file exists");
    CHECK(has_key(db, "b", "2"));                             /* the live SST serves */
    fl_db_close(db, NULL, 0);
    CHECK_EQ(fl_env_read_file(m, "/db/000002.sst", &after), 0);
    CHECK(before.len == after.len && memcmp(before.data, after.data, before.len) == 0);
    fl_buf_free(&before);
    fl_buf_free(&after);
    fl_registry_free(reg);
    fl_env_free(m);
}

/* SSTs the MANIFEST does not name: removed at or past its next id (never
 * committed), kept below it; fl_db_note says which. */
FL_TEST(db_orphans_removed_or_kept) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    fl_registry *reg = reg_new();
    two_ssts(m, reg, "/db");                                  /* next_sst 3 */
    fl_buf sst;
    fl_buf_init(&sst);
    CHECK_EQ(fl_env_read_file(m, "/db/000001.sst", &sst), 0);
    CHECK_EQ(fl_env_write_file(m, "/db/000007.sst", sst.data, sst.len, true), 0);   /* uncommitted */
    CHECK_EQ(fl_env_write_file(m, "/db/000000.sst", sst.data, sst.len, true), 0);   /* who knows */
    fl_db *db;
    char err[512] = "";
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK_CONTAINS(fl_db_note(db), "/db: removed 1 SST file the MANIFEST never named");
    CHECK_CONTAINS(fl_db_note(db), "1 SST file the MANIFEST does not name (the first 000000.sst) kept");
    CHECK(file_is(m, "/db/000007.sst", NULL));
    CHECK(!file_is(m, "/db/000000.sst", NULL));
    CHECK(has_key(db, "a", "1") && has_key(db, "b", "2"));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_buf_free(&sst);
    fl_registry_free(reg);
    fl_env_free(m);
}

/* The LOCK file: a second open, in this process too, fails naming the
 * holder; after close it opens. */
FL_TEST(db_lock_file_names_the_holder) {
    fl_registry *reg = reg_new();
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    fl_db *db, *db2;
    char err[4400] = "", want[128];
    CHECK_OK(open_db(dir, reg, NULL, false, &db, err, sizeof err));
    CHECK_RC(open_db(dir, reg, NULL, false, &db2, err, sizeof err), FL_ERR_EXISTS);
    snprintf(want, sizeof want, "the database is open in this process (pid %ld)", (long)getpid());
    CHECK_CONTAINS(err, want);
    CHECK_RC(open_db(dir, reg, NULL, true, &db2, err, sizeof err), FL_ERR_EXISTS);   /* readers too */
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK_OK(open_db(dir, reg, NULL, false, &db, err, sizeof err));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_registry_free(reg);
}

/* Read-only: reads work, writes are refused, and neither open nor close
 * writes the MANIFEST (its inode stays); a read-write close that changed
 * nothing does not rewrite it either. */
FL_TEST(db_read_only_never_writes) {
    fl_registry *reg = reg_new();
    char dir[4200], man[4300];
    snprintf(dir, sizeof dir, "%s/db", fl_test_tmpdir());
    snprintf(man, sizeof man, "%s/MANIFEST", dir);
    two_ssts(fl_env_posix(), reg, dir);
    struct stat st0, st1;
    CHECK(stat(man, &st0) == 0);
    fl_db *db;
    char err[4400] = "";
    CHECK_OK(open_db(dir, reg, NULL, false, &db, err, sizeof err));
    CHECK(has_key(db, "a", "1"));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK(stat(man, &st1) == 0 && st1.st_ino == st0.st_ino);
    CHECK_OK(open_db(dir, reg, NULL, true, &db, err, sizeof err));
    CHECK(has_key(db, "a", "1") && has_key(db, "b", "2"));
    CHECK_RC(fl_db_put(db, S("c"), S("3")), FL_ERR_INVALID);
    CHECK_CONTAINS(fl_db_errmsg(db), "is open read-only (as asked)");
    CHECK_RC(fl_db_compact(db, true), FL_ERR_INVALID);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK(stat(man, &st1) == 0 && st1.st_ino == st0.st_ino);
    /* a read-only open of a directory with no database is an error, not a
     * new database */
    char none[4300];
    snprintf(none, sizeof none, "%s/none", fl_test_tmpdir());
    CHECK(mkdir(none, 0755) == 0);
    CHECK_RC(open_db(none, reg, NULL, true, &db, err, sizeof err), FL_ERR_INVALID);
    CHECK_CONTAINS(err, "no database here (no MANIFEST), and it is opened read-only");
    fl_registry_free(reg);
}

/* A directory without write permission (the memory env's, as root cannot
 * make one on disk) opens for reads without being asked: reads work, a
 * write is refused saying why, and close writes nothing -- any write there
 * would fail with EACCES. */
FL_TEST(db_in_a_read_only_directory) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    fl_registry *reg = reg_new();
    two_ssts(m, reg, "/db");
    fl_buf before, after;
    fl_buf_init(&before);
    fl_buf_init(&after);
    CHECK_EQ(fl_env_read_file(m, "/db/MANIFEST", &before), 0);
    CHECK_EQ(fl_env_memory_set_read_only(m, "/db", true), 0);
    CHECK_EQ(m->ops->writable(m, "/db"), EACCES);
    CHECK_EQ(fl_env_write_file(m, "/db/x", "x", 1, false), EACCES);   /* the env refuses */
    fl_db *db;
    char err[512] = "";
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK(has_key(db, "a", "1") && has_key(db, "b", "2"));
    CHECK_RC(fl_db_put(db, S("c"), S("3")), FL_ERR_INVALID);
    CHECK_CONTAINS(fl_db_errmsg(db), "its directory is not writable");
    CHECK_RC(fl_db_compact(db, true), FL_ERR_INVALID);
    CHECK_OK(fl_db_close(db, err, sizeof err));
    CHECK_EQ(fl_env_read_file(m, "/db/MANIFEST", &after), 0);
    CHECK_MEM(after.data, after.len, before.data, before.len);
    /* writable again: an ordinary open, which may write */
    CHECK_EQ(fl_env_memory_set_read_only(m, "/db", false), 0);
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK_OK(fl_db_put(db, S("c"), S("3")));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    fl_buf_free(&before);
    fl_buf_free(&after);
    fl_registry_free(reg);
    fl_env_free(m);
}

/* An I/O error at any operation of a flush (ENOSPC, EIO): a clear error
 * naming the file and the OS's reason; the database reopens in its last
 * committed state, with nothing committed lost. */
FL_TEST(db_io_errors_name_the_file_and_lose_nothing) {
    fl_registry *reg = reg_new();
    static const int errs[] = { ENOSPC, EIO };
    for (int k = 0; k < 2; k++) {
        for (uint64_t at = 1;; at++) {
            fl_env *m, *f;
            CHECK_OK(fl_env_memory_new(&m));
            CHECK_OK(fl_env_fault_new(m, &f));
            fl_db *db;
            char err[512] = "";
            CHECK_OK(open_db("/db", reg, f, false, &db, err, sizeof err));
            CHECK_OK(fl_db_put(db, S("a"), S("1")));
            CHECK_OK(fl_db_flush(db));                        /* committed */
            CHECK_OK(fl_db_put(db, S("b"), S("2")));
            uint64_t base = fl_env_fault_ops(f);
            fl_env_fault_fail_at(f, base + at, errs[k]);
            int rc = fl_db_flush(db);
            bool past = fl_env_fault_ops(f) < base + at;      /* the flush did fewer ops */
            if (!past) {
                CHECK(rc != FL_OK);
                if (rc != FL_OK) {                        /* the op, the file, why */
                    const char *msg = fl_db_errmsg(db);
                    CHECK(strstr(msg, "/db/000002.sst: cannot create") || strstr(msg, "/db/000002.sst: cannot write") ||
                          strstr(msg, "/db/000002.sst: writing SST failed") ||
                          strstr(msg, "/db/MANIFEST.tmp: cannot write") || strstr(msg, "/db/MANIFEST.tmp: cannot rename") ||
                          strstr(msg, "/db: cannot sync the directory"));
                    CHECK_CONTAINS(msg, strerror(errs[k]));
                }
            }
            fl_db_close(db, NULL, 0);
            fl_env_fault_fail_at(f, 0, 0);
            CHECK_OK(open_db("/db", reg, f, false, &db, err, sizeof err));
            if (db) {
                CHECK(has_key(db, "a", "1"));
                if (past) CHECK(has_key(db, "b", "2"));
                fl_db_close(db, NULL, 0);
            }
            fl_env_free(f);
            fl_env_free(m);
            if (past) break;
        }
    }
    fl_registry_free(reg);
}

/* The same for a compaction: an error at any of its file operations (the
 * new SSTs, the MANIFEST, removing the inputs), after which the process
 * ends, loses nothing committed -- the inputs are removed only once the
 * MANIFEST without them is. */
FL_TEST(db_compaction_errors_lose_nothing) {
    fl_registry *reg = reg_new();
    unsigned points = 0;
    for (uint64_t at = 1;; at++) {
        fl_env *m, *f;
        CHECK_OK(fl_env_memory_new(&m));
        CHECK_OK(fl_env_fault_new(m, &f));
        fl_db *db;
        char err[512] = "";
        CHECK_OK(open_db("/db", reg, f, false, &db, err, sizeof err));
        CHECK_OK(fl_db_put(db, S("a"), S("1")));
        CHECK_OK(fl_db_flush(db));
        CHECK_OK(fl_db_put(db, S("b"), S("2")));
        CHECK_OK(fl_db_flush(db));
        uint64_t base = fl_env_fault_ops(f);
        fl_env_fault_fail_at(f, base + at, ENOSPC);
        int rc = fl_db_compact(db, true);
        bool past = fl_env_fault_ops(f) < base + at;
        if (!past) {
            points++;
            CHECK(rc != FL_OK);
            if (rc) CHECK_CONTAINS(fl_db_errmsg(db), strerror(ENOSPC));
        }
        fl_db_abandon(db);                       /* the process ends there */
        fl_env_fault_fail_at(f, 0, 0);
        CHECK_OK(open_db("/db", reg, f, false, &db, err, sizeof err));
        if (db) {
            CHECK(has_key(db, "a", "1") && has_key(db, "b", "2"));
            fl_db_close(db, NULL, 0);
        }
        fl_env_free(f);
        fl_env_free(m);
        if (past) break;
    }
    CHECK(points >= 5);
    fl_registry_free(reg);
}

/* Each SST carries its id and its database's identity: a valid SST under
 * another SST's name, or one from another database, is refused at open with
 * FL_ERR_CORRUPT naming what the file is and what the MANIFEST says. */
FL_TEST(db_refuses_an_sst_that_is_not_the_one_named) {
    fl_env *m;
    CHECK_OK(fl_env_memory_new(&m));
    fl_registry *reg = reg_new();
    two_ssts(m, reg, "/db");                                  /* 000001: a, 000002: b */
    fl_buf one, two;
    fl_buf_init(&one);
    fl_buf_init(&two);
    CHECK_EQ(fl_env_read_file(m, "/db/000001.sst", &one), 0);
    CHECK_EQ(fl_env_read_file(m, "/db/000002.sst", &two), 0);
    CHECK_EQ(fl_env_write_file(m, "/db/000001.sst", two.data, two.len, true), 0);    /* swapped */
    CHECK_EQ(fl_env_write_file(m, "/db/000002.sst", one.data, one.len, true), 0);
    fl_db *db;
    char err[1024] = "";
    CHECK_RC(open_db("/db", reg, m, false, &db, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "not the SST the MANIFEST names: the file is SST 1 of database");
    CHECK_CONTAINS(err, "keys [a, a], 1 entry, 0 range tombstones; the MANIFEST says SST 2 of database");
    /* the same name and the same keys, but another database's file */
    CHECK_EQ(fl_env_write_file(m, "/db/000001.sst", one.data, one.len, true), 0);
    CHECK_EQ(fl_env_write_file(m, "/db/000002.sst", two.data, two.len, true), 0);
    CHECK_OK(open_db("/db", reg, m, false, &db, err, sizeof err));
    CHECK_OK(fl_db_close(db, err, sizeof err));
    two_ssts(m, reg, "/other");
    fl_buf other;
    fl_buf_init(&other);
    CHECK_EQ(fl_env_read_file(m, "/other/000001.sst", &other), 0);
    CHECK_EQ(fl_env_write_file(m, "/db/000001.sst", other.data, other.len, true), 0);
    CHECK_RC(open_db("/db", reg, m, false, &db, err, sizeof err), FL_ERR_CORRUPT);
    CHECK_CONTAINS(err, "/db/000001.sst: not the SST the MANIFEST names");
    fl_buf_free(&one);
    fl_buf_free(&two);
    fl_buf_free(&other);
    fl_registry_free(reg);
    fl_env_free(m);
}
