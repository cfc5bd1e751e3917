//! The seed suite: the project's three founding experiments, every protocol in one run, written up
//! as `REPORT.md`, one SVG chart per figure and `results.json` (schema: `docs/seed-suite.md`).
//!
//! - Experiment 1 ([`exp1`]): type negotiation, W2 `exchange` for Hessian 1, Hessian 2 and
//!   Hessian 2.1;
//! - Experiment 2 ([`exp2`]): the protocol comparison, W1 `getItems(n)` and W2 over loopback HTTP
//!   for the Hessian family, other Rust protocols and the Java peers;
//! - Experiment 3 ([`exp3`]): derived against hand-written codecs, W3 `Money`, beside Java's
//!   `ObjectOutputStream` and Caucho's `Hessian2Output`.

pub mod amf;
pub mod chart;
pub mod compare;
pub mod exp1;
pub mod exp2;
pub mod exp3;
pub mod grpc;
pub mod grpc_gen;
pub mod javapeer;
pub mod machine;
pub mod peers;
pub mod procs;
pub mod remote;
pub mod report;
pub mod results;
pub mod rounds;
pub mod stats;
pub mod study;
pub mod wire;
pub mod xmlrpc;

use std::path::PathBuf;

/// How many calls and how much time the suite spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A few calls per point: checks every path end to end (the CI test), no meaningful timing.
    Tiny,
    /// The default: reduced counts, under 5 minutes on 2 cores.
    Quick,
    /// The original studies' call counts.
    Full,
}

impl Mode {
    /// The name written into the report and `results.json`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Tiny => "tiny",
            Mode::Quick => "quick",
            Mode::Full => "full",
        }
    }
}

/// The command line of a suite run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Call counts.
    pub mode: Mode,
    /// Experiments to run (1, 2, 3); all when empty.
    pub only: Vec<u8>,
    /// Protocol ids to run (see `seed --list`); all when `None`.
    pub protocols: Option<Vec<String>>,
    /// Where the report, the charts and `results.json` go.
    pub out: PathBuf,
    /// An earlier run's directory to compare this run with (`--compare`).
    pub compare: Option<PathBuf>,
    /// With `--servers URL`: the server machine's directory (or why it could not be read);
    /// every row then calls its server there instead of starting one.
    pub remote: Option<Result<remote::Remote, String>>,
}

impl Options {
    /// Whether experiment `n` is selected.
    pub fn runs(&self, n: u8) -> bool {
        self.only.is_empty() || self.only.contains(&n)
    }

    /// Whether the protocol (or row) `id` is selected by `--protocols`.
    pub fn protocol(&self, id: &str) -> bool {
        self.protocols.as_ref().is_none_or(|l| l.iter().any(|p| p == id))
    }
}
