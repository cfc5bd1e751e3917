//! The Java side of the suite: whether Java rows can run, the compiled programs of
//! `interop/java/src` (compiled by the test kit), and `java` commands with production JVM flags.

use hessian_testkit::java::{Java, HESSIAN_JAR, TIMING_JVM_OPTS};
use std::path::Path;
use std::process::{Command, Stdio};

/// The one command that installs what the Java rows need.
pub const INSTALL: &str = "apt-get install default-jdk-headless libhessian-java";

/// The one command that installs what every Java row of the suite needs (Hessian, RMI, Spring,
/// JAX-WS).
pub const INSTALL_ALL: &str = "apt-get install default-jdk-headless libhessian-java libspring-web-java libjaxws-java";

/// The fixed heap of every JVM the suite starts (production flags: default tiered JIT and GC,
/// no fast-start options, heap fixed so that resizing does not show in the figures).
pub const HEAP: &[&str] = &["-Xms512m", "-Xmx512m"];

/// Whether Java rows run here: the compiled programs, or why not (`Err((skip, reason))`, where
/// `skip` is false under CI, where missing Java fails the rows instead).
pub fn java() -> Result<Java, (bool, String)> {
    let present =
        |c: &str| Command::new(c).arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
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
    let compiled = std::panic::catch_unwind(hessian_testkit::java::java);
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

/// A `java` command for the server `main` listening as `bind` says (`seed serve-all`'s address,
/// or the suite's own loopback): the production flags ([`TIMING_JVM_OPTS`], with `heap` also
/// [`HEAP`]) and `bind`'s system properties.
pub fn command_at(java: &Java, main: &str, bind: &crate::seed::remote::Bind, heap: bool) -> Command {
    let props = bind.jvm_options();
    let heap: &[&str] = if heap { HEAP } else { &[] };
    let opts: Vec<&str> = TIMING_JVM_OPTS.iter().chain(heap).copied().chain(props.iter().map(String::as_str)).collect();
    java.command_with(&opts, main)
}

/// The JVM flags as the report prints them.
pub fn flags() -> String {
    TIMING_JVM_OPTS.iter().chain(HEAP).copied().collect::<Vec<_>>().join(" ")
}

/// Debian's Spring 4.3 jars (`libspring-web-java`) the Spring HttpInvoker peer needs.
pub const SPRING_JARS: &[&str] = &[
    "/usr/share/java/spring3-web.jar",
    "/usr/share/java/spring3-context.jar",
    "/usr/share/java/spring3-beans.jar",
    "/usr/share/java/spring3-core.jar",
    "/usr/share/java/spring3-aop.jar",
    "/usr/share/java/commons-logging.jar",
];

/// Debian's JAX-WS RI 2.3 jars (`libjaxws-java` and what it pulls) the SOAP peer needs.
pub const JAXWS_JARS: &[&str] = &[
    "/usr/share/java/jaxws-rt.jar",
    "/usr/share/java/jaxws-api.jar",
    "/usr/share/java/jws-api.jar",
    "/usr/share/java/jaxb-api.jar",
    "/usr/share/java/jaxb-runtime.jar",
    "/usr/share/java/jaxb-core.jar",
    "/usr/share/java/jaxb-impl.jar",
    "/usr/share/java/javax.activation.jar",
    "/usr/share/java/saaj-impl.jar",
    "/usr/share/java/stax-ex.jar",
    "/usr/share/java/streambuffer.jar",
    "/usr/share/java/metro-policy.jar",
    "/usr/share/java/gmbal.jar",
    "/usr/share/java/glassfish-management-api.jar",
    "/usr/share/java/glassfish-pfl-basic.jar",
    "/usr/share/java/glassfish-pfl-tf.jar",
    "/usr/share/java/glassfish-pfl-dynamic.jar",
    "/usr/share/java/mimepull.jar",
    "/usr/share/java/istack-commons-runtime.jar",
    "/usr/share/java/FastInfoset.jar",
    "/usr/share/java/txw2.jar",
];

/// The command that installs what the Spring and JAX-WS rows need.
pub const PEERS_INSTALL: &str = "apt-get install libspring-web-java libjaxws-java";

/// The Spring and JAX-WS peers of `interop/java/seed-peers`, compiled against Debian's jars (they
/// live outside `interop/java/src`, which the test kit compiles with the Hessian jar alone).
#[derive(Clone, Debug)]
pub struct Peers {
    classpath: String,
}

fn jars(list: &[&str]) -> String {
    list.join(":")
}

/// Compiles `interop/java/seed-peers` (once per content, into the target directory) against
/// `java`'s classes and the Spring and JAX-WS jars; `Err((skip, reason))` as for [`java`].
pub fn peers(java: &Java) -> Result<Peers, (bool, String)> {
    let ci = std::env::var_os("CI").is_some();
    if let Some(missing) = SPRING_JARS.iter().chain(JAXWS_JARS).find(|j| !Path::new(j).exists()) {
        return Err((!ci, format!("{missing} not installed; install with `{PEERS_INSTALL}`")));
    }
    let root = hessian_testkit::java::repo_root();
    let dir = root.join("interop/java/seed-peers");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| (false, format!("{}: {e}", dir.display())))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    let extra = format!("{}:{}", jars(SPRING_JARS), jars(JAXWS_JARS));
    let mut h: u64 = 0xcbf29ce484222325;
    for f in &files {
        for b in std::fs::read(f).unwrap_or_default().into_iter().chain(java.classpath().into_bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
    }
    let base =
        std::env::var_os("CARGO_TARGET_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| root.join("target"));
    let classes = base.join("seed-java").join(format!("{h:016x}"));
    if !classes.join(".complete").exists() {
        std::fs::create_dir_all(&classes).map_err(|e| (false, format!("{}: {e}", classes.display())))?;
        let out = Command::new("javac")
            .args(["-nowarn", "-encoding", "UTF-8", "-cp"])
            .arg(format!("{}:{extra}", java.classpath()))
            .arg("-d")
            .arg(&classes)
            .args(&files)
            .output()
            .map_err(|e| (false, format!("javac: {e}")))?;
        if !out.status.success() {
            return Err((
                false,
                format!("javac interop/java/seed-peers failed: {}", String::from_utf8_lossy(&out.stderr)),
            ));
        }
        std::fs::write(classes.join(".complete"), b"").map_err(|e| (false, e.to_string()))?;
    }
    Ok(Peers { classpath: format!("{}:{}:{extra}", classes.display(), java.classpath()) })
}

impl Peers {
    /// A `java` command for `main` with the peers' class path and the production flags; the
    /// JAX-WS RI's JMX monitoring is off (it needs more of GlassFish than Debian ships).
    pub fn command(&self, main: &str) -> Command {
        self.command_at(main, &crate::seed::remote::Bind::local())
    }

    /// [`Peers::command`] for a server listening as `bind` says (its system properties).
    pub fn command_at(&self, main: &str, bind: &crate::seed::remote::Bind) -> Command {
        let mut c = Command::new("java");
        c.args(TIMING_JVM_OPTS)
            .args(HEAP)
            .args(bind.jvm_options())
            .arg("-Dcom.sun.xml.ws.monitoring.endpoint=false")
            .arg("-Dcom.sun.xml.ws.monitoring.client=false")
            .arg("-cp")
            .arg(&self.classpath)
            .arg(main);
        c
    }
}
