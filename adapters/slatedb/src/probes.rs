//! The filter probes of a read, one by one: every configured policy is
//! wrapped in `Logged`, whose decoded filters note each `might_match` SlateDB
//! makes (the filter's bytes as `decode` received them, by length and FNV-1a
//! 64, and the answer) in a process-wide log. The `get` and `scan_prefix`
//! handlers clear the log before their read and report it after (`probe LEN
//! HASH maybe|no`), so that the checker can tell which SST's filter said no.
//!
//! Only decoded filters are logged: SlateDB probes the filters it reads from
//! an SST's filter block, and the adapter runs it without a cache that could
//! hold the filters its builders made.

use std::sync::{Arc, Mutex, PoisonError};

use slatedb::bytes::BufMut;
use slatedb::{Filter, FilterBuilder, FilterPolicy, FilterQuery};

/// One probe: the filter's length and hash, and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub len: usize,
    pub hash: u64,
    pub maybe: bool,
}

impl Probe {
    /// The reply's data line: `probe LEN HASH maybe|no`.
    pub fn line(&self) -> String {
        let answer = if self.maybe { "maybe" } else { "no" };
        format!("probe {} {:016x} {answer}", self.len, self.hash)
    }
}

/// The probes since the last `clear`, in the order made (SlateDB may probe
/// from any thread of the runtime).
static LOG: Mutex<Vec<Probe>> = Mutex::new(Vec::new());

fn log() -> std::sync::MutexGuard<'static, Vec<Probe>> {
    LOG.lock().unwrap_or_else(PoisonError::into_inner)
}

pub fn clear() {
    log().clear();
}

/// The probes since the last `clear` (the log is left empty).
pub fn take() -> Vec<Probe> {
    std::mem::take(&mut *log())
}

/// FNV-1a 64 of `data`.
pub fn fnv1a64(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A policy whose decoded filters log their probes; everything else is the
/// inner policy's, as it is.
pub struct Logged(Arc<dyn FilterPolicy>);

/// `policy`, logging its probes.
pub fn logged(policy: Arc<dyn FilterPolicy>) -> Arc<dyn FilterPolicy> {
    Arc::new(Logged(policy))
}

impl FilterPolicy for Logged {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn builder(&self) -> Box<dyn FilterBuilder> {
        self.0.builder()
    }

    fn decode(&self, data: &[u8]) -> Arc<dyn Filter> {
        Arc::new(LoggedFilter {
            inner: self.0.decode(data),
            len: data.len(),
            hash: fnv1a64(data),
        })
    }

    fn estimate_size(&self, num_keys: usize) -> usize {
        self.0.estimate_size(num_keys)
    }

    // Not in 0.14.1's trait (compat.rs). BloomFilterPolicy overrides
    // supports_prefix_queries (true only with an extractor), so the trait's
    // defaults would not do.
    #[cfg(not(feature = "slatedb-0-14"))]
    fn supports_range_queries(&self) -> bool {
        self.0.supports_range_queries()
    }

    #[cfg(not(feature = "slatedb-0-14"))]
    fn supports_prefix_queries(&self) -> bool {
        self.0.supports_prefix_queries()
    }
}

/// A decoded filter, its bytes' length and hash.
struct LoggedFilter {
    inner: Arc<dyn Filter>,
    len: usize,
    hash: u64,
}

impl Filter for LoggedFilter {
    fn might_match(&self, query: &FilterQuery) -> bool {
        let maybe = self.inner.might_match(query);
        log().push(Probe {
            len: self.len,
            hash: self.hash,
            maybe,
        });
        maybe
    }

    fn encode(&self, writer: &mut dyn BufMut) {
        self.inner.encode(writer);
    }

    fn size(&self) -> usize {
        self.inner.size()
    }

    /// The inner filter's copy, still logging as this one.
    fn clamp_allocated_size(&self) -> Arc<dyn Filter> {
        Arc::new(LoggedFilter {
            inner: self.inner.clamp_allocated_size(),
            len: self.len,
            hash: self.hash,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_known_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn probe_line() {
        let p = Probe {
            len: 12,
            hash: 0xab,
            maybe: false,
        };
        assert_eq!(p.line(), "probe 12 00000000000000ab no");
    }
}
