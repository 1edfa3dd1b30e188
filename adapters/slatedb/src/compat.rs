//! The places where the SlateDB the adapter is built against makes a
//! difference: 0.18.0 by default, 0.14.1 with the cargo feature
//! `slatedb-0-14` (main.rs then names `slatedb014` `slatedb`), which is there
//! to show bugs fixed since 0.14.1 (slatedb#1966, fixed by PR #1969 in
//! 0.15.0: a bloom with whole-key filtering off, over an SST none of whose
//! keys has a prefix, is 0 bits, and probing it divides by zero at
//! slatedb-0.14.1/src/filter.rs:208). Every other file is the same for both.
//!
//! Besides these, plugin.rs leaves out `FilterPolicy::supports_prefix_queries`
//! and `supports_range_queries` on 0.14.1 (not in its trait: it asks every
//! filter on a prefix read, and never on a range).

pub use imp::*;

use crate::spec::Target;

#[cfg(not(feature = "slatedb-0-14"))]
mod imp {
    use std::time::Duration;

    use slatedb::admin::Admin;
    use slatedb::bytes::Bytes;
    use slatedb::config::{
        CompactionWorkerOptions, CompactorOptions, Settings, SstBlockSize, WriteOptions,
    };
    use slatedb::manifest::{SortedRun, SsTableId, SsTableView};
    use slatedb::object_store::path::Path;
    use slatedb::{
        CompactorBuilder, Db, FilterQuery, FilterTarget, PathResolver, VersionedManifest,
    };

    use super::Target;

    /// The release linked, as `hello` reports it.
    pub const VERSION: &str = "0.18.0";
    /// Its series, as messages name it.
    pub const SERIES: &str = "0.18";

    /// A write's options: 0.18's writes return before durability (the
    /// adapter writes no WAL, and flushes itself).
    pub fn write_options() -> WriteOptions {
        WriteOptions::default()
    }

    /// The settings only this release has.
    pub fn settings(s: Settings) -> Settings {
        Settings {
            default_ttl_millis: None,
            object_store_max_retries: Some(3),
            ..s
        }
    }

    /// The compactor options only this release has.
    pub fn compactor_options(c: CompactorOptions) -> CompactorOptions {
        CompactorOptions {
            enable_trivial_move: false,
            enable_experimental_incremental_compaction: false,
            object_store_max_retries: Some(3),
            ..c
        }
    }

    /// The compaction worker options only this release has, and the
    /// heartbeat.
    pub fn worker_options(
        w: CompactionWorkerOptions,
        heartbeat: Duration,
    ) -> CompactionWorkerOptions {
        CompactionWorkerOptions {
            heartbeat_interval: heartbeat,
            object_store_max_retries: Some(3),
            ..w
        }
    }

    /// The block size of the SSTs the compactor writes.
    pub fn compactor_block_size<P: Into<Path>>(
        b: CompactorBuilder<P>,
        size: SstBlockSize,
    ) -> CompactorBuilder<P> {
        b.with_sst_block_size(size)
    }

    /// A filter query's key or prefix; None for a range query (which the
    /// adapter's plugin filters do not support).
    pub fn query_target(q: &FilterQuery) -> Option<(Target, &Bytes)> {
        match &q.target {
            FilterTarget::Point(key) => Some((Target::Point, key)),
            FilterTarget::Prefix(prefix) => Some((Target::Prefix, prefix)),
            FilterTarget::Range { .. } => None,
        }
    }

    /// A sorted run's SSTs, in key order.
    pub fn sst_views(run: &SortedRun) -> &[SsTableView] {
        run.sst_views()
    }

    /// The object path of an SST.
    pub fn sst_path(root: &Path, manifest: &VersionedManifest, sst: &SsTableId) -> Path {
        PathResolver::new(root.clone(), manifest).sst_path(sst)
    }

    /// The manifest whose L0 view ids and sorted run ids a compaction spec
    /// names: the database's own.
    pub async fn compaction_manifest(
        db: &Db,
        _admin: &Admin,
    ) -> Result<VersionedManifest, slatedb::Error> {
        Ok(db.manifest())
    }
}

