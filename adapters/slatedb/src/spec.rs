//! filterlab's policy list and spec grammar (engine/registry.c, bloom.c,
//! extractors.c), for the one policy kind SlateDB has, `bloom`, the four
//! built-in extractors, and the policy and extractor kinds of the plugins
//! loaded (plugin.rs; none before a `plugin` request):
//!
//! ```text
//! policy list     = blanks "none" blanks | spec (";" spec)*   (split at parenthesis depth 0)
//! policy spec     = blanks KIND [ "(" ARGS ")" ] blanks
//! ARGS            = ARG=VALUE ("," ARG=VALUE)*               (split at depth 0, blanks trimmed)
//! extractor spec  = KIND [ ":" ARGS ]                        (no blanks trimmed)
//! KIND            = 1..31 bytes of [A-Za-z0-9_-]
//! ```
//!
//! Values may use `\xNN` for `,`, `;`, `(`, `)`. Specs are bytes: a quoted
//! option value may hold any byte but NUL.

use std::fmt;
use std::sync::Arc;

use crate::plugin::{self, PluginExtractor, PluginPolicy};

/// Why a list cannot be used: `Invalid` is a malformed spec (`err invalid`),
/// `Unsupported` a well-formed one SlateDB cannot express (`err unsupported`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    Invalid(String),
    Unsupported(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Invalid(m) | SpecError::Unsupported(m) => f.write_str(m),
        }
    }
}

fn invalid<T>(msg: String) -> Result<T, SpecError> {
    Err(SpecError::Invalid(msg))
}

fn unsupported<T>(msg: String) -> Result<T, SpecError> {
    Err(SpecError::Unsupported(msg))
}

/// One of filterlab's built-in prefix extractors, or a plugin's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extractor {
    Fixed(usize),
    Capped(usize),
    Delim(u8),
    LastDelim(u8),
    Plugin(Arc<PluginExtractor>),
}

/// What an extractor is asked about: a whole key, or a scan prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Point,
    Prefix,
}

impl Extractor {
    /// The extractor's name (extractors.c, NAME RULE): `fixedN`, `cappedN`,
    /// `delimC`, `lastdelimC`, C itself when it is 0x21-0x7E other than `\`,
    /// else `\xNN` with two lowercase hex digits; a plugin's, its own.
    pub fn name(&self) -> String {
        let byte_name = |kind: &str, c: u8| {
            if (0x21..=0x7e).contains(&c) && c != b'\\' {
                format!("{kind}{}", c as char)
            } else {
                format!("{kind}\\x{c:02x}")
            }
        };
        match *self {
            Extractor::Fixed(n) => format!("fixed{n}"),
            Extractor::Capped(n) => format!("capped{n}"),
            Extractor::Delim(c) => byte_name("delim", c),
            Extractor::LastDelim(c) => byte_name("lastdelim", c),
            Extractor::Plugin(ref p) => p.name().to_string(),
        }
    }

    /// The prefix length of `bytes` asked as `target` (SPEC 4's table; a
    /// plugin's: the plugin's answer).
    pub fn prefix_len(&self, target: Target, bytes: &[u8]) -> Option<usize> {
        match *self {
            Extractor::Fixed(n) => (bytes.len() >= n).then_some(n),
            Extractor::Capped(n) => match target {
                Target::Point => Some(bytes.len().min(n)),
                Target::Prefix => (bytes.len() >= n).then_some(n),
            },
            Extractor::Delim(c) => bytes.iter().position(|&b| b == c).map(|i| i + 1),
            Extractor::LastDelim(c) => match target {
                Target::Point => bytes.iter().rposition(|&b| b == c).map(|i| i + 1),
                Target::Prefix => None,
            },
            Extractor::Plugin(ref p) => p.extract(target, bytes),
        }
    }
}

/// A `bloom(bits=N[,whole_key=0|1][,prefix=EXTRACTOR])` policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bloom {
    pub bits: u32,
    pub whole_key: bool,
    pub extractor: Option<Extractor>,
}

