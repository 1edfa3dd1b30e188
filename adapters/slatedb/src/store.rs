//! SlateDB's object store: `object_store::local::LocalFileSystem` rooted at
//! the database directory, with its reads done in the calling task.
//!
//! `LocalFileSystem` does every file operation on tokio's blocking pool, so
//! the order in which SlateDB's concurrently polled reads finish depends on
//! thread timing. A point lookup walks its SSTs through a
//! `StreamExt::buffered` stream that initialises up to four of them at once
//! (slatedb 0.18.0 src/db_iter.rs:70-138): which of the SSTs after the one
//! holding the key get their filter probed -- and counted -- before the walk
//! stops would then change from run to run. Reads that finish within their
//! first poll make that walk sequential and every run the same. Writes,
//! listings and deletes are `LocalFileSystem`'s own.
//!
//! SlateDB writes each SST file once and never changes it, and the adapter
//! runs it without a block cache; so the SST files read are kept in memory
//! (up to `CACHE_BYTES` in all), which spares a point lookup a file read per
//! SST it asks. Any write, copy, rename or delete of a file drops it.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use async_trait::async_trait;
use futures::stream::BoxStream;
use futures::StreamExt;
use slatedb::bytes::Bytes;
use slatedb::object_store::local::LocalFileSystem;
use slatedb::object_store::path::Path;
use slatedb::object_store::{
    Attributes, CopyOptions, Error, GetOptions, GetResult, GetResultPayload, ListResult,
    MultipartUpload, ObjectMeta, ObjectStore, PutMultipartOptions, PutOptions, PutPayload,
    PutResult, RenameOptions, Result,
};

const STORE: &str = "LocalFileSystem";

/// The most bytes of SST files kept in memory; past it, all are dropped.
const CACHE_BYTES: usize = 256 << 20;

/// SST files read, by location.
#[derive(Debug, Default)]
struct FileCache {
    files: HashMap<Path, (ObjectMeta, Bytes)>,
    bytes: usize,
}

/// `LocalFileSystem` with synchronous reads.
#[derive(Debug)]
pub struct SyncLocalStore {
    inner: Arc<LocalFileSystem>,
    cache: Mutex<FileCache>,
}

fn is_sst(location: &Path) -> bool {
    let s = location.as_ref();
    s.starts_with("compacted/") && s.ends_with(".sst")
}

impl SyncLocalStore {
    pub fn new(inner: LocalFileSystem) -> Self {
        Self {
            inner: Arc::new(inner),
            cache: Mutex::new(FileCache::default()),
        }
    }

    fn forget(&self, location: &Path) {
        if let Ok(mut c) = self.cache.lock() {
            if let Some((_, data)) = c.files.remove(location) {
                c.bytes -= data.len();
            }
        }
    }

    fn cached(&self, location: &Path) -> Option<(ObjectMeta, Bytes)> {
        self.cache.lock().ok()?.files.get(location).cloned()
    }

    /// An SST file, whole, from memory or read into it.
    fn sst_file(&self, location: &Path) -> Result<(ObjectMeta, Bytes)> {
        if let Some(hit) = self.cached(location) {
            return Ok(hit);
        }
        let path = self.inner.path_to_filesystem(location)?;
        let mut file = File::open(&path).map_err(|e| Self::io_error(&path, e))?;
        let md = file.metadata().map_err(|e| Self::io_error(&path, e))?;
        let meta = Self::meta(location, &md);
        let data = Self::read_range(&path, &mut file, &(0..md.len()))?;
        if let Ok(mut c) = self.cache.lock() {
            if c.bytes + data.len() > CACHE_BYTES {
                c.files.clear();
                c.bytes = 0;
            }
            if data.len() <= CACHE_BYTES {
                c.bytes += data.len();
                c.files
                    .insert(location.clone(), (meta.clone(), data.clone()));
            }
        }
        Ok((meta, data))
    }

    /// The file of `location`.
    pub fn file_path(&self, location: &Path) -> Result<PathBuf> {
        self.inner.path_to_filesystem(location)
    }

