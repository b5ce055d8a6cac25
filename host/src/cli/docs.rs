//! `host completions SHELL` and `host man`: shell completion scripts and a roff man
//! page, generated from the command line's own clap definition (clap_complete,
//! clap_mangen), so they never fall behind the flags. The man page is one page: the
//! main sections from clap_mangen, then a section per command with its usage, options
//! and examples.

use std::io::Write;

/// Writes the completion script for `shell` to `out`.
pub fn completions(
    shell: clap_complete::Shell,
    mut command: clap::Command,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let name = command.get_name().to_string();
    clap_complete::generate(shell, &mut command, name, out);
    Ok(())
}

/// Text made safe for roff: backslashes escaped, no line starting with a control
/// character.
fn roff_text(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One command's section: its description, usage, options and examples.
fn command_section(
    parent: &str,
    sub: &mut clap::Command,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let full = format!("{parent} {}", sub.get_name());
    writeln!(out, ".SH \"{}\"", full.to_uppercase())?;
    if let Some(about) = sub.get_long_about().or(sub.get_about()) {
        writeln!(out, "{}", roff_text(&about.to_string()))?;
    }
    // After `build`, a subcommand's usage already starts with the parent's name.
    let usage = sub.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    let _ = parent;
    writeln!(out, ".PP\n.B {}", roff_text(usage))?;
    for arg in sub.get_arguments() {
        if arg.is_hide_set() || arg.is_global_set() || arg.get_id() == "help" {
            continue;
        }
        let mut names = Vec::new();
        if let Some(s) = arg.get_short() {
            names.push(format!("\\fB-{s}\\fR"));
        }
        if let Some(l) = arg.get_long() {
            names.push(format!("\\fB--{l}\\fR"));
        }
        let value = arg
            .get_value_names()
            .map(|v| v.iter().map(|n| format!(" <{n}>")).collect::<String>())
            .unwrap_or_default();
        let head = if names.is_empty() {
            format!("<{}>", arg.get_id().as_str().to_uppercase())
        } else {
            let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
            format!(
                "{}{}",
                names.join(", "),
                if takes_value { value } else { String::new() }
            )
        };
        writeln!(out, ".TP\n{head}")?;
        if let Some(help) = arg.get_long_help().or(arg.get_help()) {
            writeln!(out, "{}", roff_text(&help.to_string()))?;
        }
    }
    if let Some(after) = sub.get_after_help() {
        writeln!(out, ".PP\n.nf\n{}\n.fi", roff_text(&after.to_string()))?;
    }
    Ok(())
}

/// Writes the man page (section 1, every command included) to `out`: clap_mangen's
/// title, name, synopsis, description and options, a section per command (instead of
/// clap_mangen's list, which points at one page per command), then the examples,
/// environment and exit codes, and the version.
pub fn man(mut command: clap::Command, out: &mut dyn Write) -> anyhow::Result<()> {
    command.build();
    let page = clap_mangen::Man::new(command.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    let name = command.get_name().to_string();
    for sub in command.get_subcommands_mut() {
        if sub.get_name() != "help" {
            command_section(&name, sub, out)?;
        }
    }
    if let Some(after) = command.get_after_help() {
        writeln!(
            out,
            ".SH NOTES\n.nf\n{}\n.fi",
            roff_text(&after.to_string())
        )?;
    }
    page.render_version_section(out)?;
    Ok(())
}

/// Text made safe for Markdown prose: `<` and `>` as entities (help texts name
/// placeholders such as `<FILE>`), lines joined as clap wraps them.
fn markdown_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One argument as a Markdown list item: its flags or name, value, help, default and
/// possible values.
fn markdown_arg(arg: &clap::Arg, out: &mut dyn Write) -> std::io::Result<()> {
    let mut names = Vec::new();
    if let Some(s) = arg.get_short() {
        names.push(format!("-{s}"));
    }
    if let Some(l) = arg.get_long() {
        names.push(format!("--{l}"));
    }
    let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
    let value = arg
        .get_value_names()
        .map(|v| v.iter().map(|n| format!(" <{n}>")).collect::<String>())
        .unwrap_or_else(|| format!(" <{}>", arg.get_id().as_str().to_uppercase()));
    let head = if names.is_empty() {
        format!("<{}>", arg.get_id().as_str().to_uppercase())
    } else if takes_value {
        format!("{}{value}", names.join(", "))
    } else {
        names.join(", ")
    };
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let mut line = format!("- `{head}`");
    if !help.is_empty() {
        line.push_str(": ");
        line.push_str(&markdown_text(
            &help.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && takes_value {
        line.push_str(&format!(" (default: `{}`)", defaults.join(",")));
    }
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !possible.is_empty() && takes_value {
        line.push_str(&format!(" (one of {})", possible.join(", ")));
    }
    writeln!(out, "{line}")
}

/// One command's section, then its subcommands' (`db copy`, ...).
fn markdown_command(
    parent: &str,
    sub: &mut clap::Command,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let full = format!("{parent} {}", sub.get_name());
    writeln!(out, "## {full}\n")?;
    if let Some(about) = sub.get_long_about().or(sub.get_about()) {
        writeln!(out, "{}\n", markdown_text(&about.to_string()))?;
    }
    let usage = sub.render_usage().to_string();
    writeln!(
        out,
        "```text\n{}\n```\n",
        usage.trim_start_matches("Usage: ")
    )?;
    let args: Vec<&clap::Arg> = sub
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_global_set() && a.get_id() != "help")
        .collect();
    if !args.is_empty() {
        for arg in args {
            markdown_arg(arg, out)?;
        }
        writeln!(out)?;
    }
    if let Some(after) = sub.get_after_help() {
        writeln!(out, "```text\n{}\n```\n", after.to_string().trim_end())?;
    }
    for subsub in sub.get_subcommands_mut() {
        if subsub.get_name() != "help" {
            markdown_command(&full, subsub, out)?;
        }
    }
    Ok(())
}

/// Writes the command-line reference as Markdown (the book's `reference/cli.md`):
/// the global options, then a section per command with its usage, options, defaults
/// and examples, then the notes of the main help (environment, exit codes). Like the
/// man page it comes from the clap definition alone, so it cannot fall behind; a test
/// compares the book's copy with it.
pub fn markdown(mut command: clap::Command, out: &mut dyn Write) -> anyhow::Result<()> {
    command.build();
    let name = command.get_name().to_string();
    writeln!(out, "# Command-line reference\n")?;
    writeln!(
        out,
        "<!-- Generated by `{name} man --markdown` from the command line's clap definition: do not edit by hand. tests/tests/book.rs checks that it is up to date. -->\n"
    )?;
    if let Some(about) = command.get_about() {
        writeln!(out, "`{name}`: {}.\n", markdown_text(&about.to_string()))?;
    }
    let usage = command.render_usage().to_string();
    writeln!(
        out,
        "```text\n{}\n```\n",
        usage.trim_start_matches("Usage: ")
    )?;
    writeln!(out, "## Global options\n")?;
    writeln!(
        out,
        "These go before or after the command (`{name} --plugin mtttier solve`).\n"
    )?;
    for arg in command.get_arguments() {
        if arg.is_global_set() && !arg.is_hide_set() {
            markdown_arg(arg, out)?;
        }
    }
    writeln!(out)?;
    for sub in command.get_subcommands_mut() {
        if sub.get_name() != "help" {
            markdown_command(&name, sub, out)?;
        }
    }
    if let Some(after) = command.get_after_help() {
        writeln!(
            out,
            "## Notes\n\n```text\n{}\n```",
            after.to_string().trim_end()
        )?;
    }
    Ok(())
}
