//! Hessian libraries of other languages as peers: python-hessian (PyPI) and hessian.js (npm).
//!
//! Each is pinned in `interop/peers` (`requirements.txt`, `package.json` with its lock file) and
//! installed on first use inside the repository: python-hessian with `pip install --target
//! target/peers/python`, hessian.js with `npm ci` into `interop/peers/node_modules`. The scripts
//! that drive them are `interop/peers/python_peer.py`, `interop/peers/node_peer.js` and
//! `interop/peers/node_negotiating_client.js` (their commands are described at their top). Like [`crate::java`], a missing interpreter or a failed
//! install skips the test with a message locally and fails it under `CI`.
//!
//! The scripts print decoded values in a *plain view* that both languages can produce (their
//! libraries do not keep every distinction Hessian makes): JSON scalars (numbers for int, long and
//! double alike, or `{"double": "repr"}`; a decimal string for a long beyond 2^53),
//! `{"date": ms}`, `{"binary": hex}`, arrays for lists, `{"map": [[k, v], ...]}`,
//! `{"object": type, "fields": [[name, v], ...]}` and `{"cycle": true}` where a value contains
//! itself. [`matches()`] compares such a view with the [`Value`] that should have been read.

use crate::java::repo_root;
use hessian::Value;
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// An installed peer: the interpreter, its script and the environment it needs.
#[derive(Clone, Debug)]
pub struct Peer {
    program: String,
    script: PathBuf,
    env: Vec<(String, String)>,
}

impl Peer {
    /// The same interpreter and environment running another script of its directory
    /// (`interop/peers`).
    pub fn with_script(&self, file: &str) -> Peer {
        Peer { script: self.script.with_file_name(file), ..self.clone() }
    }

    /// A command that runs the peer's script with `args`.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.program);
        c.arg(&self.script).args(args);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c
    }

    /// Runs the script with `args`, feeding it `stdin`; returns its standard output, panicking
    /// with its output when it fails.
    pub fn run(&self, args: &[&str], stdin: &str) -> String {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {} {}: {e}", self.program, self.script.display()));
        let mut input = child.stdin.take().expect("stdin");
        let text = stdin.to_owned();
        let feeder = std::thread::spawn(move || {
            let _ = input.write_all(text.as_bytes());
        });
        let out = child.wait_with_output().expect("peer output");
        let _ = feeder.join();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{} {} {args:?} failed ({}):\n{stdout}\n{}",
            self.program,
            self.script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    }
}

fn unavailable(what: &str, why: String, install: &str) -> Option<Peer> {
    if std::env::var_os("CI").is_some() {
        panic!("{what} tests must run in CI but {why}");
    }
    eprintln!("SKIPPING {what} test: {why} (needs {install})");
    None
}

fn status_of(c: &mut Command) -> Result<(), String> {
    match c.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("{:?} failed: {}", c, String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("{:?}: {e}", c.get_program())),
    }
}

/// python-hessian 1.2.0 under the machine's `python3`, installed into `target/peers/python` on
/// first use; `None` (a skip) when Python or the install is missing, a panic under `CI`.
pub fn python_hessian() -> Option<Peer> {
    static PEER: OnceLock<Option<Peer>> = OnceLock::new();
    PEER.get_or_init(|| {
        let root = repo_root();
        let target = root.join("target/peers/python");
        let installed = target.join("pyhessian/client.py").exists();
        if !installed {
            let r = status_of(
                Command::new("python3")
                    .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target"])
                    .arg(&target)
                    .arg("-r")
                    .arg(root.join("interop/peers/requirements.txt")),
            );
            if let Err(why) = r {
                return unavailable("python-hessian", why, "python3 with pip and the PyPI registry");
            }
        }
        Some(Peer {
            program: "python3".into(),
            script: root.join("interop/peers/python_peer.py"),
            env: vec![
                ("PYTHONPATH".into(), target.display().to_string()),
                ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
            ],
        })
    })
    .clone()
}

/// hessian.js 2.11.0 under the machine's `node`, installed with `npm ci` into
/// `interop/peers/node_modules` on first use; `None` (a skip) when Node.js or the install is
/// missing, a panic under `CI`.
pub fn hessian_js() -> Option<Peer> {
    static PEER: OnceLock<Option<Peer>> = OnceLock::new();
    PEER.get_or_init(|| {
        let dir = repo_root().join("interop/peers");
        if !dir.join("node_modules/hessian.js/package.json").exists() {
            let r =
                status_of(Command::new("npm").args(["ci", "--silent", "--no-audit", "--no-fund"]).current_dir(&dir));
            if let Err(why) = r {
                return unavailable("hessian.js", why, "node and npm with the npm registry");
            }
        }
        Some(Peer { program: "node".into(), script: dir.join("node_peer.js"), env: Vec::new() })
    })
    .clone()
}

/// Parses the script's JSON lines.
pub fn json_lines(out: &str) -> Vec<Json> {
    out.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("peer printed a line that is not JSON ({e}): {l}")))
        .collect()
}

