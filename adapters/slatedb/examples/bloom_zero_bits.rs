//! SlateDB 0.18.0 (and main at e0161973, 2026-08-22): `BloomFilterPolicy::new(0)`
//! is accepted, and the first flush of a memtable holding a key divides by zero
//! (`probes_for_key`, `filter.rs:213`, `% filter_bits` with 0 bits): the flush
//! task panics and the database is closed -- this flush and every later call
//! fail with "background task panicked".
//!
//! cargo run --release --example bloom_zero_bits   (prints the error; exits 1 when the bug is there)
use std::sync::Arc;

use slatedb::config::{FlushOptions, FlushType, Settings};
use slatedb::object_store::local::LocalFileSystem;
use slatedb::{BloomFilterPolicy, Db};

fn main() {
    let dir = std::env::temp_dir().join(format!("slatedb-bloom-zero-bits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let store = Arc::new(LocalFileSystem::new_with_prefix(&dir).expect("a local object store"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let outcome = runtime.block_on(async {
        let settings = Settings {
            min_filter_keys: 0,
            ..Settings::default()
        };
        let db = Db::builder("db", store)
            .with_settings(settings)
            .with_filter_policies(vec![Arc::new(BloomFilterPolicy::new(0))])
            .build()
            .await?;
        db.put(b"key", b"value").await?;
        db.flush_with_options(FlushOptions {
            flush_type: FlushType::MemTable,
        })
        .await?;
        let value = db.get(b"key").await?;
        db.close().await?;
        Ok::<_, slatedb::Error>(value)
    });
    let _ = std::fs::remove_dir_all(&dir);
    match outcome {
        Ok(value) => println!("no bug: the flush went through and get returned {value:?}"),
        Err(e) => {
            println!("bug: {e}");
            std::process::exit(1);
        }
    }
}
