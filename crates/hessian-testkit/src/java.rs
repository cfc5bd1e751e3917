//! Compiling and running the Java reference programs of `interop/java/src`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;

/// Where Debian's `libhessian-java` installs the reference jar.
pub const HESSIAN_JAR: &str = "/usr/share/java/hessian-4.0.38.jar";

/// Debian's embedded Jetty 9.4 (`libjetty9-java`, which pulls `libservlet-api-java`): the jars the
/// Jetty programs ([`JETTY_SOURCES`]) compile and run against.
pub const JETTY_JARS: &[&str] = &[
    "/usr/share/java/jetty9-server.jar",
    "/usr/share/java/jetty9-servlet.jar",
    "/usr/share/java/jetty9-http.jar",
    "/usr/share/java/jetty9-io.jar",
    "/usr/share/java/jetty9-util.jar",
    "/usr/share/java/jetty9-security.jar",
    "/usr/share/java/servlet-api.jar",
];

/// The sources of `interop/java/src` that need [`JETTY_JARS`]; without Jetty installed they are
/// left out of the compilation, so the other Java programs still build.
pub const JETTY_SOURCES: &[&str] = &[
    "HessianJetty.java",
    "JettyBench.java",
    "JettyFaults.java",
    "InventoryJetty.java",
    "JettyGateway.java",
    "JettyProxyPeers.java",
];

/// Whether every jar of [`JETTY_JARS`] is installed.
pub fn jetty_present() -> bool {
    JETTY_JARS.iter().all(|j| Path::new(j).exists())
}

/// What every JVM of the tests needs on Java 17: module access for the reference's
/// serializers, and no Nagle delay in `com.sun.net.httpserver`.
const ACCESS: [&str; 7] = [
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.math=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.net=ALL-UNNAMED",
    "--add-opens=java.base/java.time=ALL-UNNAMED",
    "-Dsun.net.httpserver.nodelay=true",
];

