// leveldb_shim.cc -- leveldb_shim.h in C++: an Env that runs LevelDB's
// background jobs so that each call ends with none pending, a WritableFile
// without fsync, counted filter policies, and the DB calls the engine
// needs.  The only C++ in filterlab: LevelDB's C API has no Env of one's
// own, no way to count its built-in bloom's answers, and no flush.
#include "leveldb_shim.h"

#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>
#include <xxhash.h>

#include <pthread.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

char *dup_string(const std::string &s) {
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p) std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

int fail(const leveldb::Status &s, const char *what, char **err) {
    if (err) *err = dup_string(std::string("LevelDB ") + what + ": " + s.ToString());
    return -1;
}

// Sync() only flushes: for throwaway databases.
class NoSyncFile : public leveldb::WritableFile {
  public:
    explicit NoSyncFile(leveldb::WritableFile *f) : f_(f) {}
    ~NoSyncFile() override { delete f_; }
    leveldb::Status Append(const leveldb::Slice &d) override { return f_->Append(d); }
    leveldb::Status Close() override { return f_->Close(); }
    leveldb::Status Flush() override { return f_->Flush(); }
    leveldb::Status Sync() override { return f_->Flush(); }

  private:
    leveldb::WritableFile *f_;
};

// Every scheduled job in a thread of its own; Quiesce() waits until none is
// pending and joins them all.  LevelDB schedules at most one compaction at
// a time, and a job schedules the next before it returns, so "none
// pending" means LevelDB has nothing more to do.
class QuietEnv : public leveldb::EnvWrapper {
  public:
    QuietEnv(leveldb::Env *base, bool sync) : leveldb::EnvWrapper(base), sync_(sync) {
        pthread_mutex_init(&mu_, nullptr);
        pthread_cond_init(&cv_, nullptr);
    }
    ~QuietEnv() override {
        Quiesce();
        pthread_cond_destroy(&cv_);
        pthread_mutex_destroy(&mu_);
    }

    void Schedule(void (*fn)(void *), void *arg) override {
        Job *j = new Job{ this, fn, arg };
        pthread_mutex_lock(&mu_);
        pending_++;
        pthread_t t;
        if (pthread_create(&t, nullptr, Run, j) != 0) {
            // no thread to be had: run it here, as LevelDB would have in its one
            pthread_mutex_unlock(&mu_);
            Run(j);
            return;
        }
        threads_.push_back(t);
        pthread_mutex_unlock(&mu_);
    }

    void Quiesce() {
        pthread_mutex_lock(&mu_);
        while (pending_ > 0) pthread_cond_wait(&cv_, &mu_);
        std::vector<pthread_t> ts;
        ts.swap(threads_);
        pthread_mutex_unlock(&mu_);
        for (pthread_t t : ts) pthread_join(t, nullptr);
    }

    leveldb::Status NewWritableFile(const std::string &f, leveldb::WritableFile **r) override {
        leveldb::Status s = target()->NewWritableFile(f, r);
        if (s.ok() && !sync_) *r = new NoSyncFile(*r);
        return s;
    }
    leveldb::Status NewAppendableFile(const std::string &f, leveldb::WritableFile **r) override {
        leveldb::Status s = target()->NewAppendableFile(f, r);
        if (s.ok() && !sync_) *r = new NoSyncFile(*r);
        return s;
    }

  private:
    struct Job {
        QuietEnv *env;
        void (*fn)(void *);
        void *arg;
    };
    static void *Run(void *p) {
        Job *j = static_cast<Job *>(p);
        j->fn(j->arg);
        QuietEnv *e = j->env;
        delete j;
        pthread_mutex_lock(&e->mu_);
        if (--e->pending_ == 0) pthread_cond_broadcast(&e->cv_);
        pthread_mutex_unlock(&e->mu_);
        return nullptr;
    }

    bool sync_;
    pthread_mutex_t mu_;
    pthread_cond_t cv_;
    int pending_ = 0;
    std::vector<pthread_t> threads_;
};

}  // namespace

// ---- Policies -----------------------------------------------------------------

struct fl_ldb_policy : public leveldb::FilterPolicy {
    const leveldb::FilterPolicy *bloom = nullptr;     // LevelDB's own, or
    fl_ldb_policy_fns fns{};                          // C callbacks
    std::string name;
    fl_ldb_counts *counts = nullptr;

    ~fl_ldb_policy() override { delete bloom; }
    const char *Name() const override { return bloom ? bloom->Name() : name.c_str(); }
    void CreateFilter(const leveldb::Slice *keys, int n, std::string *dst) const override {
        if (bloom) {
            bloom->CreateFilter(keys, n, dst);
            return;
        }
        std::vector<const char *> k(n > 0 ? n : 1);
        std::vector<size_t> l(n > 0 ? n : 1);
        for (int i = 0; i < n; i++) {
            k[i] = keys[i].data();
            l[i] = keys[i].size();
        }
        char *out = nullptr;
        size_t len = 0;
        fns.create(fns.arg, k.data(), l.data(), n, &out, &len);
        if (out) dst->append(out, len);
        std::free(out);
    }
    bool KeyMayMatch(const leveldb::Slice &key, const leveldb::Slice &filter) const override {
        bool m = bloom ? bloom->KeyMayMatch(key, filter)
                       : fns.may_match(fns.arg, key.data(), key.size(), filter.data(), filter.size()) != 0;
        if (counts) {
            (m ? counts->positive : counts->negative)++;
            if (counts->nprobes < FL_LDB_PROBES)
                counts->probes[counts->nprobes] = { XXH3_64bits(filter.data(), filter.size()), filter.size(), m };
            counts->nprobes++;
        }
        return m;
    }
};

