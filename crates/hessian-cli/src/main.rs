//! `hessian`: decode Hessian to typed JSON, encode typed JSON back to the exact bytes, and dump
//! annotated traces. See `crates/hessian-cli/README.md` and `docs/typed-json.md`.

mod document;
mod dump;
mod format;
mod gateway;
mod load;
mod pretty;
mod proxy;
mod rpc;

use clap::{Parser, Subcommand};
use document::Document;
use format::{codec, detect, CodecError, Format};
use serde::Deserialize;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc serves the server's many small per-call blocks (the decoded strings of a call, the
/// reply buffer) from thread-local pages instead of glibc's bins (feature `mimalloc`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Deepest JSON nesting `encode` reads: a Hessian value nested to the decoders' default depth
/// (256) takes at most three JSON levels per Hessian level (`{"map": [[k, v]]}`), plus a message.
const MAX_JSON_NESTING: usize = 3 * 256 + 16;

/// Hessian 2.0 / Hessian 1.0.2 / Burlap tool, byte-compatible with Caucho hessian 4.0.38.
#[derive(Parser, Debug)]
#[command(name = "hessian", version)]
struct Cli {
    /// Wire format of the Hessian side. Without it, `decode` and `dump` detect the format from
    /// the input, and `encode` writes Hessian 2 (Hessian 1 for a call with a `version`).
    #[arg(long, short = 'f', value_enum, global = true)]
    format: Option<Format>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Decode a Hessian value or message (call, reply or fault) and print it as typed JSON.
    Decode {
        /// Input file, or `-` for standard input.
        #[arg(default_value = "-")]
        input: PathBuf,
        /// Print the JSON on one line instead of indented.
        #[arg(long)]
        compact: bool,
    },
    /// Read typed JSON (as `decode` prints it, or hand-written) and write the Hessian bytes.
    Encode {
        /// Input file, or `-` for standard input.
        #[arg(default_value = "-")]
        input: PathBuf,
        /// Output file (default: standard output, which must not be a terminal).
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
    },
    /// Print an annotated trace: offset, raw bytes and meaning of every token, indented by nesting.
    Dump {
        /// Input file, or `-` for standard input.
        #[arg(default_value = "-")]
        input: PathBuf,
    },
    /// Call a remote method over HTTP and print the reply as typed JSON (`--format` picks the
    /// protocol; a fault prints `{"fault": ...}`, explains itself on standard error with the
    /// top stack frames of its Java exception, and exits with status 1).
    Call(rpc::CallArgs),
    /// Serve the demo services: W1/W2 at `/bench`, Caucho's TestHessian2 at `/test2`, in every
    /// protocol, until stopped.
    ServeDemo(rpc::ServeArgs),
    /// JSON over HTTP in front of a Hessian service: `POST /METHOD` with a JSON array of
    /// arguments calls the upstream (`--format`) and answers typed JSON; `GET /` describes it.
    /// With `--api`/`--service`, plain JSON arguments by the Java interface's types.
    Gateway(gateway::GatewayArgs),
    /// Load an endpoint with a call: `-n` calls (or `--duration`) at `-c` in flight after a
    /// warm-up, in `--protocol h2|h2.1|h1|hybrid|burlap`; prints throughput, latency
    /// percentiles and histogram, bytes per call (`--json`: one JSON object).
    Load(load::LoadArgs),
    /// Forward every request and reply to `--upstream` byte for byte and show each call decoded:
    /// one line per call (`--json`: JSON lines), `--record DIR`, a live browser view (`--ui`).
    Proxy(proxy::ProxyArgs),
    /// Write Rust for a Java service: serde structs of its parameter and return classes (Java's
    /// names and Caucho's field order, reference fields `Option`), enums, its declared exceptions
    /// and per-method error enums, and the `#[hessian_rpc::service]` trait, read from compiled
    /// classes (`.class` files, directories of them, jars).
    Codegen {
        /// The service interface's binary name, e.g. `com.example.BankService`.
        #[arg(long)]
        service: String,
        /// Class files, directories and jars to read.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output file (default: standard output).
        #[arg(long, short = 'o')]
        output: Option<PathBuf>,
        /// Choices of the generated code (nulls, dates, maps).
        #[command(flatten)]
        options: CodegenArgs,
    },
}