/// `a` then `b` (a `const` list of options made of two).
const fn join<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// JVM options the reference needs on Java 17 (module access for its serializers, and no Nagle
/// delay in `com.sun.net.httpserver`), with quick start-up settings for tests.
pub const JVM_OPTS: &[&str] =
    &join::<7, 3, 10>(ACCESS, ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"]);

/// JVM options for timing Java (`Java::run_timing`): what the reference needs from [`JVM_OPTS`]
/// (module access, no Nagle delay), without its test start-up settings: the full tiered JIT (C2;
/// `JVM_OPTS` stops at C1) and the collector and heap the JVM picks itself (G1 on the project's
/// 2-core machine, not `JVM_OPTS`' Serial GC), as a server started with defaults runs.
pub const TIMING_JVM_OPTS: &[&str] = &ACCESS;

/// The compiled Java programs, ready to run.
#[derive(Debug, Clone)]
pub struct Java {
    classes: PathBuf,
    jetty: bool,
}

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

fn tool_present(name: &str) -> bool {
    Command::new(name).arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// Compiles the Java sources (once per process, into `target/interop-java/<hash>`) and returns a
/// handle, or `None` with a printed skip message when Java or the jar is missing. Under `CI`
/// a missing Java is a test failure, never a skip.
pub fn java() -> Option<Java> {
    static JAVA: OnceLock<Option<Java>> = OnceLock::new();
    JAVA.get_or_init(|| {
        let missing = if !tool_present("javac") || !tool_present("java") {
            Some("javac/java not found")
        } else if !Path::new(HESSIAN_JAR).exists() {
            Some("libhessian-java (hessian-4.0.38.jar) not installed")
        } else {
            None
        };
        if let Some(why) = missing {
            if std::env::var_os("CI").is_some() {
                panic!("Java interop tests must run in CI but {why}: run .ci/run, which installs them");
            }
            eprintln!("SKIPPING Java interop test: {why} (apt-get install default-jdk-headless libhessian-java)");
            return None;
        }
        Some(compile())
    })
    .clone()
}

/// Like [`java`], and also needs Jetty ([`JETTY_JARS`]): `None` with a printed skip message when
/// Java or Jetty is missing, a panic under `CI`.
pub fn java_with_jetty() -> Option<Java> {
    let java = java()?;
    if java.has_jetty() {
        return Some(java);
    }
    let why = "libjetty9-java (the jars /usr/share/java/jetty9-*.jar, servlet-api.jar) not installed";
    if std::env::var_os("CI").is_some() {
        panic!("Jetty tests must run in CI but {why}: run .ci/run, which installs it");
    }
    eprintln!("SKIPPING Jetty test: {why} (apt-get install libjetty9-java)");
    None
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read interop/java/src").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
}

fn compile() -> Java {
    let root = repo_root();
    let mut files = Vec::new();
    sources(&root.join("interop/java/src"), &mut files);
    let jetty = jetty_present();
    if !jetty {
        files.retain(|f| !f.file_name().is_some_and(|n| JETTY_SOURCES.iter().any(|j| n == *j)));
    }
    let mut classpath = HESSIAN_JAR.to_string();
    if jetty {
        for j in JETTY_JARS {
            classpath.push(':');
            classpath.push_str(j);
        }
    }
    // Content hash of all sources: a changed source compiles into a fresh directory, and
    // concurrent test binaries compiling the same sources race harmlessly via rename.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in classpath.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    for f in &files {
        for b in f.to_string_lossy().bytes().chain(std::fs::read(f).expect("read java source")) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
        }
    }
    let base = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let classes = base.join("interop-java").join(format!("{h:016x}"));
    if !classes.join(".complete").exists() {
        let tmp = base.join("interop-java").join(format!("tmp-{}-{h:016x}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).expect("create java output dir");
        let out = Command::new("javac")
            .args(["-nowarn", "-encoding", "UTF-8", "-cp", &classpath, "-d"])
            .arg(&tmp)
            .args(&files)
            .output()
            .expect("run javac");
        assert!(out.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&out.stderr));
        std::fs::write(tmp.join(".complete"), b"").expect("mark compiled");
        if std::fs::rename(&tmp, &classes).is_err() {
            // another process won the race; use its output
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
    Java { classes, jetty }
}

impl Java {
    /// The directory of the compiled classes of `interop/java/src`.
    pub fn classes_dir(&self) -> &Path {
        &self.classes
    }

    /// The class path: compiled programs plus the reference jar (and [`JETTY_JARS`] when the
    /// Jetty programs were compiled).
    pub fn classpath(&self) -> String {
        let mut cp = format!("{}:{}", self.classes.display(), HESSIAN_JAR);
        if self.jetty {
            for j in JETTY_JARS {
                cp.push(':');
                cp.push_str(j);
            }
        }
        cp
    }

    /// Whether the Jetty programs ([`JETTY_SOURCES`]) were compiled and can run.
    pub fn has_jetty(&self) -> bool {
        self.jetty
    }

    /// A `java` command for `main_class` with the class path and JVM options set.
    pub fn command(&self, main_class: &str) -> Command {
        self.command_with(JVM_OPTS, main_class)
    }

    /// A `java` command for `main_class` with the class path and the JVM options `opts`.
    pub fn command_with(&self, opts: &[&str], main_class: &str) -> Command {
        let mut c = Command::new("java");
        c.args(opts).arg("-cp").arg(self.classpath()).arg(main_class);
        c
    }

    /// Runs `main_class args…` for timing, with [`TIMING_JVM_OPTS`] (full JIT) instead of the test
    /// options, stdin empty and stderr passed through; returns stdout, panics on failure.
    pub fn run_timing(&self, main_class: &str, args: &[&str]) -> Vec<u8> {
        let out = self
            .command_with(TIMING_JVM_OPTS, main_class)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .expect("spawn java");
        assert!(out.status.success(), "java {main_class} {args:?} failed ({})", out.status);
        out.stdout
    }

    /// Runs `main_class args…` with `stdin`, returning its output; panics with stderr on failure.
    pub fn run(&self, main_class: &str, args: &[&str], stdin: &[u8]) -> Vec<u8> {
        let out = self.try_run(main_class, args, stdin);
        assert!(
            out.status.success(),
            "java {main_class} {args:?} failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    /// Runs `main_class args…` with `stdin`, returning the raw output whatever the exit status.
    pub fn try_run(&self, main_class: &str, args: &[&str], stdin: &[u8]) -> Output {
        use std::io::Write;
        let mut child = self
            .command(main_class)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn java");
        let mut input = child.stdin.take().expect("stdin");
        let data = stdin.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&data);
        });
        let out = child.wait_with_output().expect("wait for java");
        let _ = writer.join();
        out
    }

    /// Starts `main_class args…` in the background (e.g. a server); the caller kills it.
    pub fn spawn(&self, main_class: &str, args: &[&str]) -> Child {
        self.spawn_with(JVM_OPTS, main_class, args)
    }

    /// [`spawn`](Self::spawn) with the JVM options `opts`.
    pub fn spawn_with(&self, opts: &[&str], main_class: &str, args: &[&str]) -> Child {
        self.command_with(opts, main_class)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn java")
    }
}

/// Runs a check program that prints the line `pause` and then waits for a line on stdin: runs
/// `between` at the pause, lets the program go on, and returns what it printed after the pause.
/// The program must succeed.
pub fn run_paused(mut command: Command, pause: &str, between: impl FnOnce()) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn the check program");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
    let mut before = String::new();
    loop {
        let mut l = String::new();
        assert!(lines.read_line(&mut l).expect("read") > 0, "the program ended before {pause}:\n{before}");
        if l.trim() == pause {
            break;
        }
        before.push_str(&l);
    }
    between();
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"go\n").expect("write to the program");
    drop(stdin);
    let mut after = String::new();
    lines.read_to_string(&mut after).expect("read");
    assert!(child.wait().expect("wait").success(), "the program failed:\n{before}{pause}\n{after}");
    after
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_options_are_the_access_options_then_the_start_up_settings() {
        assert_eq!(JVM_OPTS.len(), 10);
        assert_eq!(&JVM_OPTS[..7], TIMING_JVM_OPTS);
        assert_eq!(&JVM_OPTS[7..], ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"]);
        assert!(JVM_OPTS.iter().all(|o| !o.is_empty()));
    }
}
