//! The plugin-boundary benchmark of issue 2: what mtttier's move generation, do_move
//! and undo moves cost through the loaded `libmtttier.so` compared with the same code
//! linked statically, one call per position and in the batches the solver uses; and
//! (issue 18) the same game written in C against `gamesman_plugin.h` (ctttier, built
//! with the README's `cc` command: the same positions, moves and undo moves), loaded
//! through the host's C path.
//!
//! Run with `cargo bench -p e2e-tests --bench plugin_boundary` (after
//! `cargo build --release --workspace`). A plain binary with `Instant`, no criterion,
//! to keep the build small; it also reads the thread's CPU time, which stays meaningful
//! when other builds share the machine's cores and wall-clock time does not. Every path's results are checksummed and compared, so a
//! path that skips work fails instead of looking fast. It must not change what it
//! measures between paths: all walk the same positions in the same order.

use e2e_tests::cbuild::build_header_module;
use e2e_tests::workspace::plugin_built_alongside;
use gamesman_host::{engine::load::loader, GameHandle};
use gamesman_plugin_api::ffi::GameBox;
use gamesman_plugin_api::{Game, List, Move, Tier, TierPosition, UndoMove, Value};
use mtttier::MttTier;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Samples per measurement; the median is reported. Many short interleaved samples
/// keep the median steady on a machine shared with compilers.
const SAMPLES: usize = 21;
/// Each sample repeats its pass over the positions for at least this long.
const SAMPLE_TIME: Duration = Duration::from_millis(15);
/// Positions per batch call (the solver's batches are of this order).
const BATCH: usize = 1024;

/// The positions every path walks, computed once with the static game.
struct Workload {
    /// Legal positions where play goes on: move generation and do_move.
    movers: Vec<TierPosition>,
    /// Every move of every mover, in order.
    moves: Vec<(TierPosition, Move)>,
    /// Legal positions below the empty board: undo moves towards the tier above.
    undoers: Vec<TierPosition>,
    /// `movers` as batches of at most `BATCH` indices of one tier.
    mover_batches: Vec<(Tier, Vec<u64>)>,
    /// `undoers` likewise.
    undoer_batches: Vec<(Tier, Vec<u64>)>,
}

fn batches(ps: &[TierPosition]) -> Vec<(Tier, Vec<u64>)> {
    let mut out: Vec<(Tier, Vec<u64>)> = Vec::new();
    for p in ps {
        match out.last_mut() {
            Some((t, v)) if *t == p.tier && v.len() < BATCH => v.push(p.position),
            _ => out.push((p.tier, vec![p.position])),
        }
    }
    out
}

impl Workload {
    fn new(game: &MttTier) -> Workload {
        let mut legal = Vec::new();
        for t in (0..=9).rev() {
            for i in 0..game.tier_size(Tier(t)) {
                let p = TierPosition::new(Tier(t), i);
                if game.is_legal(p) {
                    legal.push(p);
                }
            }
        }
        let movers: Vec<TierPosition> = legal
            .iter()
            .copied()
            .filter(|&p| game.primitive(p) == Value::UNDECIDED)
            .collect();
        let mut buf = [Move::default(); 9];
        let mut moves = Vec::new();
        for &p in &movers {
            let mut list = List::new(&mut buf);
            game.generate_moves(p, &mut list);
            moves.extend(list.as_slice().iter().map(|&m| (p, m)));
        }
        let undoers: Vec<TierPosition> = legal.iter().copied().filter(|p| p.tier.0 < 9).collect();
        Workload {
            mover_batches: batches(&movers),
            undoer_batches: batches(&undoers),
            movers,
            moves,
            undoers,
        }
    }
}

fn mix(sum: u64, p: TierPosition) -> u64 {
    sum.wrapping_add(p.position ^ (p.tier.0 << 40))
}

/// The parent tier of undo moves from `p`.
fn above(p: TierPosition) -> Tier {
    Tier(p.tier.0 + 1)
}

// ---- statically linked, calling the `Game` trait directly ---------------------------

fn direct_moves(g: &MttTier, w: &Workload) -> u64 {
    let mut buf = [Move::default(); 9];
    let mut sum = 0u64;
    for &p in &w.movers {
        let mut list = List::new(&mut buf);
        g.generate_moves(black_box(p), &mut list);
        sum = list.as_slice().iter().fold(sum, |s, m| s.wrapping_add(m.0));
    }
    sum
}