/// `hessian codegen`'s choices ([`hessian_codegen::Options`]).
#[derive(clap::Args, Debug)]
struct CodegenArgs {
    /// A field (`Class.field`), every field of a class (`Class`), a method's return value
    /// (`Interface.method`) or every method's (`Interface`) that is never null, nor are the
    /// elements and map values inside it: its Rust type is not an `Option` (values of reference
    /// types are by default, as Java's may be null). Repeatable; simple or binary class names.
    #[arg(long = "non-null", value_name = "CLASS[.MEMBER]")]
    non_null: Vec<String>,
    /// Boxed primitives (`Integer`, …) as plain Rust primitives, not `Option`.
    #[arg(long)]
    boxed_non_null: bool,
    /// Date fields as `std::time::SystemTime`, `hessian::serde::Date`, chrono's or time's type.
    #[arg(long, value_enum, default_value = "system-time")]
    dates: CodegenDates,
    /// Maps as `HashMap` (`BTreeMap` for sorted ones), `BTreeMap`, or `IndexMap` in the wire's order.
    #[arg(long, value_enum, default_value = "hash")]
    maps: CodegenMaps,
}

/// `--dates`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum CodegenDates {
    /// `std::time::SystemTime`.
    SystemTime,
    /// `hessian::serde::Date`.
    Hessian,
    /// `chrono::DateTime<Utc>` (hessian-rpc's `chrono` feature).
    Chrono,
    /// `time::OffsetDateTime` (hessian-rpc's `time` feature).
    Time,
}

/// `--maps`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum CodegenMaps {
    /// `HashMap`, `BTreeMap` for sorted maps.
    Hash,
    /// `BTreeMap`.
    Btree,
    /// `indexmap::IndexMap` (hessian-rpc's `indexmap` feature).
    Index,
}

impl CodegenArgs {
    fn options(&self) -> hessian_codegen::Options {
        hessian_codegen::Options {
            non_null: self.non_null.clone(),
            boxed_non_null: self.boxed_non_null,
            dates: match self.dates {
                CodegenDates::SystemTime => hessian_codegen::DateType::SystemTime,
                CodegenDates::Hessian => hessian_codegen::DateType::HessianDate,
                CodegenDates::Chrono => hessian_codegen::DateType::Chrono,
                CodegenDates::Time => hessian_codegen::DateType::Time,
            },
            maps: match self.maps {
                CodegenMaps::Hash => hessian_codegen::MapType::Hash,
                CodegenMaps::Btree => hessian_codegen::MapType::BTree,
                CodegenMaps::Index => hessian_codegen::MapType::Index,
            },
        }
    }
}

