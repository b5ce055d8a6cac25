//! Showing a solve's progress: bars (overall and per tier, with positions/s and ETA)
//! when stderr is a terminal, log lines otherwise, numbers as `numbers` writes them.
//! Presentation only.

use crate::engine::numbers::{count, rate, rate_over, seconds};
use crate::engine::solver::base::bytes;
use crate::engine::solver::{Measured, SolveProgress};
use crate::engine::tier::{TierGraph, TierNode};
use gamesman_plugin_api::Tier;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// The reporter that fits where stderr goes.
pub fn for_stderr() -> Box<dyn SolveProgress> {
    if std::io::stderr().is_terminal() {
        Box::new(Bars::new())
    } else {
        Box::new(Lines)
    }
}

/// Log lines, one per tier.
pub struct Lines;

impl SolveProgress for Lines {
    fn start(&self, graph: &TierGraph, to_solve: u64) {
        log::info!(
            "{} tiers, {} positions; {} positions to solve",
            count(graph.order.len() as u64),
            count(graph.total_positions()),
            count(to_solve)
        );
    }
    fn reused(&self, node: &TierNode) {
        log::debug!("tier {} ({}) is already solved", node.tier, node.name);
    }
    fn corrupt(&self, node: &TierNode, reason: &str) {
        log::warn!(
            "tier {} ({}) is stored but unusable ({reason}); solving it again",
            node.tier,
            node.name
        );
    }
    fn tier_started(&self, node: &TierNode) {
        log::debug!(
            "solving tier {} ({}), {} positions",
            node.tier,
            node.name,
            count(node.stored)
        );
    }
    fn advance(&self, _: &TierNode, _: u64) {}
    fn note(&self, node: &TierNode, what: &str) {
        log::info!("tier {} ({}): {what}", node.tier, node.name);
    }
    fn tier_finished(&self, node: &TierNode, took: Duration) {
        log::info!(
            "solved tier {} ({}): {} positions in {} ({} positions/s)",
            node.tier,
            node.name,
            count(node.stored),
            seconds(took),
            rate_over(node.stored, took)
        );
    }
    fn measured(&self, node: &TierNode, m: &Measured) {
        log::info!("tier {} ({}): {}", node.tier, node.name, figures(m));
    }
    fn finish(&self) {}
}

/// A finished tier's figures in words: its way, CPU (of its group where it shared
/// one), its group's own peak, the process's peak so far and the plan's peak for it.
fn figures(m: &Measured) -> String {
    let group = match m.group_tiers {
        1 => String::new(),
        n => format!(" (its group of {n} tiers)"),
    };
    let peak = m
        .peak_bytes
        .map_or("not told by the system".to_string(), bytes);
    let own = m
        .own_peak_bytes
        .map_or("not told by the system".to_string(), bytes);
    format!(
        "{}, CPU {}{group}, its own peak {own}, peak so far {peak} (planned {})",
        m.mode,
        seconds(Duration::from_secs_f64(m.cpu_seconds)),
        bytes(m.estimated_bytes)
    )
}

/// Progress bars: one overall, one per tier being solved.
pub struct Bars {
    multi: MultiProgress,
    overall: Mutex<Option<ProgressBar>>,
    tiers: Mutex<HashMap<Tier, ProgressBar>>,
}

impl Bars {
    /// Bars drawn on stderr.
    pub fn new() -> Self {
        Bars {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            overall: Mutex::new(None),
            tiers: Mutex::new(HashMap::new()),
        }
    }
}

impl Default for Bars {
    fn default() -> Self {
        Self::new()
    }
}