fn direct_do_move(g: &MttTier, w: &Workload) -> u64 {
    w.moves
        .iter()
        .fold(0, |s, &(p, m)| mix(s, g.do_move(black_box(p), m)))
}

fn direct_children(g: &MttTier, w: &Workload) -> u64 {
    let mut buf = [Move::default(); 9];
    let mut sum = 0u64;
    for &p in &w.movers {
        let mut list = List::new(&mut buf);
        g.generate_moves(black_box(p), &mut list);
        for &m in list.as_slice() {
            sum = mix(sum, g.do_move(p, m));
        }
    }
    sum
}

fn direct_undo(g: &MttTier, w: &Workload) -> u64 {
    let mut buf = [UndoMove::default(); 5];
    let mut sum = 0u64;
    for &c in &w.undoers {
        let mut list = List::new(&mut buf);
        g.generate_undo_moves_to_tier(black_box(c), above(c), &mut list);
        for &u in list.as_slice() {
            sum = sum.wrapping_add(g.undo_move(c, u).position);
        }
    }
    sum
}

// ---- through the stable ABI, one call per position (raw game object) ----------------

fn call_moves(g: &GameBox, w: &Workload) -> u64 {
    let mut buf = [Move::default(); 9];
    let mut sum = 0u64;
    for &p in &w.movers {
        let n = g
            .generate_moves(black_box(p), buf.as_mut_slice().into())
            .unwrap() as usize;
        sum = buf[..n].iter().fold(sum, |s, m| s.wrapping_add(m.0));
    }
    sum
}

fn call_do_move(g: &GameBox, w: &Workload) -> u64 {
    w.moves
        .iter()
        .fold(0, |s, &(p, m)| mix(s, g.do_move(black_box(p), m).unwrap()))
}

fn call_children(g: &GameBox, w: &Workload) -> u64 {
    let mut buf = [Move::default(); 9];
    let mut sum = 0u64;
    for &p in &w.movers {
        let n = g
            .generate_moves(black_box(p), buf.as_mut_slice().into())
            .unwrap() as usize;
        for &m in &buf[..n] {
            sum = mix(sum, g.do_move(p, m).unwrap());
        }
    }
    sum
}

fn call_undo(g: &GameBox, w: &Workload) -> u64 {
    let mut buf = [UndoMove::default(); 5];
    let mut sum = 0u64;
    for &c in &w.undoers {
        let n = g
            .undo_moves_to_tier(black_box(c), above(c), buf.as_mut_slice().into())
            .unwrap() as usize;
        for &u in &buf[..n] {
            sum = sum.wrapping_add(g.undo_move(c, u).unwrap().position);
        }
    }
    sum
}

// ---- through `GameHandle`'s checked convenience API, one call per position ---------

fn handle_moves(g: &GameHandle, w: &Workload) -> u64 {
    let mut sum = 0u64;
    for &p in &w.movers {
        let moves = g.moves(black_box(p)).unwrap();
        sum = moves.iter().fold(sum, |s, m| s.wrapping_add(m.0));
    }
    sum
}

fn handle_do_move(g: &GameHandle, w: &Workload) -> u64 {
    w.moves
        .iter()
        .fold(0, |s, &(p, m)| mix(s, g.do_move(black_box(p), m).unwrap()))
}

fn handle_children(g: &GameHandle, w: &Workload) -> u64 {
    let mut sum = 0u64;
    for &p in &w.movers {
        for m in g.moves(black_box(p)).unwrap() {
            sum = mix(sum, g.do_move(p, m).unwrap());
        }
    }
    sum
}

fn handle_undo(g: &GameHandle, w: &Workload) -> u64 {
    let mut sum = 0u64;
    for &c in &w.undoers {
        for u in g.undo_moves(black_box(c), above(c)).unwrap() {
            sum = sum.wrapping_add(g.undo_move(c, u).unwrap().position);
        }
    }
    sum
}

// ---- batches, as the solver calls them ----------------------------------------------

