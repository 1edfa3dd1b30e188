//! One open SlateDB database and the calls each request makes into it.
//!
//! The database runs on a local file system object store rooted at the
//! request's DIR (store.rs), inside the adapter's current-thread tokio
//! runtime, which only runs while a request is being answered. Nothing in the
//! background decides anything: no WAL (every write goes to the memtable), no
//! flush timer, a memtable SlateDB never freezes by itself (the adapter
//! flushes at `memtable_bytes`), no garbage collector, and a compactor whose
//! scheduler proposes nothing, so that the only compactions are the ones a
//! `compact` request submits and waits for.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use slatedb::admin::Admin;
use slatedb::bytes::Bytes;
use slatedb::compactor::{
    CompactionScheduler, CompactionSchedulerSupplier, CompactionSpec, CompactionStatus, Compactor,
    CompactorBuilder, CompactorStateView, SourceId,
};
use slatedb::config::{
    CompactionWorkerOptions, CompactorOptions, FlushOptions, FlushType, PutOptions, ReadOptions,
    ScanOptions, Settings, SstBlockSize,
};
use slatedb::db_stats::{
    FILTER_KIND_LABEL, SST_FILTER_FALSE_POSITIVE_COUNT, SST_FILTER_NEGATIVE_COUNT,
    SST_FILTER_POSITIVE_COUNT,
};
use slatedb::manifest::{SsTableId, SsTableView};
use slatedb::object_store::local::LocalFileSystem;
use slatedb::object_store::path::Path;
use slatedb::object_store::ObjectStore;
use slatedb::{
    BloomFilterPolicy, Db, DbIterator, FilterContext, FilterPolicy, IterationOrder,
    PrefixExtractor, PrefixTarget, SstReader, VersionedManifest,
};
use slatedb_common::metrics::{DefaultMetricsRecorder, MetricValue};

use crate::compat;
use crate::options::Options;
use crate::probes;
use crate::spec::{Extractor, Policy, Target};
use crate::store::SyncLocalStore;
use crate::Failure;

/// Seeds of the database's, the compactor's and the admin client's random
/// numbers (SST and compaction ULIDs): fixed, plus the number of opens before
/// in this process, so that two opens never draw the same ids.
const SEED: u64 = 0x66_6c_2d_73_6c_61_74_65;

impl From<slatedb::Error> for Failure {
    fn from(e: slatedb::Error) -> Self {
        let kind = match e.kind() {
            slatedb::ErrorKind::Data => "corrupt",
            _ => "io",
        };
        Failure::new(kind, format!("SlateDB: {e}"))
    }
}

/// A filterlab extractor as SlateDB's `PrefixExtractor`.
struct FlExtractor {
    extractor: Extractor,
    name: String,
}

impl PrefixExtractor for FlExtractor {
    fn name(&self) -> &str {
        &self.name
    }

    fn prefix_len(&self, target: &PrefixTarget) -> Option<usize> {
        match target {
            PrefixTarget::Point(k) => self.extractor.prefix_len(Target::Point, k),
            PrefixTarget::Prefix(p) => self.extractor.prefix_len(Target::Prefix, p),
        }
    }
}

/// For each spec in order: `BloomFilterPolicy::new(bits)` with the spec's
/// extractor (a plugin's as it is) and whole-key setting, or the plugin's
/// policy. SlateDB names them itself; a name other than filterlab's is an
/// error. Each is wrapped in `probes::Logged`, which changes nothing of it
/// but logs its filters' probes.
fn filter_policies(list: &[Policy]) -> Result<Vec<Arc<dyn FilterPolicy>>, Failure> {
    list.iter()
        .map(|p| {
            let policy: Arc<dyn FilterPolicy> = match p {
                Policy::Plugin(plugin) => plugin.clone(),
                Policy::Bloom(b) => {
                    let mut policy = BloomFilterPolicy::new(b.bits);
                    match &b.extractor {
                        Some(Extractor::Plugin(e)) => {
                            policy = policy.with_prefix_extractor(e.clone());
                        }
                        Some(e) => {
                            policy = policy.with_prefix_extractor(Arc::new(FlExtractor {
                                extractor: e.clone(),
                                name: e.name(),
                            }));
                        }
                        None => {}
                    }
                    Arc::new(policy.with_whole_key_filtering(b.whole_key))
                }
            };
            if policy.name() != p.name() {
                return Err(Failure::io(format!(
                    "SlateDB named the policy {:?}, filterlab's naming rule gives {:?}",
                    policy.name(),
                    p.name()
                )));
            }
            // its decoded filters log their probes (`get` reports them)
            Ok(probes::logged(policy))
        })
        .collect()
}

