//! Plugins inside SlateDB: a user's filter policy and prefix extractor (C
//! shared objects against engine/filter.h) as SlateDB's `FilterPolicy`,
//! `FilterBuilder`, `Filter` and `PrefixExtractor`.
//!
//! Every call goes to filterlab's plugin host (adapters/proc/proc_host.h,
//! linked from `libfilterlab_host.a` by build.rs), which runs the plugin
//! through filterlab's own call wrappers: the same counting, contract checks
//! and fail-safe answers as in filterlab's engine. The host is one per
//! process, made by the first `plugin` request, and not thread-safe: every
//! call is made with `HOST`'s lock held. No lock is held while SlateDB runs,
//! so SlateDB calling these wrappers (a built-in bloom with a plugin
//! extractor, say) only ever takes the lock, never waits on itself.

use std::ffi::{c_char, c_int, CStr, CString};
use std::fmt;
use std::ptr;
use std::sync::{Arc, Mutex, PoisonError};

use slatedb::bytes::BufMut;
use slatedb::{
    Filter, FilterBuilder, FilterContext, FilterPolicy, FilterQuery, PrefixExtractor, PrefixTarget,
    RowEntry, ValueDeletable,
};

use crate::compat;
use crate::spec::{SpecError, Target};

/// adapters/proc/proc_host.h, as it is.
mod ffi {
    use std::ffi::{c_char, c_int, c_void};

    macro_rules! opaque {
        ($($name:ident),*) => {$(
            #[repr(C)]
            pub struct $name {
                _private: [u8; 0],
            }
        )*};
    }
    opaque!(Host, Policy, Builder, Filter, Extractor);

    extern "C" {
        pub fn flh_host_new(out: *mut *mut Host) -> c_int;
        pub fn flh_load_plugin(
            h: *mut Host,
            path: *const c_char,
            err: *mut c_char,
            err_len: usize,
        ) -> c_int;
        pub fn flh_is_plugin_policy(h: *const Host, spec: *const c_char) -> c_int;
        pub fn flh_is_plugin_extractor(h: *const Host, spec: *const c_char) -> c_int;

        pub fn flh_policy_new(
            h: *mut Host,
            spec: *const c_char,
            out: *mut *mut Policy,
            err: *mut c_char,
            err_len: usize,
        ) -> c_int;
        pub fn flh_policy_free(h: *mut Host, p: *mut Policy);
        pub fn flh_policy_name(h: *mut Host, p: *const Policy) -> *const c_char;
        pub fn flh_policy_estimate_size(h: *mut Host, p: *const Policy, num_keys: usize) -> usize;

        pub fn flh_builder_new(h: *mut Host, p: *const Policy, out: *mut *mut Builder) -> c_int;
        pub fn flh_builder_add(
            h: *mut Host,
            p: *const Policy,
            b: *mut Builder,
            key: *const u8,
            key_len: usize,
            tombstone: c_int,
            value: *const u8,
            value_len: usize,
        );
        pub fn flh_builder_build(
            h: *mut Host,
            p: *const Policy,
            b: *mut Builder,
            out: *mut *mut Filter,
        ) -> c_int;
        pub fn flh_builder_free(h: *mut Host, p: *const Policy, b: *mut Builder);

        pub fn flh_filter_decode(
            h: *mut Host,
            p: *const Policy,
            data: *const u8,
            len: usize,
            out: *mut *mut Filter,
        ) -> c_int;
        pub fn flh_filter_might_match(
            h: *mut Host,
            p: *const Policy,
            f: *const Filter,
            kind: c_int,
            bytes: *const u8,
            len: usize,
            has_ctx: c_int,
            ctx: *const u8,
            ctx_len: usize,
        ) -> c_int;
        pub fn flh_filter_encode(
            h: *mut Host,
            p: *const Policy,
            f: *const Filter,
            out: *mut *mut u8,
            len: *mut usize,
        ) -> c_int;
        pub fn flh_filter_size(h: *mut Host, p: *const Policy, f: *const Filter) -> usize;
        pub fn flh_filter_free(h: *mut Host, p: *const Policy, f: *mut Filter);

        pub fn flh_extractor_new(
            h: *mut Host,
            spec: *const c_char,
            out: *mut *mut Extractor,
            err: *mut c_char,
            err_len: usize,
        ) -> c_int;
        pub fn flh_extractor_free(h: *mut Host, x: *mut Extractor);
        pub fn flh_extractor_name(h: *mut Host, x: *const Extractor) -> *const c_char;
        pub fn flh_extractor_prefix_len(
            h: *mut Host,
            x: *const Extractor,
            kind: c_int,
            bytes: *const u8,
            len: usize,
            n: *mut usize,
        ) -> c_int;

        pub fn flh_take_violations(h: *mut Host) -> *mut c_char;
        pub fn flh_free(p: *mut c_void);

        pub fn fl_strerror(status: c_int) -> *const c_char;
    }
}

