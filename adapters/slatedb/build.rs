//! Links filterlab's plugin host (`libfilterlab_host.a`, built by `make`:
//! adapters/proc/proc_host.h and engine/), which src/plugin.rs calls.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=FILTERLAB_HOST_LIB_DIR");
    let dir = match std::env::var_os("FILTERLAB_HOST_LIB_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default())
            .join("../../build"),
    };
    let lib = dir.join("libfilterlab_host.a");
    println!("cargo:rerun-if-changed={}", lib.display());
    if !lib.is_file() {
        println!(
            "cargo::error={} not found: filterlab's plugin host is built by filterlab's Makefile; \
             run `make` in filterlab's top directory (it builds the library, then this crate), \
             or set FILTERLAB_HOST_LIB_DIR to the directory that holds it",
            lib.display()
        );
        return;
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
    // Whole: plugins are dlopen()ed and resolve fl_registry_add_policy,
    // fl_buf_append, ... against the executable, which nothing in Rust calls.
    println!("cargo:rustc-link-lib=static:+whole-archive=filterlab_host");
    for lib in ["xxhash", "dl", "m", "pthread"] {
        println!("cargo:rustc-link-lib=dylib={lib}");
    }
    println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic");
}
