//! The seed articles' claims checked against this run. The Java remoting study's seven
//! observations (restated in the project's seed facts), checked one by one against experiment
//! 2's W1 rows of this run: each gets a verdict (confirmed, contradicted, partly, or cannot be
//! tested here) with this run's medians beside the study's own setting. The study measured Java
//! implementations; a verdict compares rows of one implementation language with each other
//! (Java where the suite has the protocols in Java, Rust where it has them only in Rust, such as
//! XML-RPC) and says which. The first
//! article's claims (2.1 faster than Hessian 2, and the factors of its gain) are checked against
//! experiment 1 in [`article1`].

use crate::seed::results::{Series, Status};

/// The study's setting, printed beside the verdicts.
pub const STUDY_SETTING: &str = "Sun JVM 1.5.0_09 on Windows XP, 2 GHz Core 2 Duo, client and \
    server in two JVMs on one host, Spring 2.0.6 and Jetty 6.1.5, Caucho Hessian 3.1.3, Apache \
    XML-RPC 3.1; 10 warm-up calls, then 100 calls averaged per list size (1 to 250, and 500 to 5,000)";

/// What a check concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The data agrees at every size measured.
    Confirmed,
    /// The data agrees at some sizes or for part of the statement.
    Partly,
    /// The data disagrees.
    Contradicted,
    /// A protocol or variant it needs is not available here, or did not run.
    CannotTest,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::Confirmed => "**confirmed**",
            Verdict::Partly => "**partly confirmed**",
            Verdict::Contradicted => "**contradicted**",
            Verdict::CannotTest => "**cannot be tested here**",
        }
    }
}

/// One observation checked.
#[derive(Clone, Debug)]
pub struct Check {
    /// The observation, restated.
    pub claim: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// The numbers behind it.
    pub evidence: String,
}

/// The binary protocols of the study measured here, in Java and in Rust.
const JAVA_BINARY: [&str; 4] = ["java-rmi", "java-spring", "java-hessian2", "java-hessian1"];
const RUST_BINARY: [&str; 2] = ["hessian2", "hessian1"];
/// The XML-based ones (SOAP in Java in place of the study's XML-RPC, which has only a Rust row).
const JAVA_XML: [&str; 2] = ["java-burlap", "java-jaxws"];
const RUST_XML: [&str; 2] = ["burlap", "xmlrpc"];
/// How far apart (slowest ÷ fastest) the binary protocols may be and still be "fairly even".
const EVEN: f64 = 1.5;
/// How much faster Burlap must be than XML-RPC to be "much faster".
const MUCH: f64 = 1.5;

struct Rows<'a> {
    rows: &'a [Series],
    sizes: Vec<f64>,
}

impl<'a> Rows<'a> {
    fn new(rows: &'a [Series]) -> Self {
        let mut sizes: Vec<f64> = rows.iter().flat_map(|s| s.points.iter().map(|p| p.x)).collect();
        sizes.sort_by(f64::total_cmp);
        sizes.dedup();
        Rows { rows, sizes }
    }

    fn row(&self, id: &str) -> Option<&'a Series> {
        self.rows.iter().find(|s| s.id == id && s.status == Status::Ok && !s.points.is_empty())
    }

    fn median(&self, id: &str, x: f64) -> Option<f64> {
        self.row(id)?.at(x).map(|p| p.time_us.median)
    }

    fn label(&self, id: &str) -> String {
        self.rows.iter().find(|s| s.id == id).map_or(id.to_owned(), |s| s.label.clone())
    }

    /// The rows of `ids` that ran, with their median at `x`.
    fn at<'i>(&self, ids: &[&'i str], x: f64) -> Vec<(&'i str, f64)> {
        ids.iter().filter_map(|id| Some((*id, self.median(id, x)?))).collect()
    }

    /// Why `ids` cannot all be used: the ones that did not run, with their reasons.
    fn missing(&self, ids: &[&str]) -> Vec<String> {
        ids.iter()
            .filter(|id| self.row(id).is_none())
            .map(|id| match self.rows.iter().find(|s| s.id == *id) {
                Some(s) => format!("{} ({})", s.label, s.reason.as_deref().unwrap_or("no points")),
                None => format!("{id} (not selected)"),
            })
            .collect()
    }
}

