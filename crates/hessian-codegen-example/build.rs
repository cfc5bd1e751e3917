//! `hessian codegen` as a build step, as tonic users know it from `tonic-build`: compiles the
//! Java interface under `java/` with `javac` (a real project would point at its jar instead) and
//! generates its Rust into `$OUT_DIR/greeter.rs`, which `src/lib.rs` `include!`s.
//!
//! Without a JDK the example cannot be generated: under `CI` that fails the build; elsewhere the
//! crate builds empty (the `generated` cfg is unset) and its test says it skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(generated)");
    println!("cargo:rerun-if-changed=java");
    println!("cargo:rerun-if-env-changed=CI");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let classes = out.join("classes");
    let sources: Vec<PathBuf> = ["Greeter", "Greeting", "BlankNameException"]
        .iter()
        .map(|c| Path::new("java/com/example/greeter").join(format!("{c}.java")))
        .collect();
    let javac = Command::new("javac").arg("-d").arg(&classes).args(&sources).output();
    match javac {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!("javac failed:\n{}", String::from_utf8_lossy(&o.stderr)),
        Err(e) if std::env::var_os("CI").is_none() => {
            println!("cargo:warning=no javac ({e}): the build.rs example is not generated");
            return;
        }
        Err(e) => panic!("javac is needed in CI: {e}"),
    }
    let options = hessian_codegen::Options {
        // LinkedHashMap keeps its order: IndexMap (hessian-rpc's `indexmap` feature)
        maps: hessian_codegen::MapType::Index,
        // the service never sends a greeting without text, and `greet` never returns null
        // (return values, like fields, are `Option`s unless declared non-null)
        non_null: vec!["Greeting.text".into(), "Greeter.greet".into()],
        ..Default::default()
    };
    hessian_codegen::generate_to_file(&[&classes], "com.example.greeter.Greeter", &options, out.join("greeter.rs"))
        .unwrap_or_else(|e| panic!("hessian codegen: {e}"));
    println!("cargo:rustc-cfg=generated");
}