/// Everything that makes the tool exit with a failure status.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("cannot decode {path}: {source}")]
    Decode { path: String, source: CodecError },
    #[error("{path}: {source}")]
    Dump { path: String, source: CodecError },
    #[error("{path}: invalid JSON: {source}")]
    JsonSyntax { path: String, source: serde_json::Error },
    #[error("{path}: JSON nested deeper than {MAX_JSON_NESTING} levels")]
    JsonTooDeep { path: String },
    #[error("{path}: not valid typed JSON: {source}")]
    TypedJson { path: String, source: hessian::json::JsonError },
    #[error("{path}: {source}")]
    Encode { path: String, source: CodecError },
    #[error("refusing to write binary Hessian to a terminal: redirect standard output or use -o FILE")]
    BinaryToTerminal,
    #[error("argument {index}: {message}")]
    CallArgument { index: usize, message: String },
    #[error("{0}")]
    Rpc(#[from] hessian_rpc::Error),
    /// A fault, explained (see `rpc::fault_text`).
    #[error("{0}")]
    Fault(String),
    #[error("{0}")]
    Load(String),
    #[error("{0}")]
    Usage(String),
    #[error("codegen: {0}")]
    Codegen(#[from] hessian_codegen::Error),
    #[error("{path}: refusing to write bytes that decode would reject: {reason}")]
    Unreadable { path: String, reason: String },
}

impl CliError {
    /// A closed pipe on standard output (e.g. `hessian dump big.bin | head`) is not a failure.
    fn is_broken_pipe(&self) -> bool {
        let io = match self {
            CliError::Io { source, .. } => Some(source),
            CliError::Dump { source, .. } => match source.hessian().map(hessian::Error::kind) {
                Some(hessian::ErrorKind::Io(e)) => Some(e),
                _ => None,
            },
            _ => None,
        };
        io.is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, CliError> {
    let io = |source| CliError::Io { path: display(path), source };
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf).map_err(io)?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(io)
    }
}

pub(crate) fn stdout_err(source: std::io::Error) -> CliError {
    CliError::Io { path: "<stdout>".into(), source }
}

/// Deepest nesting of arrays and objects in JSON text (strings skipped), without recursion.
fn json_nesting(text: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Parses JSON text whose nesting is bounded by [`MAX_JSON_NESTING`] (checked before parsing,
/// so serde_json's own limit of 128 does not refuse deep documents that `decode` printed).
pub(crate) fn parse_json(text: &[u8], path: &str) -> Result<serde_json::Value, CliError> {
    if json_nesting(text) > MAX_JSON_NESTING {
        return Err(CliError::JsonTooDeep { path: path.into() });
    }
    let syntax = |source| CliError::JsonSyntax { path: path.into(), source };
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let v = Strict::deserialize(&mut de).map_err(syntax)?;
    de.end().map_err(syntax)?;
    Ok(v.0)
}

/// A JSON value read like `serde_json::Value`, except that a key repeated within one object is
/// an error instead of silently replacing the earlier entry (the bytes depend on every entry).
struct Strict(serde_json::Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict(serde_json::Value::Null))
    }

    fn visit_bool<E>(self, b: bool) -> Result<Strict, E> {
        Ok(Strict(b.into()))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Strict, E> {
        Ok(Strict(i.into()))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Strict, E> {
        Ok(Strict(u.into()))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Strict, E> {
        // JSON text cannot spell a non-finite number, so this is always Some.
        Ok(Strict(serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Strict, E> {
        Ok(Strict(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Strict, E> {
        Ok(Strict(s.into()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Strict(serde_json::Value::Array(items)))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(k) = map.next_key::<String>()? {
            let Strict(v) = map.next_value()?;
            if m.contains_key(&k) {
                return Err(serde::de::Error::custom(format!("duplicate key {k:?} in one object")));
            }
            m.insert(k, v);
        }
        Ok(Strict(serde_json::Value::Object(m)))
    }
}

/// The format `encode` writes without `--format`: Hessian 2, except for a call with `version`
/// bytes, which only Hessian 1 has (`decode` prints one for the hybrid `c 02 00` call).
fn encode_format(doc: &Document) -> Format {
    match doc {
        Document::Call { version: Some(_), .. } => Format::H1,
        _ => Format::H2,
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Call(args) => return rpc::call(cli.format.unwrap_or(Format::H2), args),
        Command::ServeDemo(args) => return rpc::serve_demo(args),
        Command::Gateway(args) => return gateway::gateway(cli.format.unwrap_or(Format::H2), args),
        Command::Load(args) => return load::load(args),
        Command::Proxy(args) => return proxy::proxy(args),
        Command::Codegen { service, inputs, output, options } => {
            return codegen(&service, &inputs, output.as_deref(), &options.options())
        }
        _ => {}
    }
    let stdout = std::io::stdout();
    match cli.command {
        Command::Decode { input, compact } => {
            let data = read_input(&input)?;
            let decoded = match cli.format {
                Some(f) => codec(f).decode(&data),
                None => detect(&data).map(|(_, doc)| doc),
            };
            let doc = decoded.map_err(|source| CliError::Decode { path: display(&input), source })?;
            let json = doc.to_json();
            let mut out = std::io::BufWriter::new(stdout.lock());
            if compact {
                serde_json::to_writer(&mut out, &json).map_err(|e| stdout_err(e.into()))?;
                out.write_all(b"\n").map_err(stdout_err)?;
            } else {
                pretty::write(&mut out, &json).map_err(stdout_err)?;
            }
            out.flush().map_err(stdout_err)
        }
        Command::Encode { input, output } => {
            if output.is_none() && stdout.is_terminal() {
                return Err(CliError::BinaryToTerminal);
            }
            let path = display(&input);
            let text = read_input(&input)?;
            let json = parse_json(&text, &path)?;
            let doc =
                Document::from_json(&json).map_err(|source| CliError::TypedJson { path: path.clone(), source })?;
            let format = cli.format.unwrap_or_else(|| encode_format(&doc));
            let bytes = codec(format).encode(&doc).map_err(|source| CliError::Encode { path: path.clone(), source })?;
            // what `decode` would refuse is refused here too (a reference to a value that does
            // not exist, say): nothing is written that this tool cannot read back
            if let Err(e) = codec(format).decode(&bytes) {
                return Err(CliError::Unreadable { path, reason: e.to_string() });
            }
            match output {
                Some(o) => std::fs::write(&o, &bytes).map_err(|source| CliError::Io { path: display(&o), source }),
                None => {
                    let mut out = stdout.lock();
                    out.write_all(&bytes).and_then(|()| out.flush()).map_err(stdout_err)
                }
            }
        }
        Command::Dump { input } => {
            let data = read_input(&input)?;
            let dump_err = |source| CliError::Dump { path: display(&input), source };
            // Without --format: the format that reads the input; when none does, the most likely
            // one, whose trace shows how far the input makes sense.
            let format = match cli.format {
                Some(f) => f,
                None => match detect(&data) {
                    Ok((f, _)) => f,
                    Err(e @ (CodecError::Undetected { .. } | CodecError::Ambiguous { .. })) => return Err(dump_err(e)),
                    Err(_) => hessian::detect::detect(&data).map_or(Format::H2, Format::from),
                },
            };
            let mut out = std::io::BufWriter::new(stdout.lock());
            let r = codec(format).dump(&data, &mut out);
            // The trace so far goes out before the error is reported.
            let flushed = out.flush().map_err(stdout_err);
            r.map_err(dump_err)?;
            flushed
        }
        Command::Call(_)
        | Command::ServeDemo(_)
        | Command::Gateway(_)
        | Command::Load(_)
        | Command::Proxy(_)
        | Command::Codegen { .. } => Ok(()),
    }
}

/// `hessian codegen`.
fn codegen(
    service: &str,
    inputs: &[PathBuf],
    output: Option<&std::path::Path>,
    options: &hessian_codegen::Options,
) -> Result<(), CliError> {
    let mut classes = hessian_codegen::Classes::default();
    for i in inputs {
        classes.add_path(i)?;
    }
    let src = hessian_codegen::generate_with(&classes, service, options)?;
    match output {
        Some(o) => std::fs::write(o, src).map_err(|source| CliError::Io { path: display(o), source }),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(src.as_bytes()).and_then(|_| out.flush()).map_err(stdout_err)
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hessian: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn nesting_scan_skips_strings() {
        assert_eq!(json_nesting(br#"[{"a": "[[[{{{\"]]"}, [1]]"#), 2);
        assert_eq!(json_nesting(b"1"), 0);
        let deep = "[".repeat(MAX_JSON_NESTING + 1) + &"]".repeat(MAX_JSON_NESTING + 1);
        assert!(matches!(parse_json(deep.as_bytes(), "x"), Err(CliError::JsonTooDeep { .. })));
        let ok = "[".repeat(MAX_JSON_NESTING) + &"]".repeat(MAX_JSON_NESTING);
        assert!(parse_json(ok.as_bytes(), "x").is_ok());
    }

    #[test]
    fn strict_parsing_keeps_everything_and_refuses_duplicate_keys() {
        let text = br#"{"z": [1, -2, 18446744073709551615, 0.1, -0.0, 1e300, "s\u00e9", true, null], "a": {}}"#;
        let strict = parse_json(text, "x").unwrap();
        let plain: serde_json::Value = serde_json::from_slice(text).unwrap();
        assert_eq!(strict, plain);
        assert_eq!(serde_json::to_string(&strict).unwrap(), serde_json::to_string(&plain).unwrap());
        let e = parse_json(br#"{"a": 1, "b": {"c": 1, "c": 2}}"#, "x").unwrap_err();
        assert!(e.to_string().contains("duplicate key \"c\""), "{e}");
    }
}
