//! The byte strings and words of the engine protocol (docs/protocol.md: "Lines,
//! words, byte strings"): a bare token (bytes 0x21-0x7E other than `"`, `\`
//! and `=`) or a double-quoted string with `\\`, `\"`, `\n`, `\t` and `\xNN`
//! escapes; option words are `KEY=VALUE`, split at the first `=`.

use std::fmt;

/// A request that cannot be read: the reply is `err invalid MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn fail<T>(msg: impl Into<String>) -> Result<T, CodecError> {
    Err(CodecError(msg.into()))
}

/// Whether `b` may stand in a bare token.
pub fn is_bare_byte(b: u8) -> bool {
    (0x21..=0x7e).contains(&b) && b != b'"' && b != b'\\' && b != b'='
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Splits a request line into its words: separated by spaces, a double-quoted
/// part (escapes included) never splitting a word.
pub fn split_words(line: &[u8]) -> Result<Vec<&[u8]>, CodecError> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        let mut quoted = false;
        while i < line.len() && (quoted || line[i] != b' ') {
            match line[i] {
                b'"' => quoted = !quoted,
                b'\\' if quoted => i += 1,
                _ => {}
            }
            i += 1;
        }
        if quoted {
            return fail(format!(
                "unterminated quoted string in word starting at byte {start}"
            ));
        }
        words.push(&line[start..i.min(line.len())]);
    }
    Ok(words)
}

/// Decodes one quoted string, `q` holding it whole (both quotes).
fn decode_quoted(q: &[u8]) -> Result<Vec<u8>, CodecError> {
    if q.len() < 2 || q[0] != b'"' || q[q.len() - 1] != b'"' {
        return fail(format!("bad quoted string {}", show(q)));
    }
    let body = &q[1..q.len() - 1];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c == b'"' {
            return fail(format!("unescaped '\"' inside quoted string {}", show(q)));
        }
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        match body.get(i + 1) {
            Some(b'\\') => out.push(b'\\'),
            Some(b'"') => out.push(b'"'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(b'x') => {
                let hi = body.get(i + 2).copied().and_then(hex_digit);
                let lo = body.get(i + 3).copied().and_then(hex_digit);
                match (hi, lo) {
                    (Some(h), Some(l)) => out.push(h << 4 | l),
                    _ => return fail(format!("bad \\x escape in quoted string {}", show(q))),
                }
                i += 2;
            }
            _ => return fail(format!("bad escape in quoted string {}", show(q))),
        }
        i += 2;
    }
    Ok(out)
}

/// Decodes a word that is one byte string (bare or quoted).
pub fn decode_bytes(word: &[u8]) -> Result<Vec<u8>, CodecError> {
    if word.first() == Some(&b'"') {
        return decode_quoted(word);
    }
    if word.is_empty() || !word.iter().all(|&b| is_bare_byte(b)) {
        return fail(format!(
            "expected a byte string (bare bytes 0x21-0x7e other than '\"', '\\' and '=', or quoted), got {}",
            show(word)
        ));
    }
    Ok(word.to_vec())
}

/// Splits an option word `KEY=VALUE` (KEY bare, VALUE a bare run of non-space
/// bytes or a quoted string); None when the word is no option word.
pub fn split_option(word: &[u8]) -> Option<Result<(String, Vec<u8>), CodecError>> {
    let eq = word.iter().position(|&b| b == b'=')?;
    let key = &word[..eq];
    if key.is_empty() || !key.iter().all(|&b| is_bare_byte(b)) {
        return None;
    }
    let key = String::from_utf8_lossy(key).into_owned();
    let value = &word[eq + 1..];
    let decoded = if value.first() == Some(&b'"') {
        decode_quoted(value)
    } else if value.contains(&b'"') {
        fail(format!("option {key}: a '\"' inside a bare value"))
    } else {
        Ok(value.to_vec())
    };
    Some(decoded.map(|v| (key, v)))
}

