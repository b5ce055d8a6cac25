//! Times the building of 5x5 tier numberings (blank patterns) and reports their bytes,
//! and counts the canonical positions of the 5x5 endgames and of 4x4 with and without
//! the colour swap: `cargo run --release -p quixo --example numbering [x o]...`.
use gamesman_plugin_api::{Game, Tier};
use quixo::symmetry::Symmetries;
use quixo::Quixo;
use std::time::Instant;

/// Canonical positions of the boards with `blanks` blanks on `side` x `side`: under the
/// eight symmetries (two sides to move per canonical board), and with the colour swap
/// too (the module's canonical prefixes).
fn canonical(side: usize, blanks: usize) -> (u64, u64) {
    let cells = side * side;
    let s = Symmetries::new(side);
    let g = Quixo::new_for_tests(&format!("{side}x{side}"));
    let (mut eight, mut sixteen) = (0, 0);
    for x in 0..=cells - blanks {
        let o = cells - blanks - x;
        eight += 2 * s.classes(x, o);
        if x <= o {
            let t = Tier((x * (cells + 1) + o) as u64);
            sixteen += g.canonical_prefix(t).expect("a canonical prefix");
        }
    }
    (eight, sixteen)
}

fn main() {
    let (mut e4, mut s4) = (0, 0);
    for blanks in 0..=16 {
        let (e, s) = canonical(4, blanks);
        e4 += e;
        s4 += s;
    }
    println!("4x4: canonical positions {e4} (8 symmetries), {s4} (and the colour swap)");
    let g = Quixo::new_for_tests("5x5");
    for blanks in 0..=3u64 {
        let largest = (0..=(25 - blanks) / 2)
            .map(|a| {
                let t = Tier(a * 26 + 25 - blanks - a);
                (
                    g.canonical_prefix(t).unwrap(),
                    g.tier_size(t),
                    g.tier_name(t),
                )
            })
            .max()
            .unwrap();
        println!(
            "5x5 {blanks} blanks: largest tier {} ({} positions, {} canonical)",
            largest.2, largest.1, largest.0
        );
    }
    let (mut w8, mut w16) = (0, 0);
    for blanks in 0..=25 {
        let (e, s) = canonical(5, blanks);
        w8 += e;
        w16 += s;
    }
    println!(
        "5x5 whole game: canonical positions {w8} (8 symmetries), {w16} (and the colour swap)"
    );
    let (mut e5, mut s5) = (0, 0);
    for blanks in 0..=3 {
        let (e, s) = canonical(5, blanks);
        e5 += e;
        s5 += s;
        println!("5x5 endgame {blanks}: canonical positions {e5} (8 symmetries), {s5} (and the colour swap)");
    }
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let pairs: Vec<(u64, u64)> = if args.is_empty() {
        vec![
            (12, 13),
            (12, 12),
            (11, 12),
            (11, 11),
            (10, 10),
            (8, 9),
            (6, 7),
        ]
    } else {
        args.chunks(2).map(|c| (c[0], c[1])).collect()
    };
    for (x, o) in pairs {
        let g = Quixo::new_for_tests("5x5");
        let t = Tier(x * 26 + o);
        let start = Instant::now();
        let bytes = g.numbering_bytes(t).expect("a 5x5 tier");
        println!(
            "{}Blank_{x}X_{o}O: built in {:.3} s, {bytes} bytes",
            25 - x - o,
            start.elapsed().as_secs_f64()
        );
    }
}