/// Whether the plain view `got` (module documentation) shows `expected`: `Ok` or the first
/// difference with its path. References in `expected` are resolved against the values they
/// point at (one reference space per message, numbered as the reader meets lists, maps and
/// objects); a reference to a value that contains it must show as `{"cycle": true}`. Maps and
/// object fields are compared by key, in any order (a Java `HashMap` has none, and JavaScript
/// objects put integer-like keys first).
pub fn matches(expected: &Value, got: &Json) -> Result<(), String> {
    let table = expected.reference_table();
    let mut open = Vec::new();
    compare(expected, got, &table, &mut open, "$")
}

fn number(got: &Json) -> Option<f64> {
    match got {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => s.parse().ok(),
        Json::Object(o) if o.len() == 1 => o.get("double").and_then(number),
        _ => None,
    }
}

fn integer(got: &Json) -> Option<i128> {
    match got {
        Json::Number(n) => n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)).or_else(|| {
            // JavaScript writes an integral double as a number with no fraction; accept it
            // exactly when it is one
            n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 2f64.powi(63)).map(|f| f as i128)
        }),
        Json::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn tagged<'a>(got: &'a Json, tag: &str) -> Option<&'a Json> {
    got.as_object().filter(|o| o.len() == 1).and_then(|o| o.get(tag))
}

fn compare<'a>(
    expected: &'a Value,
    got: &Json,
    table: &[&'a Value],
    open: &mut Vec<*const Value>,
    path: &str,
) -> Result<(), String> {
    let differ = || Err(format!("{path}: expected {expected}, got {got}"));
    match expected {
        Value::Null => {
            if got.is_null() {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Bool(b) => {
            if got.as_bool() == Some(*b) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Int(i) => {
            if integer(got) == Some(i128::from(*i)) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Long(i) => {
            if integer(got) == Some(i128::from(*i)) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Double(d) => match number(got) {
            Some(x) if x == *d || (x.is_nan() && d.is_nan()) => Ok(()),
            _ => differ(),
        },
        Value::String(s) => {
            if got.as_str() == Some(s.as_str()) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Date(ms) => {
            if tagged(got, "date").and_then(integer) == Some(i128::from(*ms)) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Binary(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            if tagged(got, "binary").and_then(Json::as_str) == Some(hex.as_str()) {
                Ok(())
            } else {
                differ()
            }
        }
        Value::Ref(i) => {
            let Some(target) = table.get(*i as usize).copied() else {
                return Err(format!("{path}: expected reference {i} is outside the message"));
            };
            if open.contains(&(target as *const Value)) {
                return if tagged(got, "cycle") == Some(&Json::Bool(true)) { Ok(()) } else { differ() };
            }
            compare(target, got, table, open, path)
        }
        Value::List(l) => {
            let Some(items) = got.as_array() else { return differ() };
            if items.len() != l.items.len() {
                return Err(format!("{path}: expected {} items, got {}", l.items.len(), items.len()));
            }
            open.push(expected);
            let r = l
                .items
                .iter()
                .zip(items)
                .enumerate()
                .try_for_each(|(i, (e, g))| compare(e, g, table, open, &format!("{path}[{i}]")));
            open.pop();
            r
        }
        Value::Map(m) => {
            // a typed map with string keys may be read as an object of that type (Hessian 1's
            // way of writing objects, and how python-hessian reads every typed map)
            let pairs = match (tagged(got, "map"), got.get("object"), got.get("fields")) {
                (Some(p), _, _) => p.as_array().cloned().unwrap_or_default(),
                (None, Some(Json::String(t)), Some(f)) if m.type_name.as_deref() == Some(t.as_str()) => {
                    f.as_array().cloned().unwrap_or_default()
                }
                _ => return differ(),
            };
            if pairs.len() != m.entries.len() {
                return Err(format!("{path}: expected {} entries, got {}", m.entries.len(), pairs.len()));
            }
            open.push(expected);
            let r = m.entries.iter().try_for_each(|(k, v)| {
                let found = pairs
                    .iter()
                    .find(|p| p.get(0).is_some_and(|gk| compare(k, gk, table, &mut open.clone(), path).is_ok()));
                match found.and_then(|p| p.get(1)) {
                    Some(gv) => compare(v, gv, table, open, &format!("{path}[{k}]")),
                    None => Err(format!("{path}: key {k} missing in {got}")),
                }
            });
            open.pop();
            r
        }
        Value::Object(o) => {
            let (Some(Json::String(t)), Some(Json::Array(fields))) = (got.get("object"), got.get("fields")) else {
                return differ();
            };
            if *t != o.class.name {
                return Err(format!("{path}: expected an object of {}, got one of {t}", o.class.name));
            }
            if fields.len() != o.fields.len() {
                return Err(format!("{path}: expected {} fields, got {}", o.fields.len(), fields.len()));
            }
            open.push(expected);
            let r = o.class.fields.iter().zip(&o.fields).try_for_each(|(name, v)| {
                match fields
                    .iter()
                    .find(|f| f.get(0).and_then(Json::as_str) == Some(name.as_str()))
                    .and_then(|f| f.get(1))
                {
                    Some(gv) => compare(v, gv, table, open, &format!("{path}.{name}")),
                    None => Err(format!("{path}: field {name} missing in {got}")),
                }
            });
            open.pop();
            r
        }
        Value::Remote(_) => Err(format!("{path}: the plain view has no form for {expected}")),
    }
}