/// The host. Sound to send between threads because it is only ever used
/// with `HOST`'s lock held (it has no thread affinity, only no locking of
/// its own).
struct Host(*mut ffi::Host);

// SAFETY: see `Host`: `HOST`'s lock serializes every use.
unsafe impl Send for Host {}

/// None until the first `plugin` request; never freed after (SlateDB's
/// objects that hold plugin objects may live to the end of the process).
static HOST: Mutex<Option<Host>> = Mutex::new(None);

/// Runs `f` with the host and the lock held; None when no plugin was ever
/// loaded. `f` must only call the host: nothing that could take the lock.
fn with_host<R>(f: impl FnOnce(*mut ffi::Host) -> R) -> Option<R> {
    let guard = HOST.lock().unwrap_or_else(PoisonError::into_inner);
    guard.as_ref().map(|h| f(h.0))
}

/// `with_host` for the plugin objects, which only exist once a host does.
fn call<R>(f: impl FnOnce(*mut ffi::Host) -> R) -> R {
    with_host(f).expect("a plugin object exists only after the host was made")
}

const KIND_POINT: c_int = 1;
const KIND_PREFIX: c_int = 2;

/// The host's error text, or the status code's description without one.
struct ErrBuf([u8; 1024]);

impl ErrBuf {
    fn new() -> Self {
        ErrBuf([0; 1024])
    }
    fn ptr(&mut self) -> *mut c_char {
        self.0.as_mut_ptr().cast()
    }
    fn message(&self, rc: c_int) -> String {
        let text = CStr::from_bytes_until_nul(&self.0)
            .map(|m| m.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !text.is_empty() {
            return text;
        }
        // SAFETY: fl_strerror returns a static string for any status.
        let s = unsafe { ffi::fl_strerror(rc) };
        if s.is_null() {
            format!("status {rc}")
        } else {
            // SAFETY: non-NULL, NUL-terminated and static.
            unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
        }
    }
}

fn c_string(what: &str, bytes: &[u8]) -> Result<CString, String> {
    CString::new(bytes).map_err(|_| format!("{what} holds a NUL byte"))
}

/// A name the host hands out: SlateDB's names are `&str`, so a name that is
/// not UTF-8 cannot be given to it.
fn owned_name(what: &str, spec: &[u8], name: *const c_char) -> Result<String, SpecError> {
    if name.is_null() {
        return Err(SpecError::Invalid(format!(
            "{what} '{}': the plugin host gave no name",
            String::from_utf8_lossy(spec)
        )));
    }
    // SAFETY: a non-NULL name from the host is NUL-terminated and lives as
    // long as its object, which outlives this call.
    let name = unsafe { CStr::from_ptr(name) };
    name.to_str().map(str::to_owned).map_err(|_| {
        SpecError::Unsupported(format!(
            "{what} '{}': its name {:?} is not UTF-8, and SlateDB's names are Rust strings",
            String::from_utf8_lossy(spec),
            name
        ))
    })
}

/// `plugin PATH`: loads a plugin into the host (made on first use).
pub fn load(path: &[u8]) -> Result<(), String> {
    let path = c_string("plugin: the path", path)?;
    let mut guard = HOST.lock().unwrap_or_else(PoisonError::into_inner);
    if guard.is_none() {
        let mut h = ptr::null_mut();
        // SAFETY: out is a valid pointer.
        let rc = unsafe { ffi::flh_host_new(&mut h) };
        if rc != 0 || h.is_null() {
            return Err(format!(
                "plugin: cannot make the plugin host: {}",
                ErrBuf::new().message(rc)
            ));
        }
        *guard = Some(Host(h));
    }
    let h = guard.as_ref().map_or(ptr::null_mut(), |h| h.0);
    let mut err = ErrBuf::new();
    // SAFETY: h is the host, path NUL-terminated, err holds err.0.len() bytes.
    let rc = unsafe { ffi::flh_load_plugin(h, path.as_ptr(), err.ptr(), err.0.len()) };
    if rc != 0 {
        return Err(err.message(rc));
    }
    Ok(())
}

/// Whether `kind` is a policy kind a plugin registered (false with no
/// plugin loaded: the host is not even made).
pub fn is_policy_kind(kind: &[u8]) -> bool {
    let Ok(kind) = CString::new(kind) else {
        return false;
    };
    // SAFETY: h is the host, kind NUL-terminated.
    with_host(|h| unsafe { ffi::flh_is_plugin_policy(h, kind.as_ptr()) } == 1).unwrap_or(false)
}

/// Whether `kind` is an extractor kind a plugin registered.
pub fn is_extractor_kind(kind: &[u8]) -> bool {
    let Ok(kind) = CString::new(kind) else {
        return false;
    };
    // SAFETY: h is the host, kind NUL-terminated.
    with_host(|h| unsafe { ffi::flh_is_plugin_extractor(h, kind.as_ptr()) } == 1).unwrap_or(false)
}

/// The protocol lines of the contract violations queued since the last
/// call (each ending in '\n'), if any.
pub fn take_violations() -> Option<Vec<u8>> {
    with_host(|h| {
        // SAFETY: h is the host; a non-NULL result is a NUL-terminated
        // malloc'd string, ours to free with flh_free.
        unsafe {
            let lines = ffi::flh_take_violations(h);
            if lines.is_null() {
                return None;
            }
            let out = CStr::from_ptr(lines).to_bytes().to_vec();
            ffi::flh_free(lines.cast());
            Some(out)
        }
    })
    .flatten()
}

// ---- Policies, builders, filters ------------------------------------------

/// A C policy; freed when the last policy, builder or filter of it goes.
struct PolicyHandle(*mut ffi::Policy);

// SAFETY: the pointer is only used with `HOST`'s lock held (`call`).
unsafe impl Send for PolicyHandle {}
// SAFETY: as for Send: shared use is serialized by the lock too.
unsafe impl Sync for PolicyHandle {}

impl Drop for PolicyHandle {
    fn drop(&mut self) {
        // SAFETY: the host made this policy; nothing uses it after this.
        call(|h| unsafe { ffi::flh_policy_free(h, self.0) });
    }
}

/// A plugin's filter policy as SlateDB's `FilterPolicy`. Two are equal
/// when their specs are.
pub struct PluginPolicy {
    spec: Vec<u8>,
    name: String,
    policy: Arc<PolicyHandle>,
}

impl PluginPolicy {
    /// `flh_policy_new` of `spec` as given; its error is `SpecError::Invalid`
    /// with the host's message.
    pub fn new(spec: &[u8]) -> Result<Self, SpecError> {
        let text = c_string("the policy spec", spec).map_err(SpecError::Invalid)?;
        let mut err = ErrBuf::new();
        let mut p = ptr::null_mut();
        // SAFETY: h is the host, text NUL-terminated, out and err valid.
        let rc = call(|h| unsafe {
            ffi::flh_policy_new(h, text.as_ptr(), &mut p, err.ptr(), err.0.len())
        });
        if rc != 0 || p.is_null() {
            return Err(SpecError::Invalid(err.message(rc)));
        }
        let policy = Arc::new(PolicyHandle(p));
        // SAFETY: the name lives while the policy does; owned_name copies it.
        let name =
            call(|h| owned_name("policy spec", spec, unsafe { ffi::flh_policy_name(h, p) }))?;
        Ok(PluginPolicy {
            spec: spec.to_vec(),
            name,
            policy,
        })
    }
}

impl PartialEq for PluginPolicy {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}

impl Eq for PluginPolicy {}

impl fmt::Debug for PluginPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PluginPolicy({})", String::from_utf8_lossy(&self.spec))
    }
}