fn block_size(bytes: u64) -> SstBlockSize {
    match bytes {
        1024 => SstBlockSize::Block1Kib,
        2048 => SstBlockSize::Block2Kib,
        8192 => SstBlockSize::Block8Kib,
        16384 => SstBlockSize::Block16Kib,
        32768 => SstBlockSize::Block32Kib,
        65536 => SstBlockSize::Block64Kib,
        _ => SstBlockSize::Block4Kib,
    }
}

/// The compactor's scheduler: it never proposes a compaction, and accepts
/// every submitted one that SlateDB's own checks accept.
struct ManualOnly;

impl CompactionScheduler for ManualOnly {
    fn propose(&self, _state: &CompactorStateView) -> Vec<CompactionSpec> {
        Vec::new()
    }
}

impl CompactionSchedulerSupplier for ManualOnly {
    fn compaction_scheduler(
        &self,
        _options: &CompactorOptions,
    ) -> Box<dyn CompactionScheduler + Send + Sync> {
        Box::new(ManualOnly)
    }
}

/// The small ids filterlab sees for SlateDB's SST ULIDs: 1, 2, 3, ... in
/// the order the SSTs first appear in this process.
#[derive(Default)]
pub struct SstIds {
    ids: HashMap<SsTableId, u64>,
    ulids: HashMap<u64, SsTableId>,
}

impl SstIds {
    /// The SST's id, a new one when it is first seen; true when it is new.
    fn note(&mut self, sst: SsTableId) -> (u64, bool) {
        if let Some(&id) = self.ids.get(&sst) {
            return (id, false);
        }
        let id = self.ids.len() as u64 + 1;
        self.ids.insert(sst, id);
        self.ulids.insert(id, sst);
        (id, true)
    }
}

/// Counts the adapter keeps of what SlateDB did since the open.
#[derive(Default)]
struct Counts {
    flushes: u64,
    compactions: u64,
    ssts_written: u64,
}

/// A live SST in read order.
pub struct LiveSst {
    pub id: u64,
    pub level: usize,
    pub view: SsTableView,
}

pub struct Session {
    db: Db,
    compactor: Compactor,
    compactor_task: tokio::task::JoinHandle<Result<(), slatedb::Error>>,
    admin: Admin,
    store: Arc<SyncLocalStore>,
    root: Path,
    pub options: Options,
    recorder: Arc<DefaultMetricsRecorder>,
    /// Bytes written since the last flush, as filterlab's memtable counts.
    unflushed: u64,
    counts: Counts,
    /// SlateDB's filter counters, attributed to the requests that moved them.
    filters: Attributed,
    /// Compactor restarts by set_options (their seeds differ).
    restarts: u64,
}

/// SlateDB's three filter counters of one kind (`db_stats.rs`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Probes {
    pub positive: u64,
    pub negative: u64,
    pub false_positive: u64,
}

impl Probes {
    fn minus(self, o: Probes) -> Probes {
        Probes {
            positive: self.positive.saturating_sub(o.positive),
            negative: self.negative.saturating_sub(o.negative),
            false_positive: self.false_positive.saturating_sub(o.false_positive),
        }
    }
    fn add(&mut self, o: Probes) {
        self.positive += o.positive;
        self.negative += o.negative;
        self.false_positive += o.false_positive;
    }
}

