//! `validate`: proves a game module's tiers, moves, undo moves and text forms
//! consistent before anyone spends a night solving it.
//!
//! This is the command-line edge: it parses options, sets up logging and the thread
//! pool, runs the validation and prints the report (text or JSON) and the DOT file,
//! and maps the result to an exit code. It must not contain checks.

mod checks;
mod cycles;
mod dot;
mod findings;
mod orbits;
mod outcome;
mod probe;
mod progress;
mod reach;
mod report;
mod run;
mod sample;
mod tiers;
mod variants;

use anyhow::Context;
use clap::Parser;
use run::{ModeChoice, Options, RunError};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code: at least one check found an error.
const EXIT_FINDINGS: u8 = 1;
/// Exit code: the module could not be loaded or the variant not opened.
const EXIT_LOAD: u8 = 3;
/// Exit code: anything else went wrong (for example writing the DOT file).
const EXIT_FAILURE: u8 = 4;

const AFTER_HELP: &str = "\
Checks (each finding names the tier, the position, the move and what was expected):
  1 tier-graph       the reachable tier graph is a DAG apart from self-loops
  2 children         children lie in declared tiers, inside the tier's size, and are legal;
                     the children fast path agrees with generate_moves + do_move
  3 undo-moves       undo moves and moves agree, both ways (canonical forms with symmetry);
                     the parents fast path agrees with the undo moves
  4 primitive        primitive values and WinBy signs are consistent
  5 text-round-trip  position and move texts parse back to the same position and move
  6 turn             the player to move changes on every move (unless go-again or a puzzle;
                     for turn-free positions only that turn answers and nothing needs it)
  7 symmetry         canonical positions stay in the tier and keep value and child count
                     (exhaustive: orbit_size and orbit_by_turn against a walk of each tier)
  8 sizes            reachable positions per tier against tier sizes (a report; exhaustive only)

Exhaustive is the default when the reachable tiers hold at most 20,000,000 positions in
all; above that the default is a sample of 2,000 random positions per tier.

Exit codes: 0 nothing wrong (warnings allowed), 1 errors found, 2 bad command line,
3 the module could not be loaded or the variant not opened, 4 other failure.";

/// Command-line options.
#[derive(Parser, Debug)]
#[command(
    name = "validate",
    version,
    about = "Check a game module's tiers, moves, undo moves and text forms against each other",
    after_help = AFTER_HELP
)]
struct Cli {
    /// The module: a path to its .so file, or a bare name (mtttier) looked up as the
    /// host does: in $GAMESMAN_PLUGIN_PATH, the user plugin directory, then next to this
    /// binary.
    #[arg(long, value_name = "PATH_OR_NAME")]
    plugin: String,

    /// The variant to check (default: the module's default variant).
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,

    /// Check every variant the module offers, one after another (exit 1 if any has
    /// an error, 3 if any cannot be opened).
    #[arg(long, conflicts_with_all = ["variant", "dot"])]
    all_variants: bool,

    /// Check every position of every reachable tier, and count reachable positions
    /// (default when the tiers hold at most 20,000,000 positions).
    #[arg(long, conflicts_with = "sample")]
    exhaustive: bool,

    /// Check N random positions per tier instead (default above 20,000,000 positions,
    /// with N = 2,000). The same seed checks the same positions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    sample: Option<u64>,

    /// Seed of the random sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Print one JSON object (checks, findings, tiers, summary) instead of the text
    /// report.
    #[arg(long)]
    json: bool,

    /// Also write the tier DAG in Graphviz DOT to FILE.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,

    /// Findings listed per check; the rest are only counted.
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_findings: usize,

    /// Worker threads (default: one per core; at most 4 per core, at least 64 allowed).
    #[arg(long, value_name = "N", value_parser = gamesman_host::engine::threads::parse_arg)]
    threads: Option<usize>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    match validate(&cli) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "validate: {}",
                gamesman_host::engine::messages::error_paragraph(e.as_ref())
            );
            let load = e
                .downcast_ref::<RunError>()
                .is_some_and(|r| matches!(r, RunError::Load(_)));
            ExitCode::from(if load { EXIT_LOAD } else { EXIT_FAILURE })
        }
    }
}

fn validate(cli: &Cli) -> anyhow::Result<ExitCode> {
    gamesman_host::engine::threads::configure(cli.threads).map_err(anyhow::Error::msg)?;
    let opts = Options {
        plugin: cli.plugin.clone(),
        variant: cli.variant.clone(),
        mode: match (cli.exhaustive, cli.sample) {
            (true, _) => ModeChoice::Exhaustive,
            (false, Some(n)) => ModeChoice::Sample(n),
            (false, None) => ModeChoice::Auto,
        },
        seed: cli.seed,
        max_findings: cli.max_findings,
        progress: true,
    };
    if cli.all_variants {
        return variants::finish(&variants::run_all(&opts)?, cli.json);
    }
    let outcome = run::run(&opts)?;
    if let Some(path) = &cli.dot {
        std::fs::write(path, dot::render(&outcome))
            .with_context(|| format!("could not write the DOT file {}", path.display()))?;
    }
    let text = if cli.json {
        format!("{}\n", serde_json::to_string_pretty(&outcome)?)
    } else {
        report::render(&outcome)
    };
    // Written, not printed: a closed stdout (`validate ... | head`) ends the report
    // quietly, not with a panic, and the exit code still gives the verdict.
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    Ok(if outcome.summary.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FINDINGS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn help_states_the_real_threshold_and_sample_size() {
        let threshold = gamesman_host::engine::numbers::count(run::EXHAUSTIVE_THRESHOLD);
        let sample = gamesman_host::engine::numbers::count(run::DEFAULT_SAMPLE);
        assert!(AFTER_HELP.contains(&format!("at most {threshold} positions")));
        assert!(AFTER_HELP.contains(&format!("sample of {sample} random")));
        let long = Cli::command().render_long_help().to_string();
        assert!(long.contains(&format!("at most {threshold}")), "{long}");
        assert!(long.contains(&format!("N = {sample}")), "{long}");
    }

    #[test]
    fn exit_codes_are_distinct() {
        let codes = [0, EXIT_FINDINGS, 2, EXIT_LOAD, EXIT_FAILURE];
        let mut sorted = codes.to_vec();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len());
    }
}