impl FilterPolicy for PluginPolicy {
    fn name(&self) -> &str {
        &self.name
    }

    fn builder(&self) -> Box<dyn FilterBuilder> {
        let mut b = ptr::null_mut();
        // SAFETY: the host's policy; out valid. A NULL *out: the wrapper
        // reported why, and the filter answers maybe.
        call(|h| unsafe { ffi::flh_builder_new(h, self.policy.0, &mut b) });
        Box::new(PluginBuilder {
            policy: self.policy.clone(),
            builder: b,
            built: false,
        })
    }

    /// Never fails: a filter the plugin cannot decode answers maybe.
    fn decode(&self, data: &[u8]) -> Arc<dyn Filter> {
        let mut f = ptr::null_mut();
        // SAFETY: the host's policy; data borrowed for the call; out valid.
        call(|h| unsafe {
            ffi::flh_filter_decode(h, self.policy.0, data.as_ptr(), data.len(), &mut f)
        });
        PluginFilter::wrap(self.policy.clone(), f)
    }

    fn estimate_size(&self, num_keys: usize) -> usize {
        // SAFETY: the host's policy.
        call(|h| unsafe { ffi::flh_policy_estimate_size(h, self.policy.0, num_keys) })
    }

    /// filterlab's model asks every usable sub-filter on a prefix read; the
    /// plugin's filter decides (it may answer maybe). (Not in 0.14.1's
    /// trait: it asks every filter on a prefix read, and none on a range.)
    #[cfg(not(feature = "slatedb-0-14"))]
    fn supports_prefix_queries(&self) -> bool {
        true
    }