fn batch_children(g: &GameHandle, w: &Workload) -> u64 {
    let mut kids = vec![TierPosition::default(); BATCH * 9];
    let mut counts = vec![0u32; BATCH];
    let mut sum = 0u64;
    for (tier, idx) in &w.mover_batches {
        g.children_batch(*tier, black_box(idx), &mut kids, &mut counts[..idx.len()])
            .unwrap();
        let n: usize = counts[..idx.len()].iter().map(|&c| c as usize).sum();
        sum = kids[..n].iter().fold(sum, |s, &c| mix(s, c));
    }
    sum
}

fn batch_parents(g: &GameHandle, w: &Workload) -> u64 {
    let mut parents = vec![0u64; BATCH * 5];
    let mut counts = vec![0u32; BATCH];
    let mut sum = 0u64;
    for (tier, idx) in &w.undoer_batches {
        g.parents_batch(
            *tier,
            black_box(idx),
            Tier(tier.0 + 1),
            &mut parents,
            &mut counts[..idx.len()],
        )
        .unwrap();
        let n: usize = counts[..idx.len()].iter().map(|&c| c as usize).sum();
        sum = parents[..n].iter().fold(sum, |s, &q| s.wrapping_add(q));
    }
    sum
}

// ---- measuring ----------------------------------------------------------------------

/// What the table's columns are.
#[derive(Clone, Copy, PartialEq)]
enum Path {
    Direct,
    AdapterCall,
    PluginCall,
    PluginHandle,
    AdapterBatch,
    PluginBatch,
    CCall,
    CBatch,
}

/// Each path: its column heading and what it is.
const PATHS: [(Path, &str, &str); 8] = [
    (
        Path::Direct,
        "static",
        "mtttier linked statically, calling the Game trait directly",
    ),
    (
        Path::AdapterCall,
        "adapter/call",
        "static mtttier behind the plugin adapter (GameHandle::from_static), one raw FfiGame call per position",
    ),
    (
        Path::PluginCall,
        ".so/call",
        "libmtttier.so, one raw FfiGame call per position, host-owned reused buffers",
    ),
    (
        Path::PluginHandle,
        ".so/handle",
        "libmtttier.so through GameHandle's checked API (fresh Vec per list, tier-size check per do_move)",
    ),
    (
        Path::AdapterBatch,
        "adapter/batch",
        "static adapter, children_batch / parents_batch",
    ),
    (
        Path::PluginBatch,
        ".so/batch",
        "libmtttier.so, children_batch / parents_batch",
    ),
    (
        Path::CCall,
        ".c/call",
        "libctttier.so (C, gamesman_plugin.h), one raw FfiGame call per position",
    ),
    (
        Path::CBatch,
        ".c/batch",
        "libctttier.so (C), children_batch / parents_batch",
    ),
];

/// Width of a number column.
const COL: usize = 14;

const OPS: [&str; 4] = [
    "(a) generate_moves",
    "(b) do_move, every move",
    "(a)+(b) all children",
    "(c) undo moves + undo_move",
];

/// Which clock a figure comes from.
#[derive(Clone, Copy)]
enum Clock {
    /// `Instant`: elapsed real time.
    Wall,
    /// CPU time of the measuring thread: time other processes take is left out.
    Cpu,
}

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// Linux's `CLOCK_THREAD_CPUTIME_ID`.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// CPU time used by this thread, in ns (std has no portable way to read it).
fn thread_cpu_ns() -> u64 {
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec of the platform's layout (64-bit Linux).
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

struct Measurement<'a> {
    op: usize,
    path: Path,
    positions: usize,
    pass: Box<dyn FnMut() -> u64 + 'a>,
    reps: u32,
    wall: Vec<f64>,
    cpu: Vec<f64>,
    checksum: u64,
}

/// A measurement of operation `op` by `path`, one `pass` over `positions` positions.
fn measure<'a>(
    op: usize,
    path: Path,
    positions: usize,
    pass: impl FnMut() -> u64 + 'a,
) -> Measurement<'a> {
    Measurement {
        op,
        path,
        positions,
        pass: Box::new(pass),
        reps: 1,
        wall: Vec::new(),
        cpu: Vec::new(),
        checksum: 0,
    }
}