extern "C" fl_ldb_policy *fl_ldb_policy_bloom(int bits_per_key, fl_ldb_counts *counts) {
    fl_ldb_policy *p = new fl_ldb_policy;
    p->bloom = leveldb::NewBloomFilterPolicy(bits_per_key);
    p->counts = counts;
    return p;
}

extern "C" fl_ldb_policy *fl_ldb_policy_custom(const char *name, const fl_ldb_policy_fns *fns,
                                               fl_ldb_counts *counts) {
    fl_ldb_policy *p = new fl_ldb_policy;
    p->name = name;
    p->fns = *fns;
    p->counts = counts;
    return p;
}

extern "C" void fl_ldb_policy_free(fl_ldb_policy *p) { delete p; }

// ---- The database -------------------------------------------------------------

struct fl_ldb {
    QuietEnv *env = nullptr;
    leveldb::DB *db = nullptr;
};

struct fl_ldb_iter {
    fl_ldb *db;
    leveldb::Iterator *it;
};

extern "C" int fl_ldb_open(const char *dir, const fl_ldb_config *cfg, fl_ldb **out, char **err) {
    *out = nullptr;
    fl_ldb *d = new fl_ldb;
    d->env = new QuietEnv(leveldb::Env::Default(), cfg->sync != 0);
    leveldb::Options o;
    o.create_if_missing = true;
    o.env = d->env;
    o.compression = leveldb::kNoCompression;
    o.filter_policy = cfg->policy;
    o.block_size = cfg->block_size;
    o.block_restart_interval = cfg->block_restart_interval;
    o.write_buffer_size = cfg->write_buffer_size;
    o.max_file_size = cfg->max_file_size;
    o.paranoid_checks = cfg->paranoid_checks != 0;
    leveldb::Status s = leveldb::DB::Open(o, dir, &d->db);
    d->env->Quiesce();
    if (!s.ok()) {
        delete d->env;
        delete d;
        return fail(s, "open", err);
    }
    *out = d;
    return 0;
}

extern "C" void fl_ldb_close(fl_ldb *d) {
    if (!d) return;
    d->env->Quiesce();
    delete d->db;
    delete d->env;
    delete d;
}

extern "C" int fl_ldb_put(fl_ldb *d, const char *k, size_t kl, const char *v, size_t vl, char **err) {
    leveldb::Status s = d->db->Put(leveldb::WriteOptions(), leveldb::Slice(k, kl), leveldb::Slice(v, vl));
    d->env->Quiesce();
    return s.ok() ? 0 : fail(s, "put", err);
}

extern "C" int fl_ldb_delete(fl_ldb *d, const char *k, size_t kl, char **err) {
    leveldb::Status s = d->db->Delete(leveldb::WriteOptions(), leveldb::Slice(k, kl));
    d->env->Quiesce();
    return s.ok() ? 0 : fail(s, "delete", err);
}

extern "C" int fl_ldb_get(fl_ldb *d, const char *k, size_t kl, char **val, size_t *vl, int *found, char **err) {
    std::string v;
    *val = nullptr;
    *vl = 0;
    *found = 0;
    leveldb::Status s = d->db->Get(leveldb::ReadOptions(), leveldb::Slice(k, kl), &v);
    d->env->Quiesce();
    if (s.IsNotFound()) return 0;
    if (!s.ok()) return fail(s, "get", err);
    *val = static_cast<char *>(std::malloc(v.size() ? v.size() : 1));
    if (!*val) {
        if (err) *err = dup_string("out of memory");
        return -1;
    }
    std::memcpy(*val, v.data(), v.size());
    *vl = v.size();
    *found = 1;
    return 0;
}

extern "C" int fl_ldb_flush(fl_ldb *d, char **err) {
    leveldb::Slice empty("", 0);
    d->db->CompactRange(nullptr, &empty);
    d->env->Quiesce();
    (void)err;                   // CompactRange reports nothing
    return 0;
}

extern "C" int fl_ldb_compact(fl_ldb *d, char **err) {
    d->db->CompactRange(nullptr, nullptr);
    d->env->Quiesce();
    (void)err;
    return 0;
}

extern "C" char *fl_ldb_property(fl_ldb *d, const char *name) {
    std::string v;
    if (!d->db->GetProperty(name, &v)) return nullptr;
    return dup_string(v);
}

extern "C" fl_ldb_iter *fl_ldb_iter_new(fl_ldb *d) {
    return new fl_ldb_iter{ d, d->db->NewIterator(leveldb::ReadOptions()) };
}

extern "C" void fl_ldb_iter_seek(fl_ldb_iter *i, const char *k, size_t kl) { i->it->Seek(leveldb::Slice(k, kl)); }
extern "C" void fl_ldb_iter_seek_to_last(fl_ldb_iter *i) { i->it->SeekToLast(); }
extern "C" int fl_ldb_iter_valid(const fl_ldb_iter *i) { return i->it->Valid(); }
extern "C" void fl_ldb_iter_next(fl_ldb_iter *i) { i->it->Next(); }
extern "C" void fl_ldb_iter_prev(fl_ldb_iter *i) { i->it->Prev(); }

extern "C" const char *fl_ldb_iter_key(const fl_ldb_iter *i, size_t *len) {
    leveldb::Slice s = i->it->key();
    *len = s.size();
    return s.data();
}

extern "C" const char *fl_ldb_iter_value(const fl_ldb_iter *i, size_t *len) {
    leveldb::Slice s = i->it->value();
    *len = s.size();
    return s.data();
}

extern "C" int fl_ldb_iter_free(fl_ldb_iter *i, char **err) {
    leveldb::Status s = i->it->status();
    delete i->it;
    i->db->env->Quiesce();
    delete i;
    return s.ok() ? 0 : fail(s, "iterator", err);
}

extern "C" void fl_ldb_free(void *p) { std::free(p); }
