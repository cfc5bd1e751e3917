//! Indented JSON that keeps short values on one line (`"cents": {"int": 1000}` rather than three
//! lines), which is what makes typed JSON pleasant to read.

use serde_json::Value as Json;
use std::io::{self, Write};

/// Containers whose one-line form is at most this many characters stay on one line.
const INLINE_WIDTH: usize = 72;

/// Writes `v` indented by two spaces per level, short containers inline.
pub fn write(out: &mut dyn Write, v: &Json) -> io::Result<()> {
    let mut s = String::new();
    pretty(&mut s, v, 0);
    s.push('\n');
    out.write_all(s.as_bytes())
}

fn scalar(s: &mut String, v: &Json) {
    // Scalars never fail to serialize.
    s.push_str(&serde_json::to_string(v).unwrap_or_default());
}

/// The one-line length of `v` if it is at most `budget`, computed without building it.
fn inline_len(v: &Json, budget: usize) -> Option<usize> {
    let mut used = 0usize;
    let add = |n: usize, used: &mut usize| -> Option<()> {
        *used += n;
        (*used <= budget).then_some(())
    };
    match v {
        Json::Array(a) => {
            add(2, &mut used)?;
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    add(2, &mut used)?;
                }
                let n = inline_len(x, budget - used)?;
                add(n, &mut used)?;
            }
        }
        Json::Object(m) => {
            add(2, &mut used)?;
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    add(2, &mut used)?;
                }
                add(k.len() + 4, &mut used)?;
                let n = inline_len(x, budget - used)?;
                add(n, &mut used)?;
            }
        }
        Json::String(t) => {
            add(t.len() + 2 + t.bytes().filter(|b| *b == b'"' || *b == b'\\' || *b < 0x20).count(), &mut used)?
        }
        other => add(serde_json::to_string(other).map(|t| t.len()).unwrap_or(budget + 1), &mut used)?,
    }
    Some(used)
}

fn inline(s: &mut String, v: &Json) {
    match v {
        Json::Array(a) => {
            s.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                inline(s, x);
            }
            s.push(']');
        }
        Json::Object(m) => {
            s.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                scalar(s, &Json::String(k.clone()));
                s.push_str(": ");
                inline(s, x);
            }
            s.push('}');
        }
        other => scalar(s, other),
    }
}

fn newline(s: &mut String, level: usize) {
    s.push('\n');
    for _ in 0..level {
        s.push_str("  ");
    }
}

fn pretty(s: &mut String, v: &Json, level: usize) {
    let empty = match v {
        Json::Array(a) => a.is_empty(),
        Json::Object(m) => m.is_empty(),
        _ => true,
    };
    if empty || inline_len(v, INLINE_WIDTH).is_some() {
        return inline(s, v);
    }
    match v {
        Json::Array(a) => {
            s.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, level + 1);
                pretty(s, x, level + 1);
            }
            newline(s, level);
            s.push(']');
        }
        Json::Object(m) => {
            s.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                newline(s, level + 1);
                scalar(s, &Json::String(k.clone()));
                s.push_str(": ");
                pretty(s, x, level + 1);
            }
            newline(s, level);
            s.push('}');
        }
        other => scalar(s, other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(v: &Json) -> String {
        let mut out = Vec::new();
        write(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn short_values_inline_long_values_indented() {
        let v = json!({"object": "Money", "fields": {"cents": {"int": 1000}, "text": "a \"quoted\" text"}});
        let text = render(&v);
        assert_eq!(
            text,
            "{\n  \"object\": \"Money\",\n  \"fields\": {\"cents\": {\"int\": 1000}, \"text\": \"a \\\"quoted\\\" text\"}\n}\n"
        );
        let back: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn output_is_the_same_json() {
        let long = "x".repeat(100);
        let v = json!([1, [2, [3, {"a": [long, {"b": null}], "é\n": true}]], {}, [], -0.0, 1e300, "\u{1}"]);
        let back: Json = serde_json::from_str(&render(&v)).unwrap();
        assert_eq!(back, v);
    }
}
