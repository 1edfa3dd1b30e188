//! filterlab-slatedb: filterlab's engine protocol (docs/protocol.md)
//! spoken for SlateDB 0.18.0 (or 0.14.1, with the cargo feature
//! `slatedb-0-14`: compat.rs).
//!
//! One request loop: read a line, dispatch on its first word to the one
//! function of that verb, write its one reply (data lines, then `ok ...`; or
//! one `err KIND MESSAGE`), flushed when no request is waiting, and before
//! any request but `metrics` and `ssts`. The adapter is a translator: each
//! request maps to SlateDB's public API, and each reply says what SlateDB did.
//! docs/slatedb.md has the mapping and SlateDB's counting
//! rules.

// With `slatedb-0-14`, `slatedb::` and `slatedb_common::` are 0.14.1
// throughout (0.18.0 is still a dependency: cargo cannot leave out a
// dependency by a feature's absence, so it is built too, unused).
#[cfg(feature = "slatedb-0-14")]
extern crate slatedb014 as slatedb;
#[cfg(feature = "slatedb-0-14")]
extern crate slatedb_common014 as slatedb_common;

mod codec;
mod compat;
mod options;
mod plugin;
mod probes;
mod slate;
mod spec;
mod store;

use std::io::{BufRead, Write};

use codec::{decode_bytes, decode_hex, encode, split_option, split_words};
use options::Options;
use slate::{Entry, ReadKind, Session, SstIds};

/// The one error reply: `err KIND MESSAGE`.
#[derive(Debug)]
pub struct Failure {
    pub kind: &'static str,
    pub msg: String,
}

impl Failure {
    pub fn new(kind: &'static str, msg: String) -> Self {
        Failure { kind, msg }
    }
    pub fn invalid(msg: String) -> Self {
        Self::new("invalid", msg)
    }
    pub fn unsupported(msg: String) -> Self {
        Self::new("unsupported", msg)
    }
    pub fn io(msg: String) -> Self {
        Self::new("io", msg)
    }
}

impl From<codec::CodecError> for Failure {
    fn from(e: codec::CodecError) -> Self {
        Failure::invalid(e.0)
    }
}

const CAPS: &str = "put,del,get,multiget,scan,scan_prefix,seek,seek_for_prev,flush,compact,set_options,ssts,sst_file,plugin,probes";
const COUNTERS: &str = "point.considered,point.positive,point.negative,point.false_positive,\
prefix.considered,prefix.positive,prefix.negative,prefix.false_positive,flushes,compactions,ssts_written";

/// A reply that went through: its data lines, then `ok` and its tail.
#[derive(Default)]
struct Reply {
    data: Vec<String>,
    tail: String,
}

impl Reply {
    fn ok() -> Self {
        Reply::default()
    }
    fn tail(tail: String) -> Self {
        Reply {
            data: Vec::new(),
            tail,
        }
    }
    fn entries(entries: Vec<Entry>) -> Self {
        Reply {
            data: entries
                .iter()
                .map(|(k, v)| format!("entry {} {}", encode(k), encode(v)))
                .collect(),
            tail: String::new(),
        }
    }
}

/// A request's words after the verb: byte strings, and `KEY=VALUE` options.
struct Args {
    verb: String,
    pos: Vec<Vec<u8>>,
    opts: Vec<(String, Vec<u8>)>,
}

impl Args {
    fn parse(verb: &str, words: &[&[u8]]) -> Result<Args, Failure> {
        let mut args = Args {
            verb: verb.to_string(),
            pos: Vec::new(),
            opts: Vec::new(),
        };
        for w in words {
            match split_option(w) {
                Some(opt) => args.opts.push(opt?),
                None => args.pos.push(decode_bytes(w)?),
            }
        }
        Ok(args)
    }