impl Bloom {
    /// The name filterlab gives this policy: `_bf`, then `:p=<extractor
    /// name>` with an extractor, then `:wh=0` when whole-key filtering is off.
    pub fn name(&self) -> String {
        let mut name = String::from("_bf");
        if let Some(e) = &self.extractor {
            name.push_str(":p=");
            name.push_str(&e.name());
        }
        if !self.whole_key {
            name.push_str(":wh=0");
        }
        name
    }
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_blank(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_blank(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// Splits at `sep` outside parentheses (depth 0).
fn split_depth0(s: &[u8], sep: u8) -> Vec<&[u8]> {
    let mut pieces = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ if b == sep && depth <= 0 => {
                pieces.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&s[start..]);
    pieces
}

fn kind_span(s: &[u8]) -> usize {
    s.iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        .count()
}

fn show(s: &[u8]) -> String {
    String::from_utf8_lossy(s).into_owned()
}

/// Decodes `\xNN` escapes (either case of hex digit); any other backslash is
/// a bad escape.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            let hex = s.get(i + 2..i + 4)?;
            if s[i + 1] != b'x' || !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            let text = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(text, 16).ok()?);
            i += 4;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    Some(out)
}

/// A policy of a list: a bloom, or a plugin's policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Policy {
    Bloom(Bloom),
    Plugin(Arc<PluginPolicy>),
}

impl Policy {
    /// The name filterlab gives this policy: a bloom's by its rule, a
    /// plugin's its own.
    pub fn name(&self) -> String {
        match self {
            Policy::Bloom(b) => b.name(),
            Policy::Plugin(p) => slatedb::FilterPolicy::name(p.as_ref()).to_string(),
        }
    }

    /// The bloom's extractor, if any.
    pub fn extractor(&self) -> Option<&Extractor> {
        match self {
            Policy::Bloom(b) => b.extractor.as_ref(),
            Policy::Plugin(_) => None,
        }
    }
}

/// Parses a policy list: `none` is the empty list.
pub fn parse_policy_list(list: &[u8]) -> Result<Vec<Policy>, SpecError> {
    let s = trim(list);
    if s.is_empty() {
        return invalid(format!(
            "empty policy list '{}': expected 'none' or specs separated by ';'",
            show(list)
        ));
    }
    if s == b"none" {
        return Ok(Vec::new());
    }
    split_depth0(s, b';')
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let p = trim(piece);
            if p.is_empty() || p == b"none" {
                return invalid(format!(
                    "policy list '{}': spec {} is {}",
                    show(list),
                    i + 1,
                    if p.is_empty() {
                        "empty"
                    } else {
                        "'none', which must be the whole list"
                    }
                ));
            }
            parse_policy(p)
        })
        .collect()
}

/// Parses one policy spec. A plugin's is made here (`flh_policy_new` of the
/// spec as given), the plugin's error being `Invalid`.
pub fn parse_policy(spec: &[u8]) -> Result<Policy, SpecError> {
    let s = trim(spec);
    let kind_len = kind_span(s);
    if kind_len == 0 || kind_len > 31 {
        return invalid(format!(
            "policy spec '{}': expected KIND or KIND(ARG=VALUE,...), with KIND 1-31 bytes of [A-Za-z0-9_-]",
            show(spec)
        ));
    }
    let (kind, rest) = s.split_at(kind_len);
    let args = if rest.is_empty() {
        &rest[..0]
    } else {
        if rest[0] != b'(' {
            return invalid(format!(
                "policy spec '{}': unexpected '{}' after kind '{}'; expected '(' or the end of the spec",
                show(spec),
                rest[0] as char,
                show(kind)
            ));
        }
        let mut depth = 0;
        let close = rest.iter().position(|&b| {
            if b == b'(' {
                depth += 1;
            } else if b == b')' {
                depth -= 1;
                return depth == 0;
            }
            false
        });
        match close {
            None => {
                return invalid(format!(
                    "policy spec '{}': unbalanced parentheses",
                    show(spec)
                ))
            }
            Some(c) if c + 1 != rest.len() => {
                return invalid(format!(
                    "policy spec '{}': unexpected text '{}' after the closing ')'",
                    show(spec),
                    show(&rest[c + 1..])
                ))
            }
            Some(c) => &rest[1..c],
        }
    };
    if kind != b"bloom" {
        if kind_is_extractor(kind) || plugin::is_extractor_kind(kind) {
            return invalid(format!(
                "policy spec '{}': '{}' is an extractor kind, not a policy kind",
                show(spec),
                show(kind)
            ));
        }
        if plugin::is_policy_kind(kind) {
            return Ok(Policy::Plugin(Arc::new(PluginPolicy::new(s)?)));
        }
        return unsupported(format!(
            "policy spec '{}': SlateDB has only the built-in bloom policy; policy kind '{}' (a plugin's?) is not mapped",
            show(spec),
            show(kind)
        ));
    }
    parse_bloom_args(args)
        .map(Policy::Bloom)
        .map_err(|e| match e {
            SpecError::Invalid(m) => {
                SpecError::Invalid(format!("policy spec '{}': {m}", show(spec)))
            }
            SpecError::Unsupported(m) => {
                SpecError::Unsupported(format!("policy spec '{}': {m}", show(spec)))
            }
        })
}

