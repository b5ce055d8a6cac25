//! The tier graph in Graphviz DOT: one box per reachable tier (number, name, size,
//! reachable positions when known, loopy or not), an edge per declared child, and
//! tiers of one DAG level on one rank.
//!
//! It renders an `Outcome` and nothing else; writing the file is the caller's job.

use crate::outcome::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The DOT text of the tier graph.
pub fn render(o: &Outcome) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph tiers {{");
    let _ = writeln!(
        out,
        "  label=\"{}\";",
        escape(&format!(
            "{} ({}): {} tiers, {} positions, {} loopy",
            o.module, o.variant, o.summary.tiers, o.summary.positions, o.summary.loopy_tiers
        ))
    );
    let _ = writeln!(out, "  labelloc=t;");
    let _ = writeln!(out, "  rankdir=TB;");
    let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
    for t in &o.tiers {
        let mut label = format!(
            "tier {}: {}\\n{} positions",
            t.tier,
            escape(&t.name),
            t.size
        );
        if let Some(r) = t.reachable {
            let _ = write!(label, "\\n{r} reachable");
        }
        label.push_str(if t.loopy { "\\nloopy" } else { "\\nnot loopy" });
        let style = if t.loopy {
            ", style=bold, peripheries=2"
        } else {
            ""
        };
        let _ = writeln!(out, "  t{} [label=\"{label}\"{style}];", t.tier);
    }
    for t in &o.tiers {
        if t.loopy {
            let _ = writeln!(out, "  t{} -> t{};", t.tier, t.tier);
        }
        for c in &t.children {
            let _ = writeln!(out, "  t{} -> t{};", t.tier, c);
        }
    }
    let mut levels: BTreeMap<usize, Vec<u64>> = BTreeMap::new();
    for t in &o.tiers {
        if let Some(l) = t.level {
            levels.entry(l).or_default().push(t.tier);
        }
    }
    for tiers in levels.values().filter(|v| v.len() > 1) {
        let names: Vec<String> = tiers.iter().map(|t| format!("t{t};")).collect();
        let _ = writeln!(out, "  {{ rank=same; {} }}", names.join(" "));
    }
    let _ = writeln!(out, "}}");
    out
}

/// Escapes text for a double-quoted DOT string.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_quotes_and_backslashes() {
        assert_eq!(super::escape(r#"a"b\c"#), r#"a\"b\\c"#);
    }
}
