//! `host export`: the solved variant's positions (and with `--moves` its moves) as a
//! Parquet, SQLite or CSV file, with a progress bar, then one line (or JSON) saying
//! what was written. The format comes from `--format` or the file's extension; both
//! are checked before any work. The rows and files are the engine's (`export`).

use super::{open_solved, CliError, DbChoice, Invocation};
use crate::engine::game::GameHandle;
use crate::engine::numbers::count;
use crate::export::{self, ExportOptions, Format};
use crate::report::progress;
use gamesman_plugin_api::Tier;
use std::io::Write;
use std::path::PathBuf;

/// What `export` was asked.
#[derive(Clone, Debug, Default)]
pub struct ExportArgs {
    /// `--format` as typed.
    pub format: Option<String>,
    /// The file to write.
    pub out: PathBuf,
    /// Only positions reachable from the start.
    pub reachable: bool,
    /// Also the moves.
    pub moves: bool,
    /// Only these tiers.
    pub tiers: Vec<u64>,
    /// Every position, not only canonical ones.
    pub all_positions: bool,
    /// Print JSON.
    pub json: bool,
}

/// The format asked for, or the one the file name says.
pub fn format_of(args: &ExportArgs) -> Result<Format, CliError> {
    match &args.format {
        Some(name) => Format::parse(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown export format {}: use parquet, sqlite or csv",
                crate::engine::messages::quote(name)
            ))
        }),
        None => Format::of_path(&args.out).ok_or_else(|| {
            CliError::Usage(format!(
                "cannot tell the format of {} from its name: pass --format parquet, sqlite or csv (or name the file .parquet, .sqlite or .csv)",
                args.out.display()
            ))
        }),
    }
}

/// Runs `export` and says what it wrote.
pub fn run(
    game: &GameHandle,
    inv: &Invocation,
    choice: &DbChoice,
    args: &ExportArgs,
) -> anyhow::Result<()> {
    let format = format_of(args)?;
    if args.out.is_dir() {
        return Err(CliError::Usage(format!(
            "--out {} is a directory: name the file to write",
            args.out.display()
        ))
        .into());
    }
    // Before the database is opened (a memory: one is solved first).
    export::check_destination(&args.out)?;
    if args.moves && format != Format::Sqlite {
        export::check_destination(&export::moves_path(&args.out))?;
    }
    stop_on_signals(&args.out);
    if args.all_positions && !game.properties().has_symmetry {
        log::info!(
            "{} has no symmetries: every position is canonical, so --all-positions changes nothing",
            game.module_name()
        );
    }
    let db = open_solved(game, inv, choice, false)?;
    let options = ExportOptions {
        reachable: args.reachable,
        moves: args.moves,
        tiers: (!args.tiers.is_empty()).then(|| args.tiers.iter().map(|&t| Tier(t)).collect()),
        all_positions: args.all_positions,
    };
    let bar = progress::export_for_stderr();
    let report = export::export(game, db.as_ref(), format, &args.out, &options, bar.as_ref())?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let moves = match &report.moves_path {
            Some(p) => format!(" and {} moves to {}", count(report.moves), p.display()),
            None if args.moves => format!(" with {} moves", count(report.moves)),
            None => String::new(),
        };
        outln!(
            "wrote {} positions of {} tiers to {} ({}){moves}; {} bytes",
            count(report.positions),
            count(report.tiers as u64),
            report.path.display(),
            report.format,
            count(report.bytes)
        )?;
    }
    Ok(())
}

/// From now on SIGINT, SIGTERM and SIGHUP remove the export's unfinished files and end
/// the process with a message and the shell's code (128 + the signal), instead of
/// leaving `.NAME.PID.export-tmp` behind with a silent exit; SIGXFSZ is ignored so a
/// file size limit (`ulimit -f`) fails the write with a message rather than killing
/// the process with its temporaries in place.
fn stop_on_signals(out: &std::path::Path) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    // SAFETY: setting a signal's disposition to "ignore" runs no code in the handler.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("cannot watch for Ctrl-C and SIGTERM ({e}): an interrupted export may leave a temporary file, which the next export here removes");
            return;
        }
    };
    let out = out.to_path_buf();
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let removed = export::abandon_unfinished();
            let name = match sig {
                SIGINT => "Ctrl-C (SIGINT)",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            let what = if removed.is_empty() {
                "no file had been started".to_string()
            } else {
                let names: Vec<String> = removed.iter().map(|p| p.display().to_string()).collect();
                format!("removed the unfinished {}", names.join(" and "))
            };
            let _ = writeln!(
                std::io::stderr(),
                "\nerror: the export was stopped by {name}: {what}; nothing was written to {} (a file already there is as it was)",
                out.display()
            );
            std::process::exit(128 + sig);
        }
    });
}