fn kind_is_extractor(kind: &[u8]) -> bool {
    matches!(kind, b"fixed" | b"capped" | b"delim" | b"lastdelim")
}

fn parse_bloom_args(args: &[u8]) -> Result<Bloom, SpecError> {
    let mut bloom = Bloom {
        bits: 10,
        whole_key: true,
        extractor: None,
    };
    let all = trim(args);
    if all.is_empty() {
        return Ok(bloom);
    }
    let mut seen = [false; 3];
    for item in split_depth0(all, b',') {
        let item = trim(item);
        if item.is_empty() {
            return invalid("empty argument (a ',' with nothing before or after it)".into());
        }
        let Some(eq) = item.iter().position(|&b| b == b'=') else {
            return invalid(format!("argument '{}': expected ARG=VALUE", show(item)));
        };
        let name = trim(&item[..eq]);
        let value = trim(&item[eq + 1..]);
        if name.len() >= 32 || value.len() >= 512 {
            return invalid(format!("argument '{}' is too long", show(item)));
        }
        let which = match name {
            b"bits" => 0,
            b"whole_key" => 1,
            b"prefix" => 2,
            _ => {
                return invalid(format!(
                    "unknown argument '{}'; known arguments: bits, whole_key, prefix",
                    show(name)
                ))
            }
        };
        if seen[which] {
            return invalid(format!("argument '{}' given twice", show(name)));
        }
        seen[which] = true;
        match which {
            0 => bloom.bits = parse_bits(value)?,
            1 => {
                bloom.whole_key = match unescape(value).as_deref() {
                    Some(b"0") => false,
                    Some(b"1") => true,
                    _ => {
                        return invalid(format!(
                            "whole_key: expected 0 or 1; got '{}'",
                            show(value)
                        ))
                    }
                }
            }
            _ => {
                bloom.extractor = Some(parse_extractor(value).map_err(|e| match e {
                    SpecError::Invalid(m) => SpecError::Invalid(format!("prefix: {m}")),
                    SpecError::Unsupported(m) => SpecError::Unsupported(format!("prefix: {m}")),
                })?)
            }
        }
    }
    Ok(bloom)
}

/// bits: D+[.D*] or .D+, at most 1000 by its digits (bloom.c). SlateDB's
/// `BloomFilterPolicy::new` takes a whole number of bits per key: a value that
/// is not one is unsupported.
fn parse_bits(value: &[u8]) -> Result<u32, SpecError> {
    let bad = || {
        SpecError::Invalid(format!(
            "bits: expected a decimal number of bits per key from 0 to 1000 (like 10 or 7.5); got '{}'",
            show(value)
        ))
    };
    let text = unescape(value).ok_or_else(bad)?;
    let (whole, frac) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], &text[dot + 1..]),
        None => (&text[..], &text[..0]),
    };
    let digits = |s: &[u8]| s.iter().all(|b| b.is_ascii_digit());
    if whole.len() + frac.len() == 0 || !digits(whole) || !digits(frac) {
        return Err(bad());
    }
    let mut bits: u64 = 0;
    for &d in whole {
        bits = bits * 10 + u64::from(d - b'0');
        if bits > 1000 {
            return Err(bad());
        }
    }
    let frac_nonzero = frac.iter().any(|&d| d != b'0');
    if bits == 1000 && frac_nonzero {
        return Err(bad());
    }
    if frac_nonzero {
        return unsupported(format!(
            "bits={}: SlateDB's BloomFilterPolicy::new takes a whole number of bits per key (u32)",
            show(value)
        ));
    }
    Ok(bits as u32)
}