    /// `min..=max` byte strings, and options among `allowed` (each at most
    /// once).
    fn expect(&self, min: usize, max: usize, allowed: &[&str]) -> Result<(), Failure> {
        self.expect_pos(min, max)?;
        for (i, (k, _)) in self.opts.iter().enumerate() {
            if !allowed.contains(&k.as_str()) {
                return Err(Failure::invalid(format!(
                    "{}: unexpected option {k}= (allowed: {})",
                    self.verb,
                    if allowed.is_empty() {
                        "none".to_string()
                    } else {
                        allowed.join(", ")
                    }
                )));
            }
            if self.opts[..i].iter().any(|(k2, _)| k2 == k) {
                return Err(Failure::invalid(format!(
                    "{}: option {k}= given twice",
                    self.verb
                )));
            }
        }
        Ok(())
    }

    /// `min..=max` byte strings (the options are checked by the caller).
    fn expect_pos(&self, min: usize, max: usize) -> Result<(), Failure> {
        if self.pos.len() < min || self.pos.len() > max {
            return Err(Failure::invalid(format!(
                "{}: expected {}{} byte strings, got {}",
                self.verb,
                min,
                if max > min {
                    format!(" to {max}")
                } else {
                    String::new()
                },
                self.pos.len()
            )));
        }
        Ok(())
    }

    fn opt(&self, key: &str) -> Option<&[u8]> {
        self.opts
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
    }

    fn ctx(&self) -> Result<Option<Vec<u8>>, Failure> {
        self.opt("ctx")
            .map(decode_hex)
            .transpose()
            .map_err(Into::into)
    }
}

/// The adapter's state across requests.
struct Adapter {
    session: Option<Session>,
    /// SST ids, kept across close and open.
    ids: SstIds,
    opens: u64,
    /// A quit was asked: exit after its reply.
    quit: bool,
}

impl Adapter {
    fn db(&self) -> Result<&Session, Failure> {
        self.session
            .as_ref()
            .ok_or_else(|| Failure::invalid("no database is open (send open DIR first)".into()))
    }

    fn db_mut(&mut self) -> Result<(&mut Session, &mut SstIds), Failure> {
        match self.session.as_mut() {
            Some(s) => Ok((s, &mut self.ids)),
            None => Err(Failure::invalid(
                "no database is open (send open DIR first)".into(),
            )),
        }
    }

    async fn handle(&mut self, line: &[u8]) -> Result<Reply, Failure> {
        let words = split_words(line)?;
        let Some((verb, rest)) = words.split_first() else {
            return Err(Failure::invalid("empty request line".into()));
        };
        let verb = String::from_utf8_lossy(verb).into_owned();
        let args = Args::parse(&verb, rest)?;
        // SlateDB's filter counters before the request, to attribute what
        // it moves (slate::Session::attribute); not across an open or close
        let kind = match verb.as_str() {
            "get" | "multiget" => ReadKind::Point,
            "scan" | "scan_prefix" | "seek" | "seek_for_prev" => ReadKind::Range,
            _ => ReadKind::Other,
        };
        let before = match (&self.session, verb.as_str()) {
            (_, "open" | "close" | "quit") | (None, _) => None,
            (Some(s), _) => Some((s.probes("point"), s.probes("prefix"))),
        };
        let reply = self.dispatch(&verb, &args).await;
        if let (Some(before), Some(s)) = (before, self.session.as_mut()) {
            s.attribute(kind, before);
        }
        reply
    }

    async fn dispatch(&mut self, verb: &str, args: &Args) -> Result<Reply, Failure> {
        let reply = match verb {
            "hello" => self.hello(args),
            "open" => self.open(args).await,
            "close" => self.close(args).await,
            "quit" => {
                self.quit = true;
                self.close(args).await
            }
            "set_options" => self.set_options(args).await,
            "put" => self.put(args).await,
            "del" => self.del(args).await,
            "get" => self.get(args).await,
            "multiget" => self.multiget(args).await,
            "scan" => self.scan(args).await,
            "scan_prefix" => self.scan_prefix(args).await,
            "seek" => self.seek(args, false).await,
            "seek_for_prev" => self.seek(args, true).await,
            "flush" => self.flush(args).await,
            "compact" => self.compact(args).await,
            "metrics" => self.metrics(args),
            "ssts" => self.ssts(args).await,
            "sst_file" => self.sst_file(args),
            "delrange" => Err(Failure::unsupported(format!(
                "delrange: SlateDB {} has no range delete in its public API",
                compat::VERSION
            ))),
            "plugin" => self.plugin(args),
            "sst_entries" | "sst_rtombs" | "sst_filter_block" => Err(Failure::unsupported(
                format!("{verb}: not offered by this adapter (not in its caps)"),
            )),
            _ => Err(Failure::invalid(format!("unknown request {verb:?}"))),
        }?;
        Ok(reply)
    }

