//! The analysis as text tables for people: per tier and in total, by value, by
//! remoteness, by WinBy margin and by the player to move. Presentation only: it reads
//! an `Analysis` and never counts.

use super::{Analysis, Counts, Section, TierCounts};
use crate::engine::numbers::{count, signed};
use std::fmt::Write as _;

fn value_table(out: &mut String, rows: &[(String, String, &Counts)], total: &Counts) {
    let _ = writeln!(
        out,
        "  {:<6} {:<12} {:>13} {:>13} {:>13} {:>13} {:>13} {:>13}",
        "tier", "name", "positions", "win", "lose", "tie", "draw", "unsolved"
    );
    let line = |out: &mut String, tier: &str, name: &str, c: &Counts| {
        let v = c.by_value;
        let _ = writeln!(
            out,
            "  {:<6} {:<12} {:>13} {:>13} {:>13} {:>13} {:>13} {:>13}",
            tier,
            name,
            count(c.total),
            count(v.win),
            count(v.lose),
            count(v.tie),
            count(v.draw),
            count(v.unsolved)
        );
    };
    for (tier, name, c) in rows {
        line(out, tier, name, c);
    }
    line(out, "total", "", total);
}

fn remoteness_table(out: &mut String, c: &Counts) {
    let _ = writeln!(
        out,
        "  {:<10} {:>13} {:>13} {:>13} {:>13}",
        "remoteness", "win", "lose", "tie", "total"
    );
    for r in &c.by_remoteness {
        let _ = writeln!(
            out,
            "  {:<10} {:>13} {:>13} {:>13} {:>13}",
            count(r.remoteness.into()),
            count(r.win),
            count(r.lose),
            count(r.tie),
            count(r.win + r.lose + r.tie)
        );
    }
}

fn margin_table(out: &mut String, c: &Counts) {
    let _ = writeln!(out, "  {:<10} {:>13}", "margin", "positions");
    for r in &c.by_margin {
        let _ = writeln!(
            out,
            "  {:<10} {:>13}",
            if r.margin > 0 {
                format!("+{}", signed(r.margin))
            } else {
                signed(r.margin)
            },
            count(r.positions)
        );
    }
}

fn section_text(
    out: &mut String,
    title: &str,
    section: &Section,
    tiers: &[TierCounts],
    pick: fn(&TierCounts) -> &Counts,
) {
    let _ = writeln!(out, "\n{title}: {} positions", count(section.counts.total));
    let rows: Vec<(String, String, &Counts)> = tiers
        .iter()
        .map(|t| (t.tier.to_string(), t.name.clone(), pick(t)))
        .collect();
    value_table(out, &rows, &section.counts);
    out.push_str("  by remoteness (wins, losses and ties):\n");
    remoteness_table(out, &section.counts);
    if !section.counts.by_margin.is_empty() {
        out.push_str("  by WinBy margin (player 1 minus player 2 with perfect play):\n");
        margin_table(out, &section.counts);
    }
    for (k, t) in section.counts.by_turn.iter().enumerate() {
        let v = t.by_value;
        let _ = writeln!(
            out,
            "  player {} to move: {} positions, {} win, {} lose, {} tie, {} draw",
            k + 1,
            count(t.total),
            count(v.win),
            count(v.lose),
            count(v.tie),
            count(v.draw)
        );
    }
    match &section.max_remoteness {
        Some(e) => {
            let _ = writeln!(
                out,
                "  largest remoteness: {} ({}), for example {} (tier {})",
                count(e.remoteness.into()),
                e.value,
                e.position,
                e.tier
            );
        }
        None => out.push_str("  largest remoteness: none (nothing decided)\n"),
    }
}

/// The analysis as tables for people.
pub fn text(a: &Analysis) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), database {}{}{}",
        a.game,
        a.variant,
        a.database,
        if a.reachable_only {
            " (reachable-only)"
        } else {
            ""
        },
        if a.canonical_only {
            "; counting canonical positions only (the game has symmetry; --every-position counts them all)"
        } else {
            ""
        }
    );
    if a.players == 1 {
        out.push_str(
            "a puzzle: win counts solvable positions; lose, tie and draw count unsolvable ones\n",
        );
    }
    if !a.unsolved_tiers.is_empty() {
        // Each named as a tier ("tier 0"), never a bare number that reads as a count.
        let list: Vec<String> = a
            .unsolved_tiers
            .iter()
            .map(|&t| match a.tiers.iter().find(|c| c.tier == t) {
                Some(c) if c.name != t.to_string() => format!("tier {t} ({})", c.name),
                _ => format!("tier {t}"),
            })
            .collect();
        let _ = writeln!(
            out,
            "{} of {} tiers not in the database (unsolved): {}",
            count(list.len() as u64),
            count(a.tiers.len() as u64),
            list.join(", ")
        );
    }
    if a.reachable_searched {
        section_text(
            &mut out,
            "Reachable from the initial position",
            &a.reachable,
            &a.tiers,
            |t| &t.reachable,
        );
    } else {
        out.push_str("\nReachable from the initial position: not searched (the initial tier is not solved: a partial database)\n");
    }
    if a.reachable_only {
        out.push_str("\nAll legal positions: not stored (the database is reachable-only: `solve --reachable` keeps only the positions that can occur from the start)\n");
    } else {
        section_text(
            &mut out,
            "All legal positions in the database",
            &a.legal,
            &a.tiers,
            |t| &t.legal,
        );
    }
    out
}
