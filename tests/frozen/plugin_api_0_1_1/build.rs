//! The type layouts abi_stable records name the crate they come from
//! (`CARGO_PKG_NAME;CARGO_PKG_VERSION`). This frozen copy cannot share the real crate's
//! package name inside one workspace, so it compiles under the name the real 0.1.1
//! release had: its layouts are then exactly what a 0.1.1 module carries.
fn main() {
    println!("cargo:rustc-env=CARGO_PKG_NAME=gamesman-plugin-api");
    println!("cargo:rerun-if-changed=build.rs");
}
