//! The `#[service]` macro's compile errors for signatures it cannot serve: each case in
//! `tests/ui/` must fail to compile with the message in its `.stderr` file.

#[test]
fn unsupported_signatures_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
