//! The Java side of the suite: whether Java rows can run, the compiled programs of
//! `interop/java/src` (compiled by the test kit), and `java` commands with production JVM flags.

use hessian_testkit::java::{Java, HESSIAN_JAR, TIMING_JVM_OPTS};
use std::path::Path;
use std::process::{Command, Stdio};

/// The one command that installs what the Java rows need.
pub const INSTALL: &str = "apt-get install default-jdk-headless libhessian-java";

/// The fixed heap of every JVM the suite starts (production flags: default tiered JIT and GC,
/// no fast-start options, heap fixed so that resizing does not show in the figures).
pub const HEAP: &[&str] = &["-Xms512m", "-Xmx512m"];

/// Whether Java rows run here: the compiled programs, or why not (`Err((skip, reason))`, where
/// `skip` is false under CI, where missing Java fails the rows instead).
pub fn java() -> Result<Java, (bool, String)> {
    let present = |c: &str| Command::new(c).arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
    let missing = if !present("java") || !present("javac") {
        Some("javac/java not found".to_owned())
    } else if !Path::new(HESSIAN_JAR).exists() {
        Some(format!("{HESSIAN_JAR} (libhessian-java) not installed"))
    } else {
        None
    };
    let ci = std::env::var_os("CI").is_some();
    if let Some(why) = missing {
        return Err((!ci, format!("{why}; install with `{INSTALL}`")));
    }
    // The test kit panics when javac fails; that becomes a failed row here.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let compiled = std::panic::catch_unwind(|| hessian_testkit::java::java());
    std::panic::set_hook(hook);
    match compiled {
        Ok(Some(j)) => Ok(j),
        Ok(None) => Err((!ci, format!("Java not usable; install with `{INSTALL}`"))),
        Err(p) => {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "javac failed".into());
            Err((false, format!("compiling interop/java/src failed: {}", why.chars().take(600).collect::<String>())))
        }
    }
}

/// A `java` command for `main` with the production flags ([`TIMING_JVM_OPTS`] and [`HEAP`]).
pub fn command(java: &Java, main: &str) -> Command {
    let opts: Vec<&str> = TIMING_JVM_OPTS.iter().chain(HEAP).copied().collect();
    java.command_with(&opts, main)
}

/// The JVM flags as the report prints them.
pub fn flags() -> String {
    TIMING_JVM_OPTS.iter().chain(HEAP).copied().collect::<Vec<_>>().join(" ")
}
