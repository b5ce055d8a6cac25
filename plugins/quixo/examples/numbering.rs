//! Times the building of 5x5 tier numberings (blank patterns) and reports their bytes:
//! `cargo run --release -p quixo --example numbering [x o]...`.
use gamesman_plugin_api::Tier;
use quixo::Quixo;
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let pairs: Vec<(u64, u64)> = if args.is_empty() {
        vec![(12, 13), (12, 12), (11, 12), (11, 11), (10, 10), (8, 9), (6, 7)]
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
