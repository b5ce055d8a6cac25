//! `validate --all-variants`: one run per variant the module offers, in its order, and
//! one verdict over them all. A variant that cannot be opened is reported and the
//! others are still checked.
//!
//! This file runs and gathers; the checks are `run`'s, the text is `report`'s. It must
//! not print (the command-line edge does).

use crate::outcome::Outcome;
use crate::run::{self, Options, RunError};
use serde::Serialize;

/// One variant's result: its outcome, or why it could not be opened.
#[derive(Serialize)]
pub struct VariantResult {
    /// The variant's name.
    pub variant: String,
    /// Its validation, when it was opened.
    pub outcome: Option<Outcome>,
    /// Why it could not be opened.
    pub error: Option<String>,
}

/// Every variant's result, and the verdict.
#[derive(Serialize)]
pub struct AllVariants {
    /// The module's name.
    pub module: String,
    /// One entry per variant, the default first.
    pub variants: Vec<VariantResult>,
    /// Variants with at least one error.
    pub failed: usize,
    /// Variants that could not be opened.
    pub not_opened: usize,
    /// True when every variant opened and none has an error.
    pub ok: bool,
}

/// Validates every variant of the module `opts` names (`opts.variant` is ignored).
/// Fails only when the module itself cannot be loaded.
pub fn run_all(opts: &Options) -> Result<AllVariants, RunError> {
    let module = gamesman_host::load(&opts.plugin)?;
    let names = module.variant_names();
    let mut variants = Vec::new();
    for name in names {
        let one = Options {
            variant: Some(name.clone()),
            ..opts.clone()
        };
        variants.push(match run::run(&one) {
            Ok(outcome) => VariantResult {
                variant: name,
                outcome: Some(outcome),
                error: None,
            },
            Err(e) => VariantResult {
                variant: name,
                outcome: None,
                error: Some(gamesman_host::engine::messages::error_paragraph(&e)),
            },
        });
    }
    let failed = variants
        .iter()
        .filter(|v| v.outcome.as_ref().is_some_and(|o| !o.summary.ok))
        .count();
    let not_opened = variants.iter().filter(|v| v.outcome.is_none()).count();
    Ok(AllVariants {
        module: module.name().to_string(),
        ok: failed == 0 && not_opened == 0 && !variants.is_empty(),
        variants,
        failed,
        not_opened,
    })
}

/// The text report: each variant's report under a heading, then one line per variant.
pub fn render(all: &AllVariants) -> String {
    let mut out = String::new();
    for v in &all.variants {
        out.push_str(&format!("=== {} variant {} ===\n", all.module, v.variant));
        match (&v.outcome, &v.error) {
            (Some(o), _) => out.push_str(&crate::report::render(o)),
            (None, Some(e)) => out.push_str(&format!("could not be opened: {e}\n")),
            (None, None) => {}
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "All variants of {} ({}):\n",
        all.module,
        all.variants.len()
    ));
    let width = all
        .variants
        .iter()
        .map(|v| v.variant.chars().count())
        .max()
        .unwrap_or(0);
    for v in &all.variants {
        let verdict = match &v.outcome {
            Some(o) if o.summary.ok => format!("ok ({} warnings)", o.summary.warnings),
            Some(o) => format!("{} errors", o.summary.errors),
            None => "not opened".to_string(),
        };
        out.push_str(&format!("  {:<width$}  {verdict}\n", v.variant));
    }
    out
}

/// Prints `all` (text, or one JSON object with `json`) and gives the exit code: 3 when
/// a variant could not be opened, else 1 when one has an error, else 0.
pub fn finish(all: &AllVariants, json: bool) -> anyhow::Result<std::process::ExitCode> {
    use std::io::Write;
    let text = if json {
        format!("{}\n", serde_json::to_string_pretty(all)?)
    } else {
        render(all)
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        _ => {}
    }
    Ok(std::process::ExitCode::from(if all.not_opened > 0 {
        crate::EXIT_LOAD
    } else if all.ok {
        0
    } else {
        crate::EXIT_FINDINGS
    }))
}