    fn hello(&self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, 1, &[])?;
        Ok(Reply::tail(format!(
            "1 slatedb {} caps={CAPS} counters={COUNTERS}",
            compat::VERSION
        )))
    }

    /// `plugin PATH`: its policy and extractor kinds can be used in the
    /// policy lists from now on (plugin.rs).
    fn plugin(&self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, 1, &[])?;
        plugin::load(&args.pos[0]).map_err(Failure::invalid)?;
        Ok(Reply::ok())
    }

    async fn open(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect_pos(1, 1)?;
        if self.session.is_some() {
            return Err(Failure::invalid(
                "open: a database is open already (close it first)".into(),
            ));
        }
        let options = Options::parse(&args.opts)?;
        self.opens += 1;
        let session = Session::open(&args.pos[0], options, self.opens - 1).await?;
        session.live_ssts(&mut self.ids);
        self.session = Some(session);
        Ok(Reply::ok())
    }

    async fn close(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(0, 0, &[])?;
        if let Some(session) = self.session.take() {
            session.close().await?;
        }
        Ok(Reply::ok())
    }

    async fn set_options(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect_pos(0, 0)?;
        let options = Options::parse(&args.opts)?;
        let opens = self.opens;
        let (db, _) = self.db_mut()?;
        db.set_options(options, opens).await?;
        Ok(Reply::ok())
    }

    async fn put(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(2, 2, &[])?;
        let (db, ids) = self.db_mut()?;
        db.put(&args.pos[0], &args.pos[1], ids).await?;
        Ok(Reply::ok())
    }

    async fn del(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, 1, &[])?;
        let (db, ids) = self.db_mut()?;
        db.del(&args.pos[0], ids).await?;
        Ok(Reply::ok())
    }

    /// The value, after a `probe LEN HASH maybe|no` line for each filter
    /// probe SlateDB made, in its order (probes.rs).
    async fn get(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, 1, &["ctx"])?;
        let ctx = args.ctx()?;
        let db = self.db()?;
        probes::clear();
        let value = db.get(&args.pos[0], &ctx).await?;
        Ok(Reply {
            data: probes::take().iter().map(probes::Probe::line).collect(),
            tail: match value {
                Some(v) => format!("value {}", encode(&v)),
                None => "none".into(),
            },
        })
    }

    /// Key by key: SlateDB 0.18.0 has no batched read.
    async fn multiget(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, usize::MAX, &["ctx"])?;
        let ctx = args.ctx()?;
        let db = self.db()?;
        let mut reply = Reply::ok();
        for key in &args.pos {
            reply.data.push(match db.get(key, &ctx).await? {
                Some(v) => format!("value {}", encode(&v)),
                None => "none".into(),
            });
        }
        Ok(reply)
    }

    /// The entries, after a `probe LEN HASH maybe|no` line for each filter
    /// probe SlateDB made (probes.rs): the point probes of SSTs whose part of
    /// the range is one key.
    async fn scan(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(2, 2, &[])?;
        let db = self.db()?;
        probes::clear();
        let entries = db.scan(&args.pos[0], &args.pos[1]).await?;
        let mut reply = Reply::entries(entries);
        let probed: Vec<String> = probes::take().iter().map(probes::Probe::line).collect();
        reply.data.splice(0..0, probed);
        Ok(reply)
    }

    /// The entries, after a `probe LEN HASH maybe|no` line for each filter
    /// probe SlateDB made, in its order (probes.rs): the prefix probes, and
    /// the point probes of SSTs whose part of the range is one key.
    async fn scan_prefix(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(1, 1, &["ctx"])?;
        let ctx = args.ctx()?;
        let db = self.db()?;
        probes::clear();
        let entries = db.scan_prefix(&args.pos[0], &ctx).await?;
        let mut reply = Reply::entries(entries);
        let probed: Vec<String> = probes::take().iter().map(probes::Probe::line).collect();
        reply.data.splice(0..0, probed);
        Ok(reply)
    }

    /// The entries, after a `probe LEN HASH maybe|no` line for each filter
    /// probe SlateDB made (a seek in prefix mode is a prefix scan of the
    /// key's extracted prefix: slate.rs).
    async fn seek(&mut self, args: &Args, backward: bool) -> Result<Reply, Failure> {
        args.expect(1, 1, &["n", "prefix", "ctx"])?;
        let ctx = args.ctx()?;
        let n = match args.opt("n") {
            None => 1,
            Some(v) => std::str::from_utf8(v)
                .ok()
                .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|t| t.parse::<usize>().ok())
                .filter(|n| (1..=1_000_000).contains(n))
                .ok_or_else(|| {
                    Failure::invalid(format!(
                        "{}: n= expects 1 to 1000000, got {}",
                        args.verb,
                        codec::show(v)
                    ))
                })?,
        };
        let prefix = match args.opt("prefix") {
            None => None,
            Some(b"0") => Some(false),
            Some(b"1") => Some(true),
            Some(v) => {
                return Err(Failure::invalid(format!(
                    "{}: prefix= expects 0 or 1, got {}",
                    args.verb,
                    codec::show(v)
                )))
            }
        };
        let db = self.db()?;
        probes::clear();
        let entries = db.seek(&args.pos[0], n, prefix, backward, &ctx).await?;
        let mut reply = Reply::entries(entries);
        let probed: Vec<String> = probes::take().iter().map(probes::Probe::line).collect();
        reply.data.splice(0..0, probed);
        Ok(reply)
    }

    async fn flush(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(0, 0, &[])?;
        let (db, ids) = self.db_mut()?;
        db.flush(ids).await?;
        Ok(Reply::ok())
    }

    async fn compact(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(0, 1, &[])?;
        let full = match args.pos.first().map(Vec::as_slice) {
            None => false,
            Some(b"full") => true,
            Some(w) => {
                return Err(Failure::invalid(format!(
                    "compact: expected nothing or 'full', got {}",
                    codec::show(w)
                )))
            }
        };
        let (db, ids) = self.db_mut()?;
        db.compact(full, ids).await?;
        Ok(Reply::ok())
    }

    fn metrics(&self, args: &Args) -> Result<Reply, Failure> {
        args.expect(0, 0, &[])?;
        let counters = match &self.session {
            Some(s) => s.metrics(),
            None => Vec::new(),
        };
        Ok(Reply::tail(
            counters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
        ))
    }

    async fn ssts(&mut self, args: &Args) -> Result<Reply, Failure> {
        args.expect(0, 0, &[])?;
        let (db, ids) = self.db_mut()?;
        let (live, _) = db.live_ssts(ids);
        let mut reply = Reply::ok();
        for sst in live {
            let info = &sst.view.sst.info;
            let smallest = info.first_entry.clone().unwrap_or_default();
            let largest = info.last_entry.clone().unwrap_or_default();
            let entries = match db.entries(&sst.view).await? {
                Some(n) => n.to_string(),
                None => "?".into(),
            };
            let mut line = format!(
                "sst {} {} {} {} {} 0 0",
                sst.id,
                sst.level,
                encode(&smallest),
                encode(&largest),
                entries
            );
            for name in db.filter_names(&sst.view)? {
                line.push(' ');
                line.push_str(&encode(&name));
            }
            reply.data.push(line);
        }
        Ok(reply)
    }

    fn sst_file(&mut self, args: &Args) -> Result<Reply, Failure> {
        use std::os::unix::ffi::OsStrExt;
        args.expect(1, 1, &[])?;
        let id = std::str::from_utf8(&args.pos[0])
            .ok()
            .and_then(|t| t.parse::<u64>().ok())
            .ok_or_else(|| {
                Failure::invalid(format!(
                    "sst_file: expected an SST id, got {}",
                    codec::show(&args.pos[0])
                ))
            })?;
        let (db, ids) = self.db_mut()?;
        let (live, _) = db.live_ssts(ids);
        let Some(sst) = live.iter().find(|s| s.id == id) else {
            return Err(Failure::new(
                "notfound",
                format!("sst_file: no live SST {id}"),
            ));
        };
        let path = db.sst_path(&sst.view.sst.id)?;
        Ok(Reply::tail(encode(path.as_os_str().as_bytes())))
    }
}