fn us(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.1} ms", v / 1000.0)
    } else {
        format!("{v:.0} µs")
    }
}

fn max<'i>(v: &[(&'i str, f64)]) -> Option<(&'i str, f64)> {
    v.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))
}

fn min<'i>(v: &[(&'i str, f64)]) -> Option<(&'i str, f64)> {
    v.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1))
}

/// A verdict from how many sizes agreed out of how many were compared.
fn tally(agree: usize, of: usize) -> Verdict {
    match (agree, of) {
        (_, 0) => Verdict::CannotTest,
        (a, o) if a == o => Verdict::Confirmed,
        (0, _) => Verdict::Contradicted,
        _ => Verdict::Partly,
    }
}

/// Checks the seven observations against experiment 2's W1 rows.
pub fn check(w1: &[Series]) -> Vec<Check> {
    let r = Rows::new(w1);
    let mut out = Vec::new();

    // 1. binary always faster than XML, within each implementation language
    let (mut agree, mut of, mut notes) = (0, 0, Vec::new());
    for (lang, binary, xml) in [("Java", &JAVA_BINARY[..], &JAVA_XML[..]), ("Rust", &RUST_BINARY[..], &RUST_XML[..])] {
        let (mut a, mut o, mut worst) = (0, 0, None::<String>);
        for &x in &r.sizes {
            let (b, xm) = (r.at(binary, x), r.at(xml, x));
            let (Some(slow_b), Some(fast_x)) = (max(&b), min(&xm)) else { continue };
            o += 1;
            if slow_b.1 < fast_x.1 {
                a += 1;
            } else if worst.is_none() {
                worst = Some(format!(
                    "at n = {x} {} {} is not faster than {} {}",
                    r.label(slow_b.0),
                    us(slow_b.1),
                    r.label(fast_x.0),
                    us(fast_x.1)
                ));
            }
        }
        agree += a;
        of += o;
        notes.push(match (o, worst) {
            (0, _) => format!("{lang}: not measured (missing: {})", r.missing(&[binary, xml].concat()).join(", ")),
            (_, None) => {
                format!("{lang}: at all {o} list sizes the slowest binary row was faster than the fastest XML row")
            }
            (_, Some(w)) => format!("{lang}: at {a} of {o} list sizes; {w}"),
        });
    }
    out.push(Check {
        claim: "The binary protocols (RMI, HttpInvoker, Hessian) are always faster than the XML-based ones \
                (Burlap, XML-RPC; SOAP here), except ORMI with HTTP tunnelling.",
        verdict: tally(agree, of),
        evidence: format!(
            "compared within each implementation language (binary: {}; XML: {}): {}; ORMI with HTTP tunnelling, \
             the study's exception, is not available",
            "RMI, HttpInvoker, Hessian 2 and 1",
            "Burlap, SOAP, XML-RPC",
            notes.join("; ")
        ),
    });

    // 2. binary fairly even, except Hessian 1
    let group = ["java-rmi", "java-spring", "java-hessian2"];
    let (mut even, mut h1_slower, mut of, mut spreads) = (0, 0, 0, Vec::new());
    for &x in &r.sizes {
        let g = r.at(&group, x);
        if g.len() < 2 {
            continue;
        }
        let (Some(lo), Some(hi)) = (min(&g), max(&g)) else { continue };
        of += 1;
        let spread = hi.1 / lo.1;
        spreads.push((x, spread));
        if spread <= EVEN {
            even += 1;
        }
        if r.median("java-hessian1", x).is_some_and(|h1| h1 > hi.1) {
            h1_slower += 1;
        }
    }
    let spread_text = spreads.iter().map(|(x, s)| format!("n = {x}: {s:.2}×")).collect::<Vec<_>>().join(", ");
    let verdict = match tally(even, of) {
        Verdict::Confirmed if h1_slower == of => Verdict::Confirmed,
        Verdict::CannotTest => Verdict::CannotTest,
        Verdict::Contradicted if h1_slower == 0 => Verdict::Contradicted,
        _ => Verdict::Partly,
    };
    out.push(Check {
        claim: "Performance is fairly even among the binary protocols, except Hessian 1 (good only against the XML \
                protocols) and tunnelled ORMI.",
        verdict,
        evidence: if of == 0 {
            format!("needs two of RMI, HttpInvoker, Hessian 2 (Java); missing: {}", r.missing(&group).join(", "))
        } else {
            format!(
                "slowest ÷ fastest of RMI, HttpInvoker and Hessian 2 (Java), \"even\" taken as at most {EVEN}×: \
                 {spread_text} (even at {even} of {of} sizes); Hessian 1 (Java) slower than all three at {h1_slower} \
                 of {of} sizes; tunnelled ORMI is not available"
            )
        },
    });

    // 3. Burlap much faster than XML-RPC
    let (mut agree, mut of, mut ratios) = (0, 0, Vec::new());
    for &x in &r.sizes {
        let (Some(b), Some(x_rpc)) = (r.median("burlap", x), r.median("xmlrpc", x)) else {
            continue;
        };
        of += 1;
        ratios.push(format!("n = {x}: {:.2}×", x_rpc / b));
        if x_rpc / b >= MUCH {
            agree += 1;
        }
    }
    out.push(Check {
        claim: "Burlap is much faster than the XML-RPC variants.",
        verdict: tally(agree, of),
        evidence: if of == 0 {
            format!("needs the Rust Burlap and XML-RPC rows; missing: {}", r.missing(&["burlap", "xmlrpc"]).join(", "))
        } else {
            format!(
                "XML-RPC ÷ Burlap, both in Rust (XML-RPC by dxr: Apache XML-RPC, the study's, is not in Debian, \
                 so the Java Burlap row has no Java XML-RPC to meet), \"much\" taken as at least {MUCH}×: {}",
                ratios.join(", ")
            )
        },
    });

    // 4. RMI and Hessian 2 fastest until larger lists (where plain ORMI led)
    // the Java implementations on both sides (the crossings left out)
    let java_ids: Vec<&str> =
        w1.iter().filter(|s| s.id.starts_with("java-") && s.id != "java-to-rust").map(|s| s.id.as_str()).collect();
    let (mut agree, mut of, mut leaders) = (0, 0, Vec::new());
    for &x in r.sizes.iter().filter(|x| **x <= 250.0) {
        let mut v: Vec<(&str, f64)> = java_ids.iter().filter_map(|id| Some((*id, r.median(id, x)?))).collect();
        if v.len() < 3 {
            continue;
        }
        v.sort_by(|a, b| a.1.total_cmp(&b.1));
        of += 1;
        let top: Vec<&str> = v.iter().take(2).map(|p| p.0).collect();
        if top.contains(&"java-rmi") && top.contains(&"java-hessian2") {
            agree += 1;
        }
        leaders.push(format!(
            "n = {x}: {}",
            v.iter().take(2).map(|p| format!("{} {}", r.label(p.0), us(p.1))).collect::<Vec<_>>().join(", ")
        ));
    }
    let large: Vec<String> = r
        .sizes
        .iter()
        .filter(|x| **x >= 500.0)
        .filter_map(|&x| {
            let v: Vec<(&str, f64)> = java_ids.iter().filter_map(|id| Some((*id, r.median(id, x)?))).collect();
            let f = v.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1))?;
            Some(format!("n = {x}: {} {}", r.label(f.0), us(f.1)))
        })
        .collect();
    let verdict = match tally(agree, of) {
        // the large-list half (plain ORMI) cannot be tested at all
        Verdict::Confirmed => Verdict::Partly,
        v => v,
    };
    out.push(Check {
        claim: "Native RMI and Hessian 2 are the fastest, until the calls return larger lists, where plain ORMI takes \
                a slight lead.",
        verdict,
        evidence: if of == 0 {
            "needs at least three Java rows at the small sizes".into()
        } else {
            format!(
                "the two fastest Java rows at the small sizes: {} (RMI and Hessian 2 the two fastest at {agree} of {of}); \
                 ORMI is not available, so the large-list half cannot be tested; the fastest Java row there: {}",
                leaders.join("; "),
                if large.is_empty() { "not measured".into() } else { large.join("; ") }
            )
        },
    });

    out.push(Check {
        claim: "Changing Apache XML-RPC's transport (Sun, Commons HttpClient, Lite) makes little difference.",
        verdict: Verdict::CannotTest,
        evidence: "Apache XML-RPC is not in Debian; the suite's one XML-RPC row (Rust, dxr) has one transport".into(),
    });
    out.push(Check {
        claim: "Plain ORMI is far faster than ORMI with HTTP tunnelling.",
        verdict: Verdict::CannotTest,
        evidence: "ORMI needs Oracle's OC4J, which is not available".into(),
    });

    // 7. Hessian 2 bears watching: where it ranks
    let rank = |x: f64, id: &str| -> Option<(usize, usize)> {
        let mut v: Vec<(&str, f64)> = r
            .rows
            .iter()
            .filter(|s| s.status == Status::Ok)
            .filter_map(|s| Some((s.id.as_str(), s.at(x)?.time_us.median)))
            .collect();
        v.sort_by(|a, b| a.1.total_cmp(&b.1));
        v.iter().position(|p| p.0 == id).map(|i| (i + 1, v.len()))
    };
    let big = r.sizes.last().copied().unwrap_or(1.0);
    let mut ranks = Vec::new();
    for id in ["java-hessian2", "hessian2"] {
        if let (Some((a, n)), Some((b, m))) = (rank(1.0, id), rank(big, id)) {
            ranks.push(format!("{}: {a} of {n} at n = 1, {b} of {m} at n = {big}", r.label(id)));
        }
    }
    out.push(Check {
        claim: "Hessian 2 (then new) bears watching.",
        verdict: if ranks.is_empty() { Verdict::CannotTest } else { Verdict::Confirmed },
        evidence: if ranks.is_empty() {
            "no Hessian 2 row ran".into()
        } else {
            format!(
                "a judgement, not a measurement; where Hessian 2 ranks among every row of this run: {}",
                ranks.join("; ")
            )
        },
    });
    out
}

