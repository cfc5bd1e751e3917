//! The seed suite, the project's main job: `cargo run --release -p hessian-bench --bin seed`.
//!
//! ```text
//! seed [--quick | --full | --tiny] [--only 1,2,3|negotiation,protocols,codecs]
//!      [--protocols ID,...] [--out DIR] [--compare OLD_DIR] [--servers URL] [--list]
//! seed serve demo|demo-1|hessian|json|msgpack|bincode|grpc|xmlrpc|amf [--listen ADDR]   (the suite's own server processes)
//! seed serve-all --listen ADDR [--advertise HOST] [--only …] [--protocols …]  (every server, for another machine's clients)
//! ```
//!
//! Runs the three experiments (type negotiation, protocol comparison, derived vs hand-written
//! codecs), writes `DIR/REPORT.md`, one SVG chart per figure and `DIR/results.json` (default
//! `results/`; schema in `docs/seed-suite.md`) and prints where they are. A row whose peer fails
//! is marked failed with the reason; the suite goes on and exits 1 at the end. With `--servers
//! URL` the clients call the servers `seed serve-all` runs on another machine (`URL` is the
//! directory it printed) instead of starting their own.

#[path = "../seed/mod.rs"]
mod seed;

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use seed::results::Run;
use seed::{Mode, Options};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: seed [--quick|--full|--tiny] [--only 1,2,3] [--protocols ID,...] [--out DIR] [--compare OLD_DIR]
            [--servers URL] [--list]
       seed serve demo|demo-1|hessian|json|msgpack|bincode|grpc|xmlrpc|amf [--listen ADDR]
       seed serve-all --listen ADDR [--advertise HOST] [--only 1,2,3] [--protocols ID,...]";