    #[cfg(not(feature = "slatedb-0-14"))]
    fn supports_range_queries(&self) -> bool {
        false
    }
}

/// One SST's builder of a plugin policy (NULL when the plugin failed to
/// make one: its filter answers maybe).
struct PluginBuilder {
    policy: Arc<PolicyHandle>,
    builder: *mut ffi::Builder,
    built: bool,
}

// SAFETY: the pointer is only used with `HOST`'s lock held (`call`).
unsafe impl Send for PluginBuilder {}

impl FilterBuilder for PluginBuilder {
    /// A put, a deletion (tombstone) or a merge operand (a put of it).
    fn add_entry(&mut self, entry: &RowEntry) {
        if self.builder.is_null() || self.built {
            return;
        }
        let (tombstone, value): (c_int, &[u8]) = match &entry.value {
            ValueDeletable::Value(v) | ValueDeletable::Merge(v) => (0, v),
            ValueDeletable::Tombstone => (1, &[]),
        };
        let key = &entry.key;
        // SAFETY: the host's policy and builder; key and value borrowed for
        // the call.
        call(|h| unsafe {
            ffi::flh_builder_add(
                h,
                self.policy.0,
                self.builder,
                key.as_ptr(),
                key.len(),
                tombstone,
                value.as_ptr(),
                value.len(),
            )
        });
    }

    /// The filter (the plugin's builder builds once; a second build, which
    /// SlateDB does not make, would answer maybe).
    fn build(&mut self) -> Arc<dyn Filter> {
        let mut f = ptr::null_mut();
        if !self.builder.is_null() && !self.built {
            self.built = true;
            // SAFETY: the host's policy and builder; out valid.
            call(|h| unsafe { ffi::flh_builder_build(h, self.policy.0, self.builder, &mut f) });
        }
        PluginFilter::wrap(self.policy.clone(), f)
    }
}

impl Drop for PluginBuilder {
    fn drop(&mut self) {
        if !self.builder.is_null() {
            // SAFETY: the host made this builder; nothing uses it after this.
            call(|h| unsafe { ffi::flh_builder_free(h, self.policy.0, self.builder) });
        }
    }
}

/// A C filter (NULL: it answers maybe to everything, encodes to nothing).
struct FilterHandle {
    policy: Arc<PolicyHandle>,
    filter: *mut ffi::Filter,
}

// SAFETY: the pointer is only used with `HOST`'s lock held (`call`).
unsafe impl Send for FilterHandle {}
// SAFETY: as for Send: shared use is serialized by the lock too.
unsafe impl Sync for FilterHandle {}

impl Drop for FilterHandle {
    fn drop(&mut self) {
        if !self.filter.is_null() {
            // SAFETY: the host made this filter; nothing uses it after this.
            call(|h| unsafe { ffi::flh_filter_free(h, self.policy.0, self.filter) });
        }
    }
}

/// A plugin's filter as SlateDB's `Filter`.
struct PluginFilter(Arc<FilterHandle>);

impl PluginFilter {
    fn wrap(policy: Arc<PolicyHandle>, filter: *mut ffi::Filter) -> Arc<dyn Filter> {
        Arc::new(PluginFilter(Arc::new(FilterHandle { policy, filter })))
    }
}

impl Filter for PluginFilter {
    /// Point and Prefix go to the plugin with the read's context; a range
    /// (which SlateDB does not ask: `supports_range_queries` is false) is
    /// maybe.
    fn might_match(&self, query: &FilterQuery) -> bool {
        let (kind, bytes) = match compat::query_target(query) {
            Some((Target::Point, key)) => (KIND_POINT, key),
            Some((Target::Prefix, prefix)) => (KIND_PREFIX, prefix),
            None => return true,
        };
        let ctx: Option<&[u8]> = match &query.context {
            None => None,
            Some(FilterContext::Bytes(b)) => Some(b),
            Some(FilterContext::Inline(b)) => Some(b),
            // a context of a kind SlateDB 0.18.0 does not have: maybe
            Some(_) => return true,
        };
        let (has_ctx, ctx) = match ctx {
            Some(c) => (1, c),
            None => (0, &[][..]),
        };
        let FilterHandle { policy, filter } = &*self.0;
        // SAFETY: the host's policy and filter (or NULL); bytes and ctx
        // borrowed for the call.
        call(|h| unsafe {
            ffi::flh_filter_might_match(
                h,
                policy.0,
                *filter,
                kind,
                bytes.as_ptr(),
                bytes.len(),
                has_ctx,
                ctx.as_ptr(),
                ctx.len(),
            )
        }) != 0
    }