/// The filter counters as filterlab means them (docs/slatedb.md,
/// "Counters"): SlateDB counts, as point probes, the probes a range read
/// makes of an SST whose part of its range is one key (`sst_iter.rs:118-123`,
/// `:994`); those are kept apart here (`range_point`), so that `point` holds
/// the probes of gets alone and `prefix` those of prefix reads.
#[derive(Clone, Copy, Default, Debug)]
struct Attributed {
    point: Probes,
    prefix: Probes,
    range_point: Probes,
}

/// Which of a request's counter changes go where.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReadKind {
    /// get, multiget: point probes are the read's own.
    Point,
    /// scan, scan_prefix, seeks: point probes are of one-key SSTs.
    Range,
    /// anything else: nothing should move; whatever does is reported as is.
    Other,
}

/// A key and its value, as a read returns them.
pub type Entry = (Bytes, Bytes);

fn compactor_options(o: &Options) -> CompactorOptions {
    let tick = Duration::from_millis(2);
    let worker = CompactionWorkerOptions {
        max_concurrent_compactions: 1,
        compactions_poll_interval: tick,
        max_sst_size: usize::try_from(o.sst_bytes).unwrap_or(usize::MAX),
        max_fetch_tasks: 1,
        max_subcompactions: 1,
        min_filter_keys: o.min_filter_keys,
        compression_codec: None,
        ..CompactionWorkerOptions::default()
    };
    // and what only one release has (compat.rs: on 0.18.0, no trivial moves,
    // no incremental compaction, 3 object store retries)
    compat::compactor_options(CompactorOptions {
        poll_interval: tick,
        max_concurrent_compactions: 1,
        worker: Some(compat::worker_options(worker, Duration::from_secs(60))),
        commit_compacted_interval: tick,
        worker_heartbeat_timeout: Duration::from_secs(24 * 3600),
        ..CompactorOptions::default()
    })
}

/// Starts the compactor of `root` with `o`'s compactor policies, and waits
/// until it has registered (its `.compactions` file exists), so that a
/// compaction can be submitted.
async fn start_compactor(
    store: &Arc<SyncLocalStore>,
    root: &Path,
    o: &Options,
    seed: u64,
    admin: &Admin,
) -> Result<
    (
        Compactor,
        tokio::task::JoinHandle<Result<(), slatedb::Error>>,
    ),
    Failure,
