//! What the suite ran on: cores, memory, kernel, CPU, Rust and Java, and the version of every
//! peer library (Rust crates from the workspace's `Cargo.lock`, Java packages from `dpkg`).

use serde::Serialize;
use std::collections::BTreeMap;
use std::process::Command;

/// The machine and the versions of everything measured.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// The host name.
    pub host: String,
    /// Logical CPUs available to the suite.
    pub cores: usize,
    /// CPU model (`/proc/cpuinfo`).
    pub cpu: String,
    /// Total memory in MiB (`/proc/meminfo`).
    pub memory_mib: u64,
    /// Kernel release (`/proc/sys/kernel/osrelease`).
    pub kernel: String,
    /// Load average when the suite started (`/proc/loadavg`).
    pub load_at_start: String,
    /// `rustc --version`.
    pub rustc: String,
    /// `java -version`, or why there is none.
    pub java: String,
    /// Rust crates measured or used as peers, name -> version.
    pub rust_crates: BTreeMap<String, String>,
    /// Java libraries (Debian packages), package -> version, `not installed` when absent.
    pub java_packages: BTreeMap<String, String>,
}

/// The Rust crates whose versions the report lists.
const CRATES: &[&str] = &[
    "hyper",
    "tokio",
    "serde",
    "serde_json",
    "rmp-serde",
    "bincode",
    "tonic",
    "prost",
    "dxr",
    "plotters",
    "indicatif",
];

/// The Debian packages of the Java peers.
pub const JAVA_PACKAGES: &[&str] =
    &["default-jdk-headless", "libhessian-java", "libspring-web-java", "libjaxws-java", "protobuf-compiler"];

fn first_line(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
    String::from_utf8_lossy(&text).lines().next().map(|l| l.trim().to_owned())
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Versions of `names` from the workspace's `Cargo.lock` (the one the suite was built with).
fn crate_versions() -> BTreeMap<String, String> {
    let lock = read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"));
    let mut out = BTreeMap::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_owned());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            if CRATES.contains(&n.as_str()) {
                out.entry(n).or_insert_with(|| v.trim_matches('"').to_owned());
            }
        }
    }
    for c in CRATES {
        out.entry(c.to_string()).or_insert_with(|| "unknown".into());
    }
    out
}

/// The installed version of a Debian package, or `not installed`.
pub fn package_version(name: &str) -> String {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status} ${Version}", name])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .and_then(|s| s.strip_prefix("install ok installed ").map(str::to_owned))
        .unwrap_or_else(|| "not installed".into())
}

/// The load average now (1, 5, 15 minutes), from `/proc/loadavg`.
pub fn load_average() -> String {
    read("/proc/loadavg").split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

impl Machine {
    /// Probes this machine.
    pub fn probe() -> Machine {
        let cpuinfo = read("/proc/cpuinfo");
        let cpu = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name").map(|r| r.trim_start_matches([' ', '\t', ':']).to_owned()))
            .unwrap_or_else(|| "unknown".into());
        let memory_mib = read("/proc/meminfo")
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|r| r.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024);
        Machine {
            host: crate::seed::remote::host_name(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu,
            memory_mib,
            kernel: read("/proc/sys/kernel/osrelease").trim().to_owned(),
            load_at_start: load_average(),
            rustc: first_line("rustc", &["--version"]).unwrap_or_else(|| "unknown".into()),
            java: first_line("java", &["-version"]).unwrap_or_else(|| "not installed".into()),
            rust_crates: crate_versions(),
            java_packages: JAVA_PACKAGES.iter().map(|p| (p.to_string(), package_version(p))).collect(),
        }
    }
}