/// Prints SlateDB's log records on stderr when FILTERLAB_SLATEDB_LOG names a
/// level (error, warn, info, debug, trace); quiet otherwise.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, _: &log::Metadata) -> bool {
        true
    }
    fn log(&self, record: &log::Record) {
        eprintln!("{} {}: {}", record.level(), record.target(), record.args());
    }
    fn flush(&self) {}
}

fn init_log() {
    let Ok(level) = std::env::var("FILTERLAB_SLATEDB_LOG") else {
        return;
    };
    if let Ok(filter) = level.parse::<log::LevelFilter>() {
        if log::set_logger(&StderrLog).is_ok() {
            log::set_max_level(filter);
        }
    }
}

/// Writes a reply, after the contract violations of the plugins that the
/// request made (`violation ...` lines).
fn write_reply(out: &mut impl Write, result: &Result<Reply, Failure>) -> std::io::Result<()> {
    if let Some(lines) = plugin::take_violations() {
        out.write_all(&lines)?;
    }
    match result {
        Ok(reply) => {
            for line in &reply.data {
                out.write_all(line.as_bytes())?;
                out.write_all(b"\n")?;
            }
            if reply.tail.is_empty() {
                out.write_all(b"ok\n")?;
            } else {
                writeln!(out, "ok {}", reply.tail)?;
            }
        }
        Err(f) => {
            let msg: String = f
                .msg
                .chars()
                .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
                .collect();
            writeln!(out, "err {} {}", f.kind, msg)?;
        }
    }
    Ok(())
}