    fn encode(&self, writer: &mut dyn BufMut) {
        let mut out = ptr::null_mut();
        let mut len = 0;
        // SAFETY: the host's policy and filter (or NULL); a non-NULL *out
        // is len malloc'd bytes, ours to free with flh_free.
        call(|h| unsafe {
            let rc = ffi::flh_filter_encode(h, self.0.policy.0, self.0.filter, &mut out, &mut len);
            if !out.is_null() {
                if rc == 0 {
                    writer.put_slice(std::slice::from_raw_parts(out, len));
                }
                ffi::flh_free(out.cast());
            }
        });
    }

    fn size(&self) -> usize {
        // SAFETY: the host's policy and filter (or NULL).
        call(|h| unsafe { ffi::flh_filter_size(h, self.0.policy.0, self.0.filter) })
    }

    /// The same C filter: nothing of it is held in Rust.
    fn clamp_allocated_size(&self) -> Arc<dyn Filter> {
        Arc::new(PluginFilter(self.0.clone()))
    }
}

// ---- Extractors -----------------------------------------------------------

/// A plugin's prefix extractor as SlateDB's `PrefixExtractor`. Two are equal
/// when their specs are.
pub struct PluginExtractor {
    spec: Vec<u8>,
    name: String,
    extractor: *mut ffi::Extractor,
}

// SAFETY: the pointer is only used with `HOST`'s lock held (`call`).
unsafe impl Send for PluginExtractor {}
// SAFETY: as for Send: shared use is serialized by the lock too.
unsafe impl Sync for PluginExtractor {}

impl PluginExtractor {
    /// `flh_extractor_new` of `spec` as given; its error is
    /// `SpecError::Invalid` with the host's message.
    pub fn new(spec: &[u8]) -> Result<Self, SpecError> {
        let text = c_string("the extractor spec", spec).map_err(SpecError::Invalid)?;
        let mut err = ErrBuf::new();
        let mut x = ptr::null_mut();
        // SAFETY: h is the host, text NUL-terminated, out and err valid.
        let rc = call(|h| unsafe {
            ffi::flh_extractor_new(h, text.as_ptr(), &mut x, err.ptr(), err.0.len())
        });
        if rc != 0 || x.is_null() {
            return Err(SpecError::Invalid(err.message(rc)));
        }
        let mut extractor = PluginExtractor {
            spec: spec.to_vec(),
            name: String::new(),
            extractor: x,
        };
        // SAFETY: the name lives while the extractor does; owned_name copies
        // it. On an error, dropping `extractor` frees it.
        extractor.name = call(|h| {
            owned_name("extractor spec", spec, unsafe {
                ffi::flh_extractor_name(h, x)
            })
        })?;
        Ok(extractor)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The prefix length of `bytes` asked as `target`.
    pub fn extract(&self, target: Target, bytes: &[u8]) -> Option<usize> {
        let kind = match target {
            Target::Point => KIND_POINT,
            Target::Prefix => KIND_PREFIX,
        };
        let mut n = 0;
        // SAFETY: the host's extractor; bytes borrowed for the call; n valid.
        let has = call(|h| unsafe {
            ffi::flh_extractor_prefix_len(
                h,
                self.extractor,
                kind,
                bytes.as_ptr(),
                bytes.len(),
                &mut n,
            )
        });
        (has == 1 && n <= bytes.len()).then_some(n)
    }
}

impl Drop for PluginExtractor {
    fn drop(&mut self) {
        // SAFETY: the host made this extractor; nothing uses it after this.
        call(|h| unsafe { ffi::flh_extractor_free(h, self.extractor) });
    }
}

impl PartialEq for PluginExtractor {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}

impl Eq for PluginExtractor {}

impl fmt::Debug for PluginExtractor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PluginExtractor({})",
            String::from_utf8_lossy(&self.spec)
        )
    }
}

impl PrefixExtractor for PluginExtractor {
    fn name(&self) -> &str {
        &self.name
    }

    fn prefix_len(&self, target: &PrefixTarget) -> Option<usize> {
        match target {
            PrefixTarget::Point(key) => self.extract(Target::Point, key),
            PrefixTarget::Prefix(prefix) => self.extract(Target::Prefix, prefix),
        }
    }
}