#[cfg(feature = "slatedb-0-14")]
mod imp {
    use std::time::Duration;

    use slatedb::admin::Admin;
    use slatedb::bytes::Bytes;
    use slatedb::config::{
        CompactionWorkerOptions, CompactorOptions, Settings, SstBlockSize, WriteOptions,
    };
    use slatedb::manifest::{SortedRun, SsTableId, SsTableView};
    use slatedb::object_store::path::Path;
    use slatedb::{CompactorBuilder, Db, FilterQuery, PrefixTarget, VersionedManifest};

    use super::Target;

    /// The release linked, as `hello` reports it.
    pub const VERSION: &str = "0.14.1";
    /// Its series, as messages name it.
    pub const SERIES: &str = "0.14";

    /// A write's options: 0.14.1's default waits for durability
    /// (`await_durable: true`), which never comes without a WAL until a
    /// flush; the adapter flushes itself.
    pub fn write_options() -> WriteOptions {
        WriteOptions {
            await_durable: false,
            ..WriteOptions::default()
        }
    }

    /// The settings only this release has (no `object_store_max_retries`).
    pub fn settings(s: Settings) -> Settings {
        Settings {
            default_ttl: None,
            ..s
        }
    }

    /// 0.14.1 has neither trivial moves nor incremental compaction to turn
    /// off, nor `object_store_max_retries`.
    pub fn compactor_options(c: CompactorOptions) -> CompactorOptions {
        c
    }

    /// The heartbeat (0.14.1: `heartbeat_min_interval`).
    pub fn worker_options(
        w: CompactionWorkerOptions,
        heartbeat: Duration,
    ) -> CompactionWorkerOptions {
        CompactionWorkerOptions {
            heartbeat_min_interval: heartbeat,
            ..w
        }
    }

    /// Not applied: 0.14.1's `CompactorBuilder` has no
    /// `with_sst_block_size`, and its compactor writes 4 KiB blocks
    /// (`SstBlockSize::default()`), whatever `block_bytes` says. (Its
    /// compactor also ignores `CompactionWorkerOptions::min_filter_keys`, a
    /// bug fixed only in 0.18.0.)
    pub fn compactor_block_size<P: Into<Path>>(
        b: CompactorBuilder<P>,
        _size: SstBlockSize,
    ) -> CompactorBuilder<P> {
        b
    }

    /// A filter query's key or prefix (0.14.1 has no range queries).
    pub fn query_target(q: &FilterQuery) -> Option<(Target, &Bytes)> {
        match &q.target {
            PrefixTarget::Point(key) => Some((Target::Point, key)),
            PrefixTarget::Prefix(prefix) => Some((Target::Prefix, prefix)),
        }
    }

    /// A sorted run's SSTs, in key order (a field in 0.14.1).
    pub fn sst_views(run: &SortedRun) -> &[SsTableView] {
        &run.sst_views
    }

    /// The object path of an SST: 0.14.1's `PathResolver` is crate-private;
    /// its `table_path` without external SSTs (slatedb-0.14.1/src/paths.rs).
    pub fn sst_path(root: &Path, _manifest: &VersionedManifest, sst: &SsTableId) -> Path {
        match sst {
            SsTableId::Wal(id) => Path::from(format!("{root}/wal/{id:020}.sst")),
            SsTableId::Compacted(ulid) => Path::from(format!("{root}/compacted/{ulid}.sst")),
        }
    }

    /// The manifest whose L0 view ids and sorted run ids a compaction spec
    /// names: the stored one, read by the admin client. 0.14.1's `Db` holds
    /// L0 view ids of its own, which its compactor rejects ("compaction
    /// source missing from db state"; fixed by PR #1957 in 0.15.0).
    pub async fn compaction_manifest(
        db: &Db,
        admin: &Admin,
    ) -> Result<VersionedManifest, slatedb::Error> {
        Ok(match admin.read_manifest(None).await? {
            Some(m) => m,
            None => db.manifest(),
        })
    }
}