/// The checks as a report section.
pub fn section(w1: &[Series]) -> String {
    let mut s = format!(
        "**The study's seven observations, one by one** (the study's setting: {STUDY_SETTING}; this run: the \
         machine and counts above, every figure a median of this run):\n\n"
    );
    for (i, c) in check(w1).iter().enumerate() {
        s.push_str(&format!("{}. *{}* {}: {}.\n", i + 1, c.claim, c.verdict.word(), c.evidence));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{check, section, Verdict};
    use crate::seed::results::{Point, Series};
    use crate::seed::stats::Summary;

    /// A row with a median of `t(n)` µs at each list size.
    fn row(id: &str, t: impl Fn(f64) -> f64) -> Series {
        let mut s = Series::new(id, id);
        for n in [1.0, 10.0, 250.0, 500.0, 5000.0] {
            let time_us = Summary { n: 1, median: t(n), mean: t(n), ..Summary::default() };
            s.points.push(Point { x: n, time_us, values: Default::default() });
        }
        s
    }

    /// The study's world: RMI and Hessian 2 fastest and even with HttpInvoker, Hessian 1 behind
    /// them, Burlap then SOAP then XML-RPC.
    fn study_like() -> Vec<Series> {
        vec![
            row("java-rmi", |n| 100.0 + n),
            row("java-hessian2", |n| 105.0 + n),
            row("java-spring", |n| 120.0 + 1.2 * n),
            row("java-hessian1", |n| 150.0 + 2.0 * n),
            row("java-burlap", |n| 300.0 + 4.0 * n),
            row("java-jaxws", |n| 400.0 + 6.0 * n),
            row("xmlrpc", |n| 700.0 + 9.0 * n),
            row("hessian2", |n| 40.0 + 0.5 * n),
            row("burlap", |n| 200.0 + 3.0 * n),
        ]
    }

    #[test]
    fn the_studys_world_confirms_what_can_be_tested() {
        let v: Vec<Verdict> = check(&study_like()).iter().map(|c| c.verdict).collect();
        use Verdict::*;
        assert_eq!(v, [Confirmed, Confirmed, Confirmed, Partly, CannotTest, CannotTest, Confirmed]);
        let text = section(&study_like());
        assert!(text.contains("1. *The binary protocols"), "{text}");
        assert!(text.contains("ORMI is not available"), "{text}");
    }

    #[test]
    fn a_slow_binary_row_or_an_uneven_field_contradicts() {
        let mut rows = study_like();
        // RMI slower than every XML row at every size, and far from the other binary rows
        rows[0] = row("java-rmi", |n| 5000.0 + 20.0 * n);
        let c = check(&rows);
        // contradicted in Java, still true in Rust
        assert_eq!(c[0].verdict, Verdict::Partly, "{}", c[0].evidence);
        assert!(c[0].evidence.contains("Java: at 0 of 5 list sizes; at n = 1 java-rmi"), "{}", c[0].evidence);
        assert_eq!(c[1].verdict, Verdict::Contradicted, "{}", c[1].evidence);
        assert_eq!(c[3].verdict, Verdict::Contradicted, "{}", c[3].evidence);
        // XML-RPC barely slower than Burlap: not "much faster"
        rows[6] = row("xmlrpc", |n| 210.0 + 3.1 * n);
        assert_eq!(check(&rows)[2].verdict, Verdict::Contradicted);
    }

    #[test]
    fn missing_rows_cannot_be_tested_and_say_why() {
        let mut rows = Vec::new();
        let mut failed = Series::new("java-rmi", "Java RMI (JDK)");
        failed.fail("java not found");
        rows.push(failed);
        let c = check(&rows);
        assert_eq!(c[0].verdict, Verdict::CannotTest, "{}", c[0].evidence);
        assert!(c[0].evidence.contains("Java RMI (JDK) (java not found)"), "{}", c[0].evidence);
        assert_eq!(c[1].verdict, Verdict::CannotTest);
        assert_eq!(c[3].verdict, Verdict::CannotTest);
    }
}

/// The first article's claims ("Minimum Air Induction": 2.1 faster than Hessian 2, and the
/// factors its gain depends on), checked against experiment 1: the W2 pairings (2.1 and Hessian
/// 2 interleaved) and the sweeps. A factor's effect is the 2.1 ÷ Hessian 2 median ratio at the
/// sweep's last point against its first: a change of more than [`EFFECT`] in the claimed
/// direction confirms, one in the other direction contradicts, less is "no effect measured".
pub mod article1 {
    use super::{Check, Verdict};
    use hessian_bench::negotiation::{pairs, Outcome, Point, Row};

    /// The smallest change of the ratio taken as an effect.
    pub const EFFECT: f64 = 0.02;

    fn ratio(h2: &Row, h21: &Row) -> f64 {
        match &h21.paired {
            Some(p) => p.ratio,
            None => h21.times.median / h2.times.median.max(1e-9),
        }
    }

    /// The claimed direction of each sweep: `-1.0` when the gain should grow (the ratio fall)
    /// as the factor's value grows, `1.0` when it should shrink.
    const FACTORS: [(&str, f64, &str); 6] = [
        ("types", -1.0, "More distinct types per call give a larger gain."),
        ("instances", 1.0, "More instances per call shrink the gain."),
        ("name_length", -1.0, "Longer type names give a larger gain."),
        ("calls_per_conversation", -1.0, "More calls per conversation give a larger gain."),
        ("latency", -1.0, "A network with more latency favours 2.1 more."),
        // x is the link's rate: a slower link (smaller x) should favour 2.1, so the ratio grows with x
        ("bandwidth", 1.0, "A network with less bandwidth favours 2.1 more."),
    ];

    /// Checks the claims.
    pub fn check(o: &Outcome) -> Vec<Check> {
        let mut out = Vec::new();
        let mut lines = Vec::new();
        let (mut faster, mut slower, mut n) = (0, 0, 0);
        for (h2, h21) in pairs(&o.rows) {
            let Some(p) = &h21.paired else { continue };
            n += 1;
            let word = if p.high < 0.0 {
                faster += 1;
                "faster"
            } else if p.low > 0.0 {
                slower += 1;
                "slower"
            } else {
                "not measurably different"
            };
            lines.push(format!(
                "{}: {:.3} (per-round difference {:+.1} µs, 95 % CI {:+.1} to {:+.1}: {word})",
                h21.pair,
                ratio(h2, h21),
                p.median,
                p.low,
                p.high
            ));
        }
        out.push(Check {
            claim:
                "Hessian 2.1 is faster than Hessian 2 (Caucho's proxy and servlet, a call of six types, no network).",
            verdict: match (n, faster, slower) {
                (0, _, _) => Verdict::CannotTest,
                (n, f, _) if f == n => Verdict::Confirmed,
                (_, 0, s) if s > 0 => Verdict::Contradicted,
                _ => Verdict::Partly,
            },
            evidence: if n == 0 {
                "no interleaved pairing ran".into()
            } else {
                format!("2.1 ÷ Hessian 2, medians, per pairing (Java → Java is the article's): {}", lines.join("; "))
            },
        });
        for (id, sign, claim) in FACTORS {
            let Some(sw) = o.sweeps.iter().find(|s| s.id == id) else {
                out.push(Check { claim, verdict: Verdict::CannotTest, evidence: "the sweep did not run".into() });
                continue;
            };
            // in the order of the factor's value (the bandwidth sweep runs from fast to slow)
            let mut pts: Vec<&Point> = sw.points.iter().collect();
            pts.sort_by(|a, b| a.x.total_cmp(&b.x));
            let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
                out.push(Check { claim, verdict: Verdict::CannotTest, evidence: "the sweep has no points".into() });
                continue;
            };
            let (a, b) = (ratio(&first.h2, &first.h21), ratio(&last.h2, &last.h21));
            let change = (b - a) * sign;
            let verdict = if change > EFFECT {
                Verdict::Confirmed
            } else if change < -EFFECT {
                Verdict::Contradicted
            } else {
                Verdict::Partly
            };
            let all =
                pts.iter().map(|p| format!("{}: {:.2}", p.label, ratio(&p.h2, &p.h21))).collect::<Vec<_>>().join(", ");
            let how = match verdict {
                Verdict::Partly => "no effect beyond ±2 % measured".to_owned(),
                _ => format!("{} {:.2} → {} {:.2}", first.label, a, last.label, b),
            };
            out.push(Check {
                claim,
                verdict,
                evidence: format!("{how}; 2.1 ÷ Hessian 2 (Rust → Rust, alternating) at each point: {all}"),
            });
        }
        out
    }

    /// The checks as a report section.
    pub fn section(o: &Outcome) -> String {
        let mut s = String::from(
            "**The first article's claims, one by one** (its setting: Caucho Hessian 3.1.3 with the author's patch, \
             `HessianProxy` against `HessianServlet` on a local HTTP server, 50,000 calls of one method with a graph \
             of six types; a factor counts as an effect beyond ±2 % of the ratio between the sweep's first and last \
             point):\n\n",
        );
        for (i, c) in check(o).iter().enumerate() {
            s.push_str(&format!("{}. *{}* {}: {}.\n", i + 1, c.claim, c.verdict.word(), c.evidence));
        }
        s
    }
}