> {
    let builder = CompactorBuilder::new(root.clone(), store.clone() as Arc<dyn ObjectStore>)
        .with_options(compactor_options(o))
        .with_scheduler_supplier(Arc::new(ManualOnly))
        .with_filter_policies(filter_policies(&o.compactor)?);
    let compactor = compat::compactor_block_size(builder, block_size(o.block_bytes))
        .with_seed(seed)
        .build();
    let epoch = |c: Option<slatedb::VersionedCompactions>| c.map(|c| c.compactor_epoch());
    let before = epoch(admin.read_compactions(None).await?);
    let runner = compactor.clone();
    let task = tokio::spawn(async move { runner.run().await });
    for _ in 0..60_000 {
        if task.is_finished() {
            break;
        }
        // Registered: the compactor fenced its predecessors, writing its
        // own epoch to the .compactions file.
        let now = epoch(admin.read_compactions(None).await?);
        if now.is_some() && (before.is_none() || now > before) {
            return Ok((compactor, task));
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let why = if task.is_finished() {
        match task.await {
            Ok(Ok(())) => "it stopped".to_string(),
            Ok(Err(e)) => format!("SlateDB: {e}"),
            Err(e) => format!("its task failed: {e}"),
        }
    } else {
        task.abort();
        "it did not register within 60 s".to_string()
    };
    Err(Failure::io(format!("the compactor did not start: {why}")))
}

/// SlateDB's keys are not empty: `WriteBatch::put` and `delete` panic on an
/// empty key (slatedb 0.18.0 src/batch.rs:146-162, "Keys must not be empty").
fn writable_key(verb: &str, key: &[u8]) -> Result<(), Failure> {
    if key.is_empty() {
        return Err(Failure::unsupported(format!(
            "{verb}: SlateDB keys must not be empty (WriteBatch panics on an empty key)"
        )));
    }
    Ok(())
}

/// Stops the compactor and waits for its task. `Compactor::stop` does
/// nothing before the compactor's `run` has registered its tasks, so it is
/// asked again until the task ends (aborted after 60 s).
async fn stop_compactor(
    compactor: &Compactor,
    mut task: tokio::task::JoinHandle<Result<(), slatedb::Error>>,
) -> Result<(), Failure> {
    for _ in 0..6000 {
        let stopped = compactor.stop().await;
        if tokio::time::timeout(Duration::from_millis(10), &mut task)
            .await
            .is_ok()
        {
            return Ok(stopped?);
        }
    }
    task.abort();
    Err(Failure::io("the compactor did not stop within 60 s".into()))
}

/// The filter context of a `ctx=` word.
fn context(ctx: &Option<Vec<u8>>) -> Option<FilterContext> {
    ctx.as_ref()
        .map(|c| FilterContext::Bytes(Bytes::copy_from_slice(c)))
}

async fn drain(mut it: DbIterator) -> Result<Vec<Entry>, Failure> {
    let mut out = Vec::new();
    while let Some(kv) = it.next().await? {
        out.push((kv.key, kv.value));
    }
    Ok(out)
}

impl Session {
    /// Opens (creating if absent) the database in `dir`.
    pub async fn open(dir: &[u8], options: Options, opens: u64) -> Result<Session, Failure> {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::path::Path::new(std::ffi::OsStr::from_bytes(dir));
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::io(format!("cannot create {}: {e}", dir.display())))?;
        let lfs = LocalFileSystem::new_with_prefix(dir)
            .map_err(|e| Failure::io(format!("LocalFileSystem at {}: {e}", dir.display())))?;
        let store = Arc::new(SyncLocalStore::new(lfs));
        let root = Path::from("");
        let seed = SEED.wrapping_add(opens.wrapping_mul(3));
        // and what only one release has (compat.rs: no default TTL; on 0.18.0,
        // 3 object store retries)
        let settings = compat::settings(Settings {
            flush_interval: None,
            wal_enabled: false,
            manifest_poll_interval: Duration::from_secs(24 * 3600),
            min_filter_keys: options.min_filter_keys,
            l0_sst_size_bytes: 1 << 40,
            max_unflushed_bytes: 1 << 41,
            l0_max_ssts: 1 << 30,
            l0_max_ssts_per_key: 1 << 30,
            l0_flush_parallelism: 1,
            compactor_options: None,
            compression_codec: None,
            garbage_collector_options: None,
            ..Settings::default()
        });
        let recorder = Arc::new(DefaultMetricsRecorder::new());
        let db = Db::builder(root.clone(), store.clone() as Arc<dyn ObjectStore>)
            .with_settings(settings)
            .with_seed(seed)
            .with_filter_policies(filter_policies(&options.policies)?)
            .with_sst_block_size(block_size(options.block_bytes))
            .with_db_cache_disabled()
            .with_metrics_recorder(recorder.clone())
            .build()
            .await
            .map_err(|e| {
                let invalid = e.kind() == slatedb::ErrorKind::Invalid;
                let f = Failure::from(e);
                if invalid {
                    Failure::invalid(f.msg)
                } else {
                    f
                }
            })?;
        let admin = Admin::builder(root.clone(), store.clone() as Arc<dyn ObjectStore>)
            .with_seed(seed + 2)
            .build();
        let (compactor, compactor_task) =
            match start_compactor(&store, &root, &options, seed + 1, &admin).await {
                Ok(c) => c,
                Err(e) => {
                    let _ = db.close().await;
                    return Err(e);
                }
            };
        Ok(Session {
            db,
            compactor,
            compactor_task,
            admin,
            store,
            root,
            options,
            recorder,
            unflushed: 0,
            counts: Counts::default(),
            filters: Attributed::default(),
            restarts: 0,
        })
    }

    /// Closes the database (SlateDB flushes the memtable) after stopping the
    /// compactor.
    pub async fn close(self) -> Result<(), Failure> {
        let stopped = stop_compactor(&self.compactor, self.compactor_task).await;
        let closed = self.db.close().await;
        stopped?;
        closed?;
        Ok(())
    }

    fn manifest(&self) -> VersionedManifest {
        self.db.manifest()
    }

    /// Every live SST in read order: L0 newest first (level 0), then each
    /// sorted run newest first (level 1 + its index), its SSTs in key order.
    /// New SSTs get their ids here; the count of new ones is returned too.
    pub fn live_ssts(&self, ids: &mut SstIds) -> (Vec<LiveSst>, u64) {
        let manifest = self.manifest();
        let mut out = Vec::new();
        let mut new = 0;
        let runs = manifest.compacted().iter().enumerate();
        let views = manifest.l0().iter().map(|v| (0, v)).chain(
            runs.flat_map(|(i, run)| compat::sst_views(run).iter().map(move |v| (i + 1, v))),
        );
        for (level, view) in views {
            let (id, fresh) = ids.note(view.sst.id);
            new += u64::from(fresh);
            out.push(LiveSst {
                id,
                level,
                view: view.clone(),
            });
        }
        (out, new)
    }

    // ---- Writes ---------------------------------------------------------

    /// Counts a write like filterlab's memtable, and flushes at
    /// `memtable_bytes`.
    async fn after_write(&mut self, bytes: usize, ids: &mut SstIds) -> Result<(), Failure> {
        self.unflushed = self.unflushed.saturating_add(bytes as u64 + 24);
        if self.unflushed >= self.options.memtable_bytes {
            self.flush(ids).await?;
        }
        Ok(())
    }

    pub async fn put(&mut self, key: &[u8], value: &[u8], ids: &mut SstIds) -> Result<(), Failure> {
        writable_key("put", key)?;
        self.db
            .put_with_options(key, value, &PutOptions::default(), &compat::write_options())
            .await?;
        self.after_write(key.len() + value.len(), ids).await
    }

    pub async fn del(&mut self, key: &[u8], ids: &mut SstIds) -> Result<(), Failure> {
        writable_key("del", key)?;
        self.db
            .delete_with_options(key, &compat::write_options())
            .await?;
        self.after_write(key.len(), ids).await
    }

    /// Flushes the memtable to a new L0 SST (FlushType::MemTable), waiting.
    pub async fn flush(&mut self, ids: &mut SstIds) -> Result<(), Failure> {
        self.db
            .flush_with_options(FlushOptions {
                flush_type: FlushType::MemTable,
            })
            .await?;
        self.unflushed = 0;
        let (_, new) = self.live_ssts(ids);
        if new > 0 {
            self.counts.flushes += 1;
            self.counts.ssts_written += new;
        }
        Ok(())
    }

    // ---- Compaction ------------------------------------------------------

    /// `compact`: every L0 SST into a new sorted run, the newest. `compact
    /// full`: a flush, then every L0 SST and every sorted run into one run.
    pub async fn compact(&mut self, full: bool, ids: &mut SstIds) -> Result<(), Failure> {
        if full {
            self.flush(ids).await?;
        }
        let manifest = compat::compaction_manifest(&self.db, &self.admin).await?;
        let l0: Vec<SourceId> = manifest
            .l0()
            .iter()
            .map(|v| SourceId::SstView(v.id))
            .collect();
        let runs: Vec<u32> = manifest.compacted().iter().map(|r| r.id).collect();
        let mut sources = l0;
        let destination = if full {
            sources.extend(runs.iter().map(|&r| SourceId::SortedRun(r)));
            runs.iter().min().copied().unwrap_or(0)
        } else {
            runs.iter().max().map_or(0, |m| m + 1)
        };
        if sources.is_empty() {
            return Ok(());
        }
        let spec = CompactionSpec::new(sources, destination);
        let submitted = self.admin.submit_compaction(spec.clone()).await?;
        let id = submitted.id();
        loop {
            if self.compactor_task.is_finished() {
                return Err(Failure::io(
                    "the compactor stopped while a compaction was running".into(),
                ));
            }
            let status = self
                .admin
                .read_compaction(id, None)
                .await?
                .map(|c| c.status());
            match status {
                Some(CompactionStatus::Completed) => break,
                Some(CompactionStatus::Failed) => {
                    return Err(Failure::io(format!(
                        "SlateDB: compaction {spec} failed (rejected by the compactor, or its run failed)"
                    )))
                }
                _ => tokio::time::sleep(Duration::from_millis(1)).await,
            }
        }
        self.db.refresh_manifest().await?;
        let (_, new) = self.live_ssts(ids);
        self.counts.compactions += 1;
        self.counts.ssts_written += new;
        Ok(())
    }

    // ---- Reads -----------------------------------------------------------

    pub async fn get(&self, key: &[u8], ctx: &Option<Vec<u8>>) -> Result<Option<Bytes>, Failure> {
        let opts = ReadOptions::default().with_filter_context(context(ctx));
        Ok(self.db.get_with_options(key, &opts).await?)
    }

    fn scan_options(ctx: &Option<Vec<u8>>, order: IterationOrder) -> ScanOptions {
        ScanOptions::default()
            .with_filter_context(context(ctx))
            .with_order(order)
    }

    /// `[start, end)`, ascending; nothing when `end <= start`.
    pub async fn scan(&self, start: &[u8], end: &[u8]) -> Result<Vec<Entry>, Failure> {
        if end <= start {
            return Ok(Vec::new());
        }
        let opts = Self::scan_options(&None, IterationOrder::Ascending);
        drain(self.db.scan_with_options(start..end, &opts).await?).await
    }

    /// SlateDB's `scan_prefix` over the whole of `prefix`'s keys.
    pub async fn scan_prefix(
        &self,
        prefix: &[u8],
        ctx: &Option<Vec<u8>>,
    ) -> Result<Vec<Entry>, Failure> {
        let opts = Self::scan_options(ctx, IterationOrder::Ascending);
        drain(self.db.scan_prefix_with_options(prefix, .., &opts).await?).await
    }

    /// `seek` and `seek_for_prev`. Prefix mode (`prefix=1`, or absent with an
    /// extractor in force, and KEY in its domain): SlateDB's `scan_prefix` of
    /// KEY's prefix P, read to its end (so every SST it considered decides
    /// its false positive), and of it the entries from KEY on (backward: up
    /// to KEY, descending) while their own extracted prefix is P. Total
    /// order: `scan(KEY..)` ascending, or `scan(..=KEY)` with
    /// `IterationOrder::Descending`, the first n entries.
    pub async fn seek(
        &self,
        key: &[u8],
        n: usize,
        prefix_mode: Option<bool>,
        backward: bool,
        ctx: &Option<Vec<u8>>,
    ) -> Result<Vec<Entry>, Failure> {
        let extractor = self.options.extractor();
        let prefix = match (extractor, prefix_mode) {
            (Some(e), None | Some(true)) => {
                e.prefix_len(Target::Point, key).map(|len| (e, &key[..len]))
            }
            _ => None,
        };
        if let Some((e, p)) = prefix {
            let all = self.scan_prefix(p, ctx).await?;
            let same = |k: &[u8]| e.prefix_len(Target::Point, k).map(|l| &k[..l]) == Some(p);
            let picked: Vec<Entry> = if backward {
                all.into_iter()
                    .rev()
                    .skip_while(|(k, _)| k.as_ref() > key)
                    .take_while(|(k, _)| same(k))
                    .take(n)
                    .collect()
            } else {
                all.into_iter()
                    .skip_while(|(k, _)| k.as_ref() < key)
                    .take_while(|(k, _)| same(k))
                    .take(n)
                    .collect()
            };
            return Ok(picked);
        }
        let mut it = if backward {
            let opts = Self::scan_options(ctx, IterationOrder::Descending);
            self.db.scan_with_options(..=key, &opts).await?
        } else {
            let opts = Self::scan_options(ctx, IterationOrder::Ascending);
            self.db.scan_with_options(key.., &opts).await?
        };
        let mut out = Vec::new();
        while out.len() < n {
            match it.next().await? {
                Some(kv) => out.push((kv.key, kv.value)),
                None => break,
            }
        }
        Ok(out)
    }

    // ---- Introspection ---------------------------------------------------

    fn counter(&self, name: &str, kind: &str) -> u64 {
        match self
            .recorder
            .snapshot()
            .by_name_and_labels(name, &[(FILTER_KIND_LABEL, kind)])
            .map(|m| m.value.clone())
        {
            Some(MetricValue::Counter(v)) => v,
            _ => 0,
        }
    }

    /// SlateDB's filter counters of one kind now.
    pub fn probes(&self, kind: &str) -> Probes {
        Probes {
            positive: self.counter(SST_FILTER_POSITIVE_COUNT, kind),
            negative: self.counter(SST_FILTER_NEGATIVE_COUNT, kind),
            false_positive: self.counter(SST_FILTER_FALSE_POSITIVE_COUNT, kind),
        }
    }

    /// Attributes what SlateDB's counters did during one request (`before`:
    /// `probes("point")`, `probes("prefix")` when it began).
    pub fn attribute(&mut self, kind: ReadKind, before: (Probes, Probes)) {
        let point = self.probes("point").minus(before.0);
        let prefix = self.probes("prefix").minus(before.1);
        self.filters.prefix.add(prefix);
        if kind == ReadKind::Range {
            self.filters.range_point.add(point);
        } else {
            self.filters.point.add(point);
        }
    }

    /// The `metrics` reply's counters, by name: filterlab's (considered is
    /// the SSTs probed: SlateDB does not count the ones it reads without a
    /// filter), then SlateDB's own totals and the range reads' point probes.
    pub fn metrics(&self) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for (kind, p) in [
            ("point", self.filters.point),
            ("prefix", self.filters.prefix),
        ] {
            out.push((format!("{kind}.considered"), p.positive + p.negative));
            out.push((format!("{kind}.positive"), p.positive));
            out.push((format!("{kind}.negative"), p.negative));
            out.push((format!("{kind}.false_positive"), p.false_positive));
        }
        let r = self.filters.range_point;
        out.push(("slatedb.range_point.positive".into(), r.positive));
        out.push(("slatedb.range_point.negative".into(), r.negative));
        out.push((
            "slatedb.range_point.false_positive".into(),
            r.false_positive,
        ));
        for kind in ["point", "prefix"] {
            let p = self.probes(kind);
            out.push((format!("slatedb.{kind}.positive"), p.positive));
            out.push((format!("slatedb.{kind}.negative"), p.negative));
            out.push((format!("slatedb.{kind}.false_positive"), p.false_positive));
        }
        out.push(("flushes".into(), self.counts.flushes));
        out.push(("compactions".into(), self.counts.compactions));
        out.push(("ssts_written".into(), self.counts.ssts_written));
        out
    }

    /// The SST's point entries (puts and deletes), from its stats block.
    pub async fn entries(&self, view: &SsTableView) -> Result<Option<u64>, Failure> {
        let reader = SstReader::new(
            self.root.clone(),
            self.store.clone() as Arc<dyn ObjectStore>,
            None,
            None,
        );
        let file = reader.open_with_handle(view.sst.clone())?;
        Ok(file.stats().await?.map(|s| s.num_rows()))
    }

    /// The file of an SST.
    pub fn sst_path(&self, sst: &SsTableId) -> Result<PathBuf, Failure> {
        let path = compat::sst_path(&self.root, &self.manifest(), sst);
        self.store
            .file_path(&path)
            .map_err(|e| Failure::io(format!("the file of SST {sst:?}: {e}")))
    }

    /// The names of the sub-filters an SST carries, read from its composite
    /// filter block: `[count: u16]` then `[name_len: u16][name][data_len:
    /// u64][data]` each, then a CRC32 (slatedb 0.18.0
    /// src/format/sst.rs:496-516).
    pub fn filter_names(&self, view: &SsTableView) -> Result<Vec<Vec<u8>>, Failure> {
        use std::io::{Read, Seek, SeekFrom};
        let info = &view.sst.info;
        if info.filter_len == 0 {
            return Ok(Vec::new());
        }
        // FilterFormat is not exported; it derives Debug.
        if format!("{:?}", info.filter_format) == "Legacy" {
            return Ok(vec![Vec::new()]);
        }
        let path = self.sst_path(&view.sst.id)?;
        let corrupt = |what: &str| {
            Failure::new(
                "corrupt",
                format!("the filter block of {}: {what}", path.display()),
            )
        };
        let mut block = vec![0u8; info.filter_len as usize];
        std::fs::File::open(&path)
            .and_then(|mut f| {
                f.seek(SeekFrom::Start(info.filter_offset))?;
                f.read_exact(&mut block)
            })
            .map_err(|e| Failure::io(format!("{}: {e}", path.display())))?;
        let body = block
            .len()
            .checked_sub(4)
            .map(|n| &block[..n])
            .ok_or_else(|| corrupt("shorter than its checksum"))?;
        let take = |at: &mut usize, n: usize| -> Result<&[u8], Failure> {
            let piece = body.get(*at..*at + n).ok_or_else(|| corrupt("truncated"))?;
            *at += n;
            Ok(piece)
        };
        let mut at = 0;
        let count = u16::from_be_bytes(take(&mut at, 2)?.try_into().unwrap_or([0; 2]));
        let mut names = Vec::new();
        for _ in 0..count {
            let len = u16::from_be_bytes(take(&mut at, 2)?.try_into().unwrap_or([0; 2]));
            names.push(take(&mut at, usize::from(len))?.to_vec());
            let data = u64::from_be_bytes(take(&mut at, 8)?.try_into().unwrap_or([0; 8]));
            take(&mut at, usize::try_from(data).unwrap_or(usize::MAX))?;
        }
        Ok(names)
    }

    /// `set_options`: what SlateDB fixes when the database is built (the
    /// writer's policies, min_filter_keys, the block size) cannot change on
    /// an open database; the compactor is restarted with its new policies
    /// and sst_bytes; memtable_bytes is the adapter's own threshold.
    pub async fn set_options(&mut self, new: Options, opens: u64) -> Result<(), Failure> {
        let old = &self.options;
        let fixed = [
            ("policies", old.policies != new.policies),
            (
                "min_filter_keys",
                old.min_filter_keys != new.min_filter_keys,
            ),
            ("block_bytes", old.block_bytes != new.block_bytes),
        ];
        let changed: Vec<&str> = fixed.iter().filter(|f| f.1).map(|f| f.0).collect();
        if !changed.is_empty() {
            return Err(Failure::unsupported(format!(
                "set_options: SlateDB fixes {} when the Db is built (DbBuilder); only a reopen changes them",
                changed.join(", ")
            )));
        }
        if old.compactor != new.compactor || old.sst_bytes != new.sst_bytes {
            let idle = tokio::spawn(async { Ok(()) });
            let task = std::mem::replace(&mut self.compactor_task, idle);
            stop_compactor(&self.compactor, task).await?;
            self.restarts += 1;
            let seed = SEED
                .wrapping_add(opens.wrapping_mul(3))
                .wrapping_add(self.restarts << 32)
                + 1;
            let (compactor, task) =
                start_compactor(&self.store, &self.root, &new, seed, &self.admin).await?;
            self.compactor = compactor;
            self.compactor_task = task;
        }
        // As in filterlab's engine, a smaller memtable_bytes applies at the
        // next write.
        self.options = new;
        Ok(())
    }
}