fn main() {
    init_log();
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("filterlab-slatedb: cannot start a tokio runtime: {e}");
            std::process::exit(1);
        }
    };
    let mut adapter = Adapter {
        session: None,
        ids: SstIds::default(),
        opens: 0,
        quit: false,
    };
    // Our own buffer over stdin, so that the loop sees whether another
    // request is already in: replies are flushed when none is, and before a
    // request that runs SlateDB (if it dies there, filterlab names that
    // request), so that a client sending requests ahead gets their replies
    // in few writes.
    let mut input = std::io::BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("filterlab-slatedb: reading stdin: {e}");
                break;
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        let query = line.starts_with(b"metrics") || line.starts_with(b"ssts");
        if !query {
            if let Err(e) = out.flush() {
                eprintln!("filterlab-slatedb: writing stdout: {e}");
                break;
            }
        }
        let result = rt.block_on(adapter.handle(&line));
        let written = write_reply(&mut out, &result).and_then(|()| {
            if adapter.quit || input.buffer().is_empty() {
                out.flush()
            } else {
                Ok(())
            }
        });
        if let Err(e) = written {
            eprintln!("filterlab-slatedb: writing stdout: {e}");
            break;
        }
        if adapter.quit {
            std::process::exit(0);
        }
    }
    // EOF: as quit.
    if let Some(session) = adapter.session.take() {
        if let Err(f) = rt.block_on(session.close()) {
            eprintln!(
                "filterlab-slatedb: closing at EOF: err {} {}",
                f.kind, f.msg
            );
        }
    }
}
