//! Exports the host's `_exit` (cmodule::exit) from the host binaries, so a C module's
//! call to `_exit()` reaches it instead of libc's and is reported, never silent.
//! It must not do anything else.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-Wl,--export-dynamic-symbol=_exit");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