/// Writes `bytes` as a byte string: bare when it can be, else quoted. The
/// empty string and the word `none` are always quoted.
pub fn encode(bytes: &[u8]) -> String {
    if !bytes.is_empty() && bytes != b"none" && bytes.iter().all(|&b| is_bare_byte(b)) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

/// Decodes the hex of a filter context: 0-64 bytes.
pub fn decode_hex(text: &[u8]) -> Result<Vec<u8>, CodecError> {
    if !text.len().is_multiple_of(2) || text.len() > 128 {
        return fail(format!(
            "ctx: expected 0-64 bytes as an even number of hex digits, got {}",
            show(text)
        ));
    }
    text.chunks(2)
        .map(|p| match (hex_digit(p[0]), hex_digit(p[1])) {
            (Some(h), Some(l)) => Ok(h << 4 | l),
            _ => fail(format!("ctx: bad hex digit in {}", show(text))),
        })
        .collect()
}

/// `bytes` for a message: quoted, escaped, cut after 80 bytes.
pub fn show(bytes: &[u8]) -> String {
    if bytes.len() > 80 {
        format!("{}...", encode(&bytes[..80]))
    } else {
        encode(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_and_quoted_decode() {
        assert_eq!(decode_bytes(b"abc").unwrap(), b"abc");
        assert_eq!(decode_bytes(b"\"\"").unwrap(), b"");
        assert_eq!(
            decode_bytes(br#""a b\\\"\n\t\x00\xFF""#).unwrap(),
            b"a b\\\"\n\t\x00\xff"
        );
        assert!(decode_bytes(b"a=b").is_err());
        assert!(decode_bytes(b"a\\b").is_err());
        assert!(decode_bytes(b"\"abc").is_err());
        assert!(decode_bytes(br#""\x4""#).is_err());
        assert!(decode_bytes(br#""\q""#).is_err());
        assert!(decode_bytes(br#""a"b""#).is_err());
    }

    #[test]
    fn encode_round_trips() {
        for s in [
            &b""[..],
            b"none",
            b"abc",
            b"a b",
            b"\x00\x01\xff",
            b"\\\"=",
            b"\n\t",
        ] {
            let e = encode(s);
            assert_eq!(decode_bytes(e.as_bytes()).unwrap(), s, "{e}");
        }
        assert_eq!(encode(b"abc"), "abc");
        assert_eq!(encode(b""), "\"\"");
        assert_eq!(encode(b"none"), "\"none\"");
        assert_eq!(encode(b"a=b"), "\"a=b\"");
        assert_eq!(encode(b"\x00"), "\"\\x00\"");
    }

    #[test]
    fn words_keep_quoted_spaces() {
        let w = split_words(br#"put "a b" v  x="c d" "#).unwrap();
        assert_eq!(w, vec![&b"put"[..], b"\"a b\"", b"v", b"x=\"c d\""]);
        let w = split_words(br#"get "a\" b""#).unwrap();
        assert_eq!(w, vec![&b"get"[..], b"\"a\\\" b\""]);
        assert!(split_words(br#"get "abc"#).is_err());
    }

    #[test]
    fn options_split_at_first_eq() {
        let (k, v) = split_option(b"policies=bloom(bits=10)").unwrap().unwrap();
        assert_eq!(
            (k.as_str(), v.as_slice()),
            ("policies", &b"bloom(bits=10)"[..])
        );
        let (k, v) = split_option(br#"policies="bloom(bits=10,prefix=delim:\\x3a)""#)
            .unwrap()
            .unwrap();
        assert_eq!(k, "policies");
        assert_eq!(v, b"bloom(bits=10,prefix=delim:\\x3a)");
        let (k, v) = split_option(b"ctx=").unwrap().unwrap();
        assert_eq!((k.as_str(), v.len()), ("ctx", 0));
        assert!(split_option(b"abc").is_none());
        assert!(split_option(b"\"a=b\"").is_none());
        assert!(split_option(b"=x").is_none());
    }

    #[test]
    fn hex() {
        assert_eq!(decode_hex(b"").unwrap(), b"");
        assert_eq!(decode_hex(b"00ffAb").unwrap(), vec![0, 0xff, 0xab]);
        assert!(decode_hex(b"0").is_err());
        assert!(decode_hex(b"zz").is_err());
        assert!(decode_hex(&[b'0'; 130]).is_err());
        assert_eq!(decode_hex(&[b'1'; 128]).unwrap().len(), 64);
    }
}
