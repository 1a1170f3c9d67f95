//! intel_tex_2's BC7 kernels are C++ objects, and its build script leaves the C++
//! runtime for the final link to name: on Linux this crate names it.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-lib=dylib=stdc++");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