impl Measurement<'_> {
    fn calibrate(&mut self) {
        self.checksum = (self.pass)();
        let started = thread_cpu_ns();
        black_box((self.pass)());
        let once = (thread_cpu_ns() - started).max(1);
        self.reps = (SAMPLE_TIME.as_nanos() as u64 / once).clamp(1, 1_000_000) as u32;
    }

    fn sample(&mut self) {
        let (wall, cpu) = (Instant::now(), thread_cpu_ns());
        for _ in 0..self.reps {
            let sum = (self.pass)();
            assert_eq!(sum, self.checksum, "a pass changed its result");
        }
        let per = f64::from(self.reps) * self.positions as f64;
        self.cpu.push((thread_cpu_ns() - cpu) as f64 / per);
        self.wall.push(wall.elapsed().as_nanos() as f64 / per);
    }

    fn sorted(&self, clock: Clock) -> Vec<f64> {
        let mut v = match clock {
            Clock::Wall => self.wall.clone(),
            Clock::Cpu => self.cpu.clone(),
        };
        v.sort_by(f64::total_cmp);
        v
    }

    fn median(&self, clock: Clock) -> f64 {
        let v = self.sorted(clock);
        v[v.len() / 2]
    }

    /// Interquartile range over the median: how noisy this measurement was.
    fn spread(&self, clock: Clock) -> f64 {
        let v = self.sorted(clock);
        (v[v.len() * 3 / 4] - v[v.len() / 4]) / self.median(clock)
    }
}