/// Parses an extractor spec: `fixed:N`, `capped:N` (N decimal 1-65535, each
/// digit itself or `\xNN`), `delim:C`, `lastdelim:C` (C one byte: itself, or
/// `\xNN`), or a plugin's (`flh_extractor_new` of the spec as given, its
/// `\xNN` escapes left for the plugin as filterlab's bloom does).
pub fn parse_extractor(spec: &[u8]) -> Result<Extractor, SpecError> {
    let kind_len = kind_span(spec);
    if kind_len == 0 || kind_len > 31 || (kind_len < spec.len() && spec[kind_len] != b':') {
        return invalid(format!(
            "extractor spec '{}': expected KIND or KIND:ARGS (e.g. fixed:3, delim:\\x3a), with KIND 1-31 bytes of [A-Za-z0-9_-]",
            show(spec)
        ));
    }
    let kind = &spec[..kind_len];
    let args = if kind_len < spec.len() {
        &spec[kind_len + 1..]
    } else {
        &spec[..0]
    };
    match kind {
        b"fixed" | b"capped" => {
            let n = unescape(args)
                .filter(|t| !t.is_empty() && t.iter().all(|b| b.is_ascii_digit()))
                .and_then(|t| {
                    t.iter().try_fold(0usize, |n, &d| {
                        let n = n * 10 + usize::from(d - b'0');
                        (n <= 65535).then_some(n)
                    })
                })
                .filter(|&n| n >= 1);
            match (n, kind) {
                (Some(n), b"fixed") => Ok(Extractor::Fixed(n)),
                (Some(n), _) => Ok(Extractor::Capped(n)),
                (None, _) => invalid(format!(
                    "extractor spec '{}': {k} needs a length: {k}:N with N a decimal from 1 to 65535",
                    show(spec),
                    k = show(kind)
                )),
            }
        }
        b"delim" | b"lastdelim" => {
            let c = if args.len() == 1 {
                Some(args[0])
            } else {
                unescape(args).filter(|t| t.len() == 1).map(|t| t[0])
            };
            match (c, kind) {
                (Some(c), b"delim") => Ok(Extractor::Delim(c)),
                (Some(c), _) => Ok(Extractor::LastDelim(c)),
                (None, _) => invalid(format!(
                    "extractor spec '{}': {k} needs exactly one delimiter byte: {k}:C with C a byte or \\xNN",
                    show(spec),
                    k = show(kind)
                )),
            }
        }
        _ if plugin::is_extractor_kind(kind) => {
            Ok(Extractor::Plugin(Arc::new(PluginExtractor::new(spec)?)))
        }
        _ if kind == b"bloom" || plugin::is_policy_kind(kind) => invalid(format!(
            "extractor spec '{}': '{}' is a policy kind, not an extractor kind",
            show(spec),
            show(kind)
        )),
        _ => unsupported(format!(
            "extractor spec '{}': extractor kind '{}' (a plugin's?) is not one of filterlab's built-in extractors",
            show(spec),
            show(kind)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bloom(bits: u32, whole_key: bool, extractor: Option<Extractor>) -> Policy {
        Policy::Bloom(Bloom {
            bits,
            whole_key,
            extractor,
        })
    }

    #[test]
    fn lists() {
        assert_eq!(parse_policy_list(b"none").unwrap(), vec![]);
        assert_eq!(parse_policy_list(b" none\t").unwrap(), vec![]);
        assert_eq!(
            parse_policy_list(b"bloom(bits=10)").unwrap(),
            vec![bloom(10, true, None)]
        );
        assert_eq!(
            parse_policy_list(b"bloom").unwrap(),
            vec![bloom(10, true, None)]
        );
        assert_eq!(
            parse_policy_list(b"bloom()").unwrap(),
            vec![bloom(10, true, None)]
        );
        assert_eq!(
            parse_policy_list(b"bloom(bits=10); bloom( bits = 8 , prefix=fixed:3,whole_key=0 )")
                .unwrap(),
            vec![
                bloom(10, true, None),
                bloom(8, false, Some(Extractor::Fixed(3)))
            ]
        );
        for bad in [
            &b""[..],
            b"  ",
            b"bloom;",
            b";bloom",
            b"bloom;none",
            b"bloom(bits=10",
            b"bloom(bits=10))",
            b"bloom (bits=10)",
            b"bloom(bits=10)x",
            b"fixed:3",
            b"bloom(bits=10,bits=8)",
            b"bloom(size=3)",
            b"bloom(bits)",
            b"bloom(bits=10,)",
            b"bloom(bits=x)",
            b"bloom(bits=1001)",
            b"bloom(bits=1000.5)",
            b"bloom(bits=.)",
            b"bloom(whole_key=2)",
            b"bloom(prefix=fixed:0)",
            b"bloom(prefix=fixed:65536)",
            b"bloom(prefix=fixed)",
            b"bloom(prefix=delim:ab)",
            b"bloom(prefix=delim:)",
            b"bloom(prefix=bloom)",
            b"bloom(prefix=fixed 3)",
            b"bloom(prefix=delim:\\x4)",
        ] {
            assert!(
                matches!(parse_policy_list(bad), Err(SpecError::Invalid(_))),
                "{} should be invalid: {:?}",
                show(bad),
                parse_policy_list(bad)
            );
        }
        for unsup in [
            &b"ribbon(bits=10)"[..],
            b"bloom(bits=7.5)",
            b"bloom(bits=10);myplugin",
            b"bloom(prefix=myextractor:3)",
        ] {
            assert!(
                matches!(parse_policy_list(unsup), Err(SpecError::Unsupported(_))),
                "{} should be unsupported: {:?}",
                show(unsup),
                parse_policy_list(unsup)
            );
        }
    }

    #[test]
    fn bits() {
        let bits = |spec: &[u8]| match parse_policy(spec).unwrap() {
            Policy::Bloom(b) => b.bits,
            p => panic!("{p:?} is not a bloom"),
        };
        assert_eq!(bits(b"bloom(bits=0)"), 0);
        assert_eq!(bits(b"bloom(bits=1000)"), 1000);
        assert_eq!(bits(b"bloom(bits=7.000)"), 7);
        assert_eq!(bits(b"bloom(bits=7.)"), 7);
        assert_eq!(bits(b"bloom(bits=1000.0)"), 1000);
        assert_eq!(bits(b"bloom(bits=\\x31\\x30)"), 10);
        assert!(matches!(
            parse_policy(b"bloom(bits=.5)"),
            Err(SpecError::Unsupported(_))
        ));
    }

    #[test]
    fn extractors_and_names() {
        let e = |s: &[u8]| parse_extractor(s).unwrap();
        assert_eq!(e(b"fixed:3"), Extractor::Fixed(3));
        assert_eq!(e(b"fixed:\\x33"), Extractor::Fixed(3));
        assert_eq!(e(b"capped:007"), Extractor::Capped(7));
        assert_eq!(e(b"delim::"), Extractor::Delim(b':'));
        assert_eq!(e(b"delim:\\"), Extractor::Delim(b'\\'));
        assert_eq!(e(b"delim:\\x2c"), Extractor::Delim(b','));
        assert_eq!(e(b"lastdelim:\\xFF"), Extractor::LastDelim(0xff));
        assert_eq!(e(b"delim:\xfe"), Extractor::Delim(0xfe));
        assert_eq!(e(b"fixed:3").name(), "fixed3");
        assert_eq!(e(b"capped:12").name(), "capped12");
        assert_eq!(e(b"delim::").name(), "delim:");
        assert_eq!(e(b"delim:/").name(), "delim/");
        assert_eq!(e(b"delim:\\x00").name(), "delim\\x00");
        assert_eq!(e(b"delim:\\x5c").name(), "delim\\x5c");
        assert_eq!(e(b"delim:\\x20").name(), "delim\\x20");
        assert_eq!(e(b"lastdelim:\\xff").name(), "lastdelim\\xff");
        assert_eq!(bloom(10, true, None).name(), "_bf");
        assert_eq!(bloom(10, false, None).name(), "_bf:wh=0");
        assert_eq!(
            parse_policy(b"bloom(bits=10,prefix=fixed:3,whole_key=0)")
                .unwrap()
                .name(),
            "_bf:p=fixed3:wh=0"
        );
        assert_eq!(
            parse_policy(b"bloom(prefix=delim:\\x3a)").unwrap().name(),
            "_bf:p=delim:"
        );
        // a ',' or ')' inside the spec through \xNN
        assert_eq!(
            parse_policy(b"bloom(prefix=delim:\\x2c,bits=4)").unwrap(),
            bloom(4, true, Some(Extractor::Delim(b',')))
        );
    }

    #[test]
    fn prefix_lengths() {
        use Target::*;
        let f = Extractor::Fixed(3);
        assert_eq!(f.prefix_len(Point, b"ab"), None);
        assert_eq!(f.prefix_len(Point, b"abc"), Some(3));
        assert_eq!(f.prefix_len(Prefix, b"abcd"), Some(3));
        assert_eq!(f.prefix_len(Prefix, b"ab"), None);
        let c = Extractor::Capped(3);
        assert_eq!(c.prefix_len(Point, b""), Some(0));
        assert_eq!(c.prefix_len(Point, b"ab"), Some(2));
        assert_eq!(c.prefix_len(Point, b"abcd"), Some(3));
        assert_eq!(c.prefix_len(Prefix, b"ab"), None);
        assert_eq!(c.prefix_len(Prefix, b"abc"), Some(3));
        let d = Extractor::Delim(b':');
        assert_eq!(d.prefix_len(Point, b"a:b:c"), Some(2));
        assert_eq!(d.prefix_len(Prefix, b"a:b"), Some(2));
        assert_eq!(d.prefix_len(Point, b"abc"), None);
        let l = Extractor::LastDelim(b':');
        assert_eq!(l.prefix_len(Point, b"a:b:c"), Some(4));
        assert_eq!(l.prefix_len(Point, b"abc"), None);
        assert_eq!(l.prefix_len(Prefix, b"a:b:"), None);
    }
}