impl SolveProgress for Bars {
    fn start(&self, graph: &TierGraph, to_solve: u64) {
        let bar = self.multi.add(ProgressBar::new(to_solve));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>8} [{bar:40}] {human_pos}/{human_len} positions {rate} ETA {eta}",
            )
            .expect("template")
            // indicatif's own {per_sec} prints four decimals; rates are whole here.
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}/s", rate(state.per_sec()));
                },
            )
            .progress_chars("=> "),
        );
        bar.set_prefix(format!("{} tiers", count(graph.order.len() as u64)));
        *self.overall.lock().expect("bars") = Some(bar);
    }
    fn reused(&self, _: &TierNode) {}
    fn corrupt(&self, node: &TierNode, reason: &str) {
        let _ = self.multi.println(format!(
            "tier {} ({}) is stored but unusable ({reason}); solving it again",
            node.tier, node.name
        ));
    }
    fn tier_started(&self, node: &TierNode) {
        let bar = self.multi.add(ProgressBar::new(node.stored));
        bar.set_style(
            ProgressStyle::with_template("{prefix:>8} [{bar:40}] {human_pos}/{human_len} {msg}")
                .expect("template")
                .progress_chars("=> "),
        );
        bar.set_prefix(format!("tier {}", node.tier));
        bar.set_message(node.name.clone());
        self.tiers.lock().expect("bars").insert(node.tier, bar);
    }
    fn advance(&self, node: &TierNode, positions: u64) {
        if let Some(b) = self.tiers.lock().expect("bars").get(&node.tier) {
            b.inc(positions);
        }
    }
    fn note(&self, node: &TierNode, what: &str) {
        if let Some(b) = self.tiers.lock().expect("bars").get(&node.tier) {
            b.set_message(format!("{}: {what}", node.name));
        }
        log::debug!("tier {} ({}): {what}", node.tier, node.name);
    }
    fn tier_finished(&self, node: &TierNode, took: Duration) {
        if let Some(b) = self.tiers.lock().expect("bars").remove(&node.tier) {
            b.finish_and_clear();
            self.multi.remove(&b);
        }
        if let Some(o) = self.overall.lock().expect("bars").as_ref() {
            o.inc(node.stored);
        }
        let _ = took;
    }
    fn finish(&self) {
        if let Some(o) = self.overall.lock().expect("bars").take() {
            o.finish_and_clear();
        }
    }
}

/// `host verify`'s progress: a bar on a terminal, one log line per tier otherwise.
pub fn verify_for_stderr() -> Box<dyn crate::engine::verify_db::VerifyProgress> {
    Box::new(VerifyBar {
        bar: Mutex::new(None),
        terminal: std::io::stderr().is_terminal(),
    })
}

/// The verify reporter.
struct VerifyBar {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
}

impl crate::engine::verify_db::VerifyProgress for VerifyBar {
    fn start(&self, tiers: usize, positions: u64) {
        log::info!("verifying {tiers} tiers, {positions} positions");
        if self.terminal {
            let bar = ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "verifying [{bar:40}] {human_pos}/{human_len} positions {per_sec} ETA {eta}",
                )
                .expect("template")
                .progress_chars("=> "),
            );
            *self.bar.lock().expect("bar") = Some(bar);
        }
    }
    fn advance(&self, positions: u64) {
        if let Some(b) = self.bar.lock().expect("bar").as_ref() {
            b.inc(positions);
        }
    }
    fn tier_done(&self, node: &TierNode, took: Duration) {
        if !self.terminal {
            log::info!(
                "verified tier {} ({}): {} positions in {took:.2?}",
                node.tier,
                node.name,
                node.stored
            );
        }
    }
    fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("bar").take() {
            b.finish_and_clear();
        }
    }
}

/// `host export`'s progress: a bar on a terminal, a log line at the end otherwise.
pub fn export_for_stderr() -> Box<dyn crate::export::ExportProgress> {
    Box::new(ExportBar {
        bar: Mutex::new(None),
        terminal: std::io::stderr().is_terminal(),
    })
}

/// The export reporter.
struct ExportBar {
    bar: Mutex<Option<ProgressBar>>,
    terminal: bool,
}

impl crate::export::ExportProgress for ExportBar {
    fn start(&self, positions: u64) {
        log::info!("exporting: looking at {} positions", count(positions));
        if self.terminal {
            let bar = ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "exporting [{bar:40}] {human_pos}/{human_len} positions {rate} ETA {eta}",
                )
                .expect("template")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{}/s", rate(state.per_sec()));
                    },
                )
                .progress_chars("=> "),
            );
            *self.bar.lock().expect("bar") = Some(bar);
        }
    }
    fn advance(&self, positions: u64) {
        if let Some(b) = self.bar.lock().expect("bar").as_ref() {
            b.inc(positions);
        }
    }
    fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("bar").take() {
            b.finish_and_clear();
        }
    }
}
