//! The option set of `open` and `set_options` (docs/protocol.md; engine/options.c
//! for the ranges and defaults): every option of the workload's open line in
//! force, checked and mapped to what SlateDB takes.

use crate::codec::show;
use crate::spec::{parse_policy_list, Extractor, Policy, SpecError};
use crate::Failure;

/// One option set, in force after `open` or `set_options`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The writer's policies: every SST a flush writes carries their filters,
    /// and every read uses them.
    pub policies: Vec<Policy>,
    /// The compactor's policies: the filters of every SST a compaction writes.
    pub compactor: Vec<Policy>,
    pub min_filter_keys: u32,
    /// The adapter flushes the memtable, and waits, once this many bytes were
    /// written since the last flush (key + value + 24 per write, as
    /// filterlab's memtable counts).
    pub memtable_bytes: u64,
    /// The compaction worker's `max_sst_size`.
    pub sst_bytes: u64,
    /// SlateDB's `SstBlockSize`, in bytes: 1, 2, 4, 8, 16, 32 or 64 KiB.
    pub block_bytes: u64,
    pub l0_trigger: u64,
    pub max_runs: u64,
}

impl Default for Options {
    fn default() -> Self {
        let policies = parse_policy_list(b"bloom(bits=10)").unwrap_or_default();
        Options {
            compactor: policies.clone(),
            policies,
            min_filter_keys: 0,
            memtable_bytes: 64 * 1024,
            sst_bytes: 64 * 1024,
            block_bytes: 4096,
            l0_trigger: 4,
            max_runs: 4,
        }
    }
}

fn number(key: &str, value: &[u8], min: u64, max: u64) -> Result<u64, Failure> {
    let text = std::str::from_utf8(value).unwrap_or("");
    let parsed = if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        None
    } else {
        text.parse::<u64>().ok()
    };
    match parsed {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(Failure::invalid(format!(
            "option {key}: expected an integer from {min} to {max}, got {}",
            show(value)
        ))),
    }
}

fn spec_failure(key: &str, e: SpecError) -> Failure {
    match e {
        SpecError::Invalid(m) => Failure::invalid(format!("option {key}: {m}")),
        SpecError::Unsupported(m) => Failure::unsupported(format!("option {key}: {m}")),
    }
}

impl Options {
    /// The options of an `open` or `set_options` request: filterlab's
    /// defaults, then each `KEY=VALUE` in turn.
    pub fn parse(pairs: &[(String, Vec<u8>)]) -> Result<Options, Failure> {
        let mut o = Options::default();
        let mut compactor: Option<Vec<Policy>> = None;
        for (key, value) in pairs {
            match key.as_str() {
                "policies" => {
                    o.policies = parse_policy_list(value).map_err(|e| spec_failure(key, e))?
                }
                "compactor" => {
                    compactor =
                        Some(parse_policy_list(value).map_err(|e| spec_failure(key, e))?)
                }
                "min_filter_keys" => {
                    o.min_filter_keys = number(key, value, 0, u64::from(u32::MAX))? as u32
                }
                "memtable_bytes" => o.memtable_bytes = number(key, value, 1, 1 << 40)?,
                "sst_bytes" => o.sst_bytes = number(key, value, 1, 1 << 40)?,
                "block_bytes" => {
                    o.block_bytes = number(key, value, 1, 1 << 30)?;
                    if ![1, 2, 4, 8, 16, 32, 64].contains(&(o.block_bytes / 1024))
                        || o.block_bytes % 1024 != 0
                    {
                        return Err(Failure::unsupported(format!(
                            "option block_bytes={}: SlateDB's SstBlockSize is 1, 2, 4, 8, 16, 32 or 64 KiB (1024 ... 65536 bytes)",
                            o.block_bytes
                        )));
                    }
                }
                "l0_trigger" => o.l0_trigger = number(key, value, 1, u64::from(u32::MAX))?,
                "max_runs" => o.max_runs = number(key, value, 1, u64::from(u32::MAX))?,
                "legacy_filters" => match value.as_slice() {
                    b"0" => {}
                    b"1" => {
                        return Err(Failure::unsupported(format!(
                            "option legacy_filters=1: SlateDB {} writes only composite filter blocks (it reads legacy ones, but has no way to write them)",
                            crate::compat::SERIES
                        )))
                    }
                    _ => {
                        return Err(Failure::invalid(format!(
                            "option legacy_filters: expected 0 or 1, got {}",
                            show(value)
                        )))
                    }
                },
                _ if key.starts_with("slatedb.") => {
                    return Err(Failure::unsupported(format!(
                        "option {key}: the adapter maps no SlateDB setting by name"
                    )))
                }
                _ => {
                    return Err(Failure::invalid(format!(
                        "unknown option \"{key}\" (known: policies, compactor, min_filter_keys, memtable_bytes, sst_bytes, block_bytes, l0_trigger, max_runs, legacy_filters, slatedb.*)"
                    )))
                }
            }
        }
        o.compactor = compactor.unwrap_or_else(|| o.policies.clone());
        Ok(o)
    }

    /// The extractor in force: that of the first policy that has one.
    pub fn extractor(&self) -> Option<Extractor> {
        self.policies.iter().find_map(Policy::extractor).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn defaults_and_overrides() {
        let o = Options::parse(&[]).unwrap();
        assert_eq!(o, Options::default());
        assert_eq!(o.policies.len(), 1);
        let o = Options::parse(&pairs(&[
            ("policies", "bloom(bits=8,prefix=fixed:3)"),
            ("memtable_bytes", "400"),
            ("block_bytes", "8192"),
            ("max_runs", "2"),
        ]))
        .unwrap();
        assert_eq!(o.memtable_bytes, 400);
        assert_eq!(o.block_bytes, 8192);
        assert_eq!(o.compactor, o.policies);
        assert_eq!(o.extractor(), Some(Extractor::Fixed(3)));
        let o = Options::parse(&pairs(&[("compactor", "none")])).unwrap();
        assert!(o.compactor.is_empty());
        assert_eq!(o.policies.len(), 1);
    }

    #[test]
    fn refusals() {
        let kind = |p: &[(&str, &str)]| Options::parse(&pairs(p)).unwrap_err().kind;
        assert_eq!(kind(&[("nosuch", "1")]), "invalid");
        assert_eq!(kind(&[("memtable_bytes", "0")]), "invalid");
        assert_eq!(kind(&[("memtable_bytes", "-1")]), "invalid");
        assert_eq!(kind(&[("sst_bytes", "x")]), "invalid");
        assert_eq!(kind(&[("block_bytes", "4000")]), "unsupported");
        assert_eq!(kind(&[("block_bytes", "131072")]), "unsupported");
        assert_eq!(kind(&[("legacy_filters", "1")]), "unsupported");
        assert_eq!(kind(&[("legacy_filters", "2")]), "invalid");
        assert_eq!(kind(&[("policies", "bloom(bits=7.5)")]), "unsupported");
        assert_eq!(kind(&[("policies", "bloom(bits=")]), "invalid");
        assert_eq!(kind(&[("slatedb.flush_interval", "1")]), "unsupported");
    }
}
