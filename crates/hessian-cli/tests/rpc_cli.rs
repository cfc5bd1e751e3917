//! `hessian serve-demo` and `hessian call` end to end: the demo server on an ephemeral port,
//! called in every protocol, including a fault and a TestHessian2 argument check.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

struct Demo {
    child: Child,
    addr: String,
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn demo() -> Demo {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hessian"))
        .args(["serve-demo", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn serve-demo");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
    let addr = line.split("http://").nth(1).and_then(|s| s.split_whitespace().next()).expect("address").to_owned();
    Demo { child, addr }
}

fn call(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hessian")).args(args).output().expect("run hessian call");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn call_the_demo_server_in_every_protocol() {
    let d = demo();
    let bench = format!("http://{}/bench", d.addr);
    let test2 = format!("http://{}/test2", d.addr);
    for fmt in [&["-f", "h2"][..], &["-f", "h1"], &["-f", "burlap"]] {
        let mut a = fmt.to_vec();
        a.extend(["call", "--compact", &bench, "getItems", "2"]);
        let (ok, out) = call(&a);
        assert!(ok, "{a:?}: {out}");
        assert_eq!(out.matches("org.example.remoting.Item").count(), 2, "{out}");
        let mut a = fmt.to_vec();
        a.extend(["call", "--compact", &test2, "argString_1", "\"0\""]);
        assert_eq!(call(&a), (true, "true\n".to_owned()), "{a:?}");
    }
    let (ok, out) = call(&["-f", "h1", "call", "--hybrid", "--compact", &test2, "replyLong_0x80000000"]);
    assert!(ok);
    assert_eq!(out, "{\"long\":2147483648}\n");
    let (ok, out) = call(&["call", "--compact", &bench, "getItems", "--", "-1"]);
    assert!(!ok, "a fault exits with failure");
    assert!(out.starts_with("{\"fault\":{\"code\":\"ServiceException\""), "{out}");
    assert!(out.contains("java.lang.IllegalArgumentException"), "{out}");
}