/// The command line; `--servers URL` is returned apart (fetched once the arguments are checked).
fn parse(args: &[String]) -> Result<(Options, Option<String>), String> {
    let mut o = Options {
        mode: Mode::Quick,
        only: Vec::new(),
        protocols: None,
        out: PathBuf::from("results"),
        compare: None,
        remote: None,
    };
    let mut servers = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--quick" => o.mode = Mode::Quick,
            "--full" => o.mode = Mode::Full,
            "--tiny" => o.mode = Mode::Tiny,
            "--out" => o.out = PathBuf::from(value("--out")?),
            "--compare" => o.compare = Some(PathBuf::from(value("--compare")?)),
            "--servers" => servers = Some(value("--servers")?),
            "--only" => {
                for e in value("--only")?.split(',') {
                    o.only.push(match e.trim() {
                        "1" | "negotiation" => 1,
                        "2" | "protocols" => 2,
                        "3" | "codecs" => 3,
                        other => {
                            return Err(format!(
                                "--only: unknown experiment {other:?} (1, 2, 3, negotiation, protocols, codecs)"
                            ))
                        }
                    });
                }
            }
            "--protocols" => {
                let list: Vec<String> = value("--protocols")?.split(',').map(|s| s.trim().to_owned()).collect();
                for p in &list {
                    if !seed::exp2::PROTOCOLS.iter().any(|d| d.id == p) {
                        return Err(format!("--protocols: unknown protocol {p:?} (see --list)"));
                    }
                }
                o.protocols = Some(list);
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((o, servers))
}

/// `seed serve-all --listen ADDR [--advertise HOST] [--only …] [--protocols …]`.
fn serve_all(args: &[String]) -> ExitCode {
    let (mut listen, mut advertise, mut rest) = (None, None, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--listen" => listen = it.next().cloned(),
            "--advertise" => advertise = it.next().cloned(),
            _ => rest.push(a.clone()),
        }
    }
    let parsed = parse(&rest).and_then(|(o, servers)| match (servers, listen) {
        (Some(_), _) => Err("serve-all takes no --servers".into()),
        (None, None) => Err("serve-all needs --listen ADDR (e.g. 0.0.0.0:9400, or 127.0.0.1:0 for any port)".into()),
        (None, Some(l)) => Ok((o, l)),
    });
    let (opts, listen) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("seed serve-all: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = seed::procs::install_interrupt_handler() {
        eprintln!("seed serve-all: {e}");
    }
    match seed::remote::serve_all(&listen, advertise, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seed serve-all: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `seed serve WHAT [--listen ADDR]`: a server on ADDR (default 127.0.0.1, any port), port printed
/// as `PORT n`, until stdin closes.
/// `demo-1` is `demo` on one thread: experiment 1's interleaved pairs, whose two clients'
/// connections must be served alike (on a runtime of several threads each connection's task
/// can settle on another thread, one on the client's core and one not).
fn serve(what: &str, listen: &str) -> ExitCode {
    let one_thread = what == "demo-1";
    let what = if one_thread { "demo" } else { what };
    let rt = if one_thread {
        tokio::runtime::Builder::new_current_thread().enable_all().build()
    } else if what == "amf" {
        // flash-lso reads nested values recursively: room for the deepest request it accepts
        tokio::runtime::Builder::new_multi_thread().enable_all().thread_stack_size(seed::amf::SERVER_STACK).build()
    } else {
        tokio::runtime::Runtime::new()
    };
    let rt = match rt {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("seed serve: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result: Result<(), String> = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(listen).await.map_err(|e| format!("{listen}: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let server = if what == "demo" {
            // every demo service (`/bench`, `/test2`, `/echo`): what the negotiation benchmark calls
            tokio::spawn(hessian_demo::demo_server().serve_listener(listener, std::future::pending()))
        } else if what == "hessian" {
            let server = hessian_rpc::HessianServer::builder().mount("/bench", hessian_demo::bench_service()).build();
            tokio::spawn(server.serve_listener(listener, std::future::pending()))
        } else if what == "xmlrpc" {
            tokio::spawn(async move {
                if let Err(e) = seed::xmlrpc::serve(listener).await {
                    eprintln!("seed serve xmlrpc: {e}");
                }
            })
        } else if what == "amf" {
            // SEED_BREAK_SERVER=amf: getItems answers one item too many (tests/seed.rs)
            let broken = std::env::var("SEED_BREAK_SERVER").is_ok_and(|v| v == what);
            tokio::spawn(seed::amf::serve(listener, broken))
        } else if what == "grpc" {
            tokio::spawn(async move {
                if let Err(e) = seed::grpc::serve(listener).await {
                    eprintln!("seed serve grpc: {e}");
                }
            })
        } else if let Some(codec) = seed::peers::Codec::from_id(what) {
            // SEED_BREAK_SERVER=ID: that server answers wrongly (tests/seed.rs checks that the
            // suite then fails the row and the run)
            let broken = std::env::var("SEED_BREAK_SERVER").is_ok_and(|v| v == what);
            tokio::spawn(seed::peers::serve(codec, listener, broken))
        } else {
            return Err(format!(
                "unknown server {what:?} (demo, demo-1, hessian, json, msgpack, bincode, grpc, xmlrpc, amf)"
            ));
        };
        println!("PORT {port}");
        std::io::stdout().flush().map_err(|e| e.to_string())?;
        // the suite holds our stdin open while it needs us
        let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_to_end(&mut Vec::new())).await;
        server.abort();
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seed serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Now as RFC 3339 UTC (civil date from the Unix day count).
fn now_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = seed::stats::civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        let listen = match args.get(2..) {
            Some([flag, addr]) if flag == "--listen" => addr.as_str(),
            _ => "127.0.0.1:0",
        };
        return serve(args.get(1).map_or("", String::as_str), listen);
    }
    if args.first().map(String::as_str) == Some("serve-all") {
        return serve_all(&args[1..]);
    }
    if args.iter().any(|a| a == "--list") {
        for p in seed::exp2::PROTOCOLS {
            println!("{:<16} {}", p.id, p.label);
        }
        return ExitCode::SUCCESS;
    }
    let (mut opts, servers) = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("seed: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    // an earlier run to compare with is read first: a wrong directory fails before the suite runs
    let old = match opts.compare.as_deref().map(seed::compare::load).transpose() {
        Ok(old) => old,
        Err(e) => {
            eprintln!("seed: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = seed::procs::install_interrupt_handler() {
        eprintln!("seed: {e}");
    }
    // with `--servers`, the server machine's directory: a host that does not answer fails the
    // rows that need a server, with the reason, and the suite goes on
    if let Some(url) = &servers {
        let remote = seed::remote::fetch(url);
        match &remote {
            Ok(r) => println!(
                "servers: {} on {} ({} running, {} not started there)",
                r.url,
                r.directory.host,
                r.directory.servers.len(),
                r.directory.unavailable.len()
            ),
            Err(e) => eprintln!("seed: {e}"),
        }
        opts.remote = Some(remote);
    }
    let t0 = Instant::now();
    let started = now_utc();
    let machine = seed::machine::Machine::probe();
    let bars = MultiProgress::new();
    let style = ProgressStyle::with_template("{prefix:>14} [{bar:30}] {pos}/{len} {elapsed:>4} {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let bar = |name: &str| {
        let pb = bars.add(ProgressBar::new(1));
        pb.set_style(style.clone());
        pb.set_prefix(name.to_owned());
        pb
    };
    let mut experiments = Vec::new();
    type Runner = fn(&Options, &ProgressBar) -> seed::results::Experiment;
    let all: [(u8, &str, Runner); 3] =
        [(1, "1 negotiation", seed::exp1::run), (2, "2 protocols", seed::exp2::run), (3, "3 codecs", seed::exp3::run)];
    for (n, name, run) in all {
        if opts.runs(n) {
            let pb = bar(name);
            experiments.push(run(&opts, &pb));
            pb.finish_with_message("done");
        }
    }
    let mut run = Run {
        schema: "hessian-seed/1".into(),
        mode: opts.mode.name().into(),
        started,
        seconds: t0.elapsed().as_secs_f64(),
        command: std::iter::once("seed".to_owned()).chain(args).collect::<Vec<_>>().join(" "),
        machine,
        load_at_end: seed::machine::load_average(),
        experiments,
        compare: None,
        servers: servers.as_deref().zip(opts.remote.as_ref()).map(|(url, r)| seed::results::Servers::of(url, r)),
    };
    if let Some(s) = &run.servers {
        let note = s.method_note();
        for e in &mut run.experiments {
            e.method = if e.id == "3" {
                format!("{} {}", seed::results::Servers::LOCAL_NOTE, e.method)
            } else {
                format!("{note} {}", e.method)
            };
        }
    }
    if let (Some(old), Some(dir)) = (&old, &opts.compare) {
        run.compare = Some(seed::compare::compare(&run, old, dir, seed::compare::DEFAULT_THRESHOLD));
    }
    let mut ok = true;
    match seed::report::write(&run, &opts.out) {
        Ok(report) => println!("report: {}", report.display()),
        Err(e) => {
            eprintln!("seed: {e}");
            ok = false;
        }
    }
    println!("results: {}", opts.out.join("results.json").display());
    println!("charts:  {}/*.svg", opts.out.display());
    let failures = run.failures();
    for (e, f, s) in &failures {
        eprintln!("FAILED: experiment {} / {} / {}: {}", e.id, f.id, s.label, s.reason.as_deref().unwrap_or(""));
    }
    let skipped = run.skipped().len();
    if skipped > 0 {
        println!(
            "{skipped} row(s) skipped (see the report; `{}` installs what they need)",
            seed::javapeer::INSTALL_ALL
        );
    }
    println!("took {:.0} s", run.seconds);
    if ok && failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
