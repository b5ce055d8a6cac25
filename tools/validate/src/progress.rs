//! Progress of a long phase: a bar on stderr when it is a terminal, otherwise a log
//! line now and then, so CI logs show the run is alive without thousands of lines.
//!
//! Thread-safe; counting is cheap. This file must not print results.

use gamesman_host::engine::numbers::count;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a progress log line is written when stderr is not a terminal.
const LOG_EVERY: Duration = Duration::from_secs(5);

/// Progress of one phase.
pub struct Progress {
    label: String,
    total: Option<u64>,
    done: AtomicU64,
    bar: Option<ProgressBar>,
    last_log: Mutex<Instant>,
}

impl Progress {
    /// Starts a phase of `total` units (`None`: unknown), shown only if `show`.
    pub fn new(label: &str, total: Option<u64>, show: bool) -> Self {
        let bar = (show && std::io::stderr().is_terminal()).then(|| {
            let bar = match total {
                Some(n) => ProgressBar::new(n).with_style(
                    ProgressStyle::with_template(
                        "{msg:>12} [{bar:40}] {pos}/{len} positions ({eta} left)",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                ),
                None => ProgressBar::new_spinner().with_style(
                    ProgressStyle::with_template("{msg:>12} {spinner} {pos} positions")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                ),
            };
            bar.set_message(label.to_string());
            bar
        });
        Progress {
            label: label.to_string(),
            total,
            done: AtomicU64::new(0),
            bar,
            last_log: Mutex::new(Instant::now()),
        }
    }

    /// Records `n` more units done.
    pub fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = &self.bar {
            bar.inc(n);
            return;
        }
        let Ok(mut last) = self.last_log.try_lock() else {
            return;
        };
        if last.elapsed() >= LOG_EVERY {
            *last = Instant::now();
            match self.total {
                Some(total) if total > 0 => log::info!(
                    "{}: {}/{} positions ({}%)",
                    self.label,
                    count(done),
                    count(total),
                    done * 100 / total
                ),
                _ => log::info!("{}: {} positions", self.label, count(done)),
            }
        }
    }

    /// Ends the phase.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        log::info!(
            "{}: done, {} positions",
            self.label,
            count(self.done.load(Ordering::Relaxed))
        );
    }
}