fn main() {
    // The .so from this very cargo run, so both sides are built from the same source
    // with the same profile.
    let so = plugin_built_alongside("mtttier");
    let module = loader::load(so.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{e}"));
    let plugin_game = module
        .open(Some("regular"))
        .unwrap_or_else(|e| panic!("{e}"));
    let static_adapter = GameHandle::from_static::<MttTier>("regular").expect("static mtttier");
    let c_so = build_header_module("plugins/c/ctttier/ctttier.c", "ctttier", &[]);
    let c_module =
        loader::load(c_so.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{e}"));
    let c_game = c_module
        .open(Some("regular"))
        .unwrap_or_else(|e| panic!("{e}"));
    let direct = MttTier::new_for_tests("regular");
    let w = Workload::new(&direct);

    let (dir, pg, sa) = (&direct, plugin_game.raw(), static_adapter.raw());
    let (ph, sh) = (&plugin_game, &static_adapter);
    let (cg, ch) = (c_game.raw(), &c_game);
    let wr = &w;
    let (nm, nu) = (w.movers.len(), w.undoers.len());
    let mut ms = vec![
        measure(0, Path::Direct, nm, move || direct_moves(dir, wr)),
        measure(0, Path::AdapterCall, nm, move || call_moves(sa, wr)),
        measure(0, Path::PluginCall, nm, move || call_moves(pg, wr)),
        measure(0, Path::PluginHandle, nm, move || handle_moves(ph, wr)),
        measure(0, Path::CCall, nm, move || call_moves(cg, wr)),
        measure(1, Path::Direct, nm, move || direct_do_move(dir, wr)),
        measure(1, Path::AdapterCall, nm, move || call_do_move(sa, wr)),
        measure(1, Path::PluginCall, nm, move || call_do_move(pg, wr)),
        measure(1, Path::PluginHandle, nm, move || handle_do_move(ph, wr)),
        measure(1, Path::CCall, nm, move || call_do_move(cg, wr)),
        measure(2, Path::Direct, nm, move || direct_children(dir, wr)),
        measure(2, Path::AdapterCall, nm, move || call_children(sa, wr)),
        measure(2, Path::PluginCall, nm, move || call_children(pg, wr)),
        measure(2, Path::PluginHandle, nm, move || handle_children(ph, wr)),
        measure(2, Path::AdapterBatch, nm, move || batch_children(sh, wr)),
        measure(2, Path::PluginBatch, nm, move || batch_children(ph, wr)),
        measure(2, Path::CCall, nm, move || call_children(cg, wr)),
        measure(2, Path::CBatch, nm, move || batch_children(ch, wr)),
        measure(3, Path::Direct, nu, move || direct_undo(dir, wr)),
        measure(3, Path::AdapterCall, nu, move || call_undo(sa, wr)),
        measure(3, Path::PluginCall, nu, move || call_undo(pg, wr)),
        measure(3, Path::PluginHandle, nu, move || handle_undo(ph, wr)),
        measure(3, Path::AdapterBatch, nu, move || batch_parents(sh, wr)),
        measure(3, Path::PluginBatch, nu, move || batch_parents(ph, wr)),
        measure(3, Path::CCall, nu, move || call_undo(cg, wr)),
        measure(3, Path::CBatch, nu, move || batch_parents(ch, wr)),
    ];

    for m in ms.iter_mut() {
        m.calibrate();
    }
    // Every path of an operation computes the same thing (mtttier's regular variant
    // has no duplicate children or parents, so the batches' dedup changes nothing).
    for (op, name) in OPS.iter().enumerate() {
        let sums: Vec<u64> = ms
            .iter()
            .filter(|m| m.op == op)
            .map(|m| m.checksum)
            .collect();
        assert!(
            sums.windows(2).all(|p| p[0] == p[1]),
            "paths of {name} disagree: {sums:?}"
        );
    }
    // Interleave samples so load from other processes spreads over every path.
    for _ in 0..SAMPLES {
        for m in ms.iter_mut() {
            m.sample();
        }
    }
    report(&ms, &w, &so);
    println!("C module: {}", c_so.display());
}

fn report(ms: &[Measurement], w: &Workload, so: &std::path::Path) {
    println!("plugin boundary: mtttier (regular), {}", so.display());
    println!(
        "{} legal positions with moves ({} moves), {} legal positions with undo moves; batches of up to {BATCH}; median of {SAMPLES} samples",
        w.movers.len(),
        w.moves.len(),
        w.undoers.len()
    );
    for (_, heading, meaning) in PATHS {
        println!("  {heading:<14} {meaning}");
    }
    for (clock, name) in [
        (Clock::Wall, "wall-clock time (Instant)"),
        (Clock::Cpu, "thread CPU time"),
    ] {
        println!();
        report_clock(ms, clock, name);
    }
}

/// The table of one clock's medians, the .so's overheads, and the verdict.
fn report_clock(ms: &[Measurement], clock: Clock, name: &str) {
    let get = |op: usize, path: Path| {
        ms.iter()
            .find(|m| m.op == op && m.path == path)
            .map(|m| m.median(clock))
    };
    println!("ns per position, {name}:");
    print!("{:<28}", "operation");
    for (_, heading, _) in PATHS {
        print!("{heading:>COL$}");
    }
    println!();
    for (op, name) in OPS.iter().enumerate() {
        print!("{name:<28}");
        for (path, _, _) in PATHS {
            match get(op, path) {
                Some(ns) => print!("{ns:>COL$.1}"),
                None => print!("{:>COL$}", "-"),
            }
        }
        println!();
    }
    let pct = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:+.1}%", (a / b - 1.0) * 100.0),
        _ => "-".into(),
    };
    println!(
        "{:<28}{:>20}{:>26}{:>28}",
        "overhead of the .so",
        ".so/call vs static",
        ".so/call vs adapter/call",
        ".so/batch vs adapter/batch"
    );
    for (op, name) in OPS.iter().enumerate() {
        println!(
            "{name:<28}{:>20}{:>26}{:>28}",
            pct(get(op, Path::PluginCall), get(op, Path::Direct)),
            pct(get(op, Path::PluginCall), get(op, Path::AdapterCall)),
            pct(get(op, Path::PluginBatch), get(op, Path::AdapterBatch)),
        );
    }
    let noisiest = ms.iter().map(|m| m.spread(clock)).fold(0.0, f64::max);
    println!(
        "noise: interquartile range up to {:.1}% of the median (differences below that are not significant)",
        noisiest * 100.0
    );
    println!(
        "{:<28}{:>20}{:>26}",
        "the C path", ".c/call vs .so/call", ".c/batch vs .so/batch"
    );
    for (op, name) in OPS.iter().enumerate() {
        println!(
            "{name:<28}{:>20}{:>26}",
            pct(get(op, Path::CCall), get(op, Path::PluginCall)),
            pct(get(op, Path::CBatch), get(op, Path::PluginBatch)),
        );
    }
    let worst = [2, 3]
        .iter()
        .filter_map(|&op| Some(get(op, Path::PluginBatch)? / get(op, Path::AdapterBatch)? - 1.0))
        .fold(f64::NEG_INFINITY, f64::max);
    println!(
        "target (issue 2): batch path at most +10% over static: {} (worst {:+.1}%)",
        if worst <= 0.10 { "met" } else { "NOT met" },
        worst * 100.0
    );
}
