//! The `host` command line: parses arguments, sets up logging, and hands each command
//! to the library. Errors end here as one paragraph on stderr and a non-zero exit code,
//! never a panic backtrace.

use anyhow::Context;
use clap::{Parser, Subcommand};
use gamesman_host::{info, loader};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "host",
    version,
    about = "Strongly solve games from plugin modules, store per-tier databases, and play them perfectly"
)]
struct Cli {
    /// The game module: a path to a .so file, or a bare name (mtttier) looked up next to this binary.
    #[arg(long, short = 'p', global = true)]
    plugin: Option<String>,
    /// The variant to open (default: the module's first).
    #[arg(long, global = true)]
    variant: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the module's metadata and the variant's properties.
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let spec = cli.plugin.as_deref().context(
        "no game module given: pass --plugin NAME_OR_PATH (for example --plugin mtttier)",
    )?;
    let module = loader::load(spec)?;
    let game = module.open(cli.variant.as_deref())?;
    match cli.command {
        Command::Info { json } => {
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&info::info_json(&module, &game)?)?
                );
            } else {
                print!("{}", info::info_text(&module, &game)?);
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .format_timestamp(None)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