    fn io_error(path: &std::path::Path, e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::NotFound {
                path: path.display().to_string(),
                source: Box::new(e),
            }
        } else {
            Error::Generic {
                store: STORE,
                source: format!("{}: {e}", path.display()).into(),
            }
        }
    }

    /// The object's metadata as `LocalFileSystem` gives it (its e-tag:
    /// inode, modification time in microseconds and size, in hex).
    fn meta(location: &Path, md: &std::fs::Metadata) -> ObjectMeta {
        let mtime = md.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let micros = mtime
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
            .as_micros();
        ObjectMeta {
            location: location.clone(),
            last_modified: mtime.into(),
            size: md.len(),
            e_tag: Some(format!("\"{:x}-{:x}-{:x}\"", md.ino(), micros, md.len())),
            version: None,
        }
    }

    fn read_range(path: &std::path::Path, file: &mut File, range: &Range<u64>) -> Result<Bytes> {
        let len = usize::try_from(range.end - range.start).map_err(|_| Error::Generic {
            store: STORE,
            source: "range too large".into(),
        })?;
        let mut buf = vec![0u8; len];
        file.seek(SeekFrom::Start(range.start))
            .and_then(|_| file.read_exact(&mut buf))
            .map_err(|e| Self::io_error(path, e))?;
        Ok(Bytes::from(buf))
    }

    fn get_sync(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        if is_sst(location) {
            let (meta, file) = self.sst_file(location)?;
            options.check_preconditions(&meta)?;
            let range = Self::range(&options, &meta)?;
            let data = if options.head {
                Bytes::new()
            } else {
                file.slice(range.start as usize..range.end as usize)
            };
            return Ok(Self::result(meta, range, data));
        }
        let path = self.inner.path_to_filesystem(location)?;
        let mut file = File::open(&path).map_err(|e| Self::io_error(&path, e))?;
        let md = file.metadata().map_err(|e| Self::io_error(&path, e))?;
        if md.is_dir() {
            return Err(Error::NotFound {
                path: path.display().to_string(),
                source: "is a directory".into(),
            });
        }
        let meta = Self::meta(location, &md);
        options.check_preconditions(&meta)?;
        let range = Self::range(&options, &meta)?;
        let data = if options.head {
            Bytes::new()
        } else {
            Self::read_range(&path, &mut file, &range)?
        };
        Ok(Self::result(meta, range, data))
    }

    /// The bytes a get asks for: its range, or the whole object.
    fn range(options: &GetOptions, meta: &ObjectMeta) -> Result<Range<u64>> {
        match &options.range {
            Some(r) => r.as_range(meta.size).map_err(|e| Error::Generic {
                store: STORE,
                source: Box::new(e),
            }),
            None => Ok(0..meta.size),
        }
    }

    fn result(meta: ObjectMeta, range: Range<u64>, data: Bytes) -> GetResult {
        GetResult {
            payload: GetResultPayload::Stream(
                futures::stream::once(async move { Ok(data) }).boxed(),
            ),
            meta,
            range,
            attributes: Attributes::default(),
            extensions: Default::default(),
        }
    }
}

impl fmt::Display for SyncLocalStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SyncLocalStore({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for SyncLocalStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> Result<PutResult> {
        self.forget(location);
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        self.forget(location);
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
        self.get_sync(location, options)
    }

    async fn get_ranges(&self, location: &Path, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
        if is_sst(location) {
            let (meta, file) = self.sst_file(location)?;
            return ranges
                .iter()
                .map(|r| {
                    if r.start > r.end || r.end > meta.size {
                        return Err(Error::Generic {
                            store: STORE,
                            source: format!("range {r:?} outside {} bytes", meta.size).into(),
                        });
                    }
                    Ok(file.slice(r.start as usize..r.end as usize))
                })
                .collect();
        }
        let path = self.inner.path_to_filesystem(location)?;
        let mut file = File::open(&path).map_err(|e| Self::io_error(&path, e))?;
        ranges
            .iter()
            .map(|r| Self::read_range(&path, &mut file, r))
            .collect()
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, Result<Path>>,
    ) -> BoxStream<'static, Result<Path>> {
        // The files to delete are not known until the stream runs: drop them all.
        if let Ok(mut c) = self.cache.lock() {
            c.files.clear();
            c.bytes = 0;
        }
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> BoxStream<'static, Result<ObjectMeta>> {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
        self.forget(to);
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
        self.forget(from);
        self.forget(to);
        self.inner.rename_opts(from, to, options).await
    }
}
