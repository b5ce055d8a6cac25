//! GamesmanClassic's own module files as a test corpus: the module list of Classic's
//! `Makefile.in`, the oracle's recorded results (`tests/classic/oracle.tsv`, made by
//! Classic's own solver; see `tests/classic/ORACLE.md`), the expectations of each
//! module here (`tests/classic/expectations.tsv`), and running one module: build it
//! with the README's command in a directory of its own, `host info`, `validate`,
//! `host solve` (`--reachable` for a regular module, as Classic solves only what is
//! reachable), `host analyze`, and compare with the oracle.
//!
//! Classic's files are read from `../shared/gamesman-classic` at test time and never
//! copied into the repository. This file must not know any module's results: they
//! come from the oracle file and the expectations file.

use crate::run::{host_command, run_bounded, RunOutput};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The README's command for a C module, with `{layer}` the layer's directory and
/// `{objects}` its sources (`{layer}/*.c`) or, to build a hundred modules in CI's
/// time, the same sources compiled once with `LAYER_OBJECTS_COMMAND`.
pub const C_COMMAND: &str =
    "cc -O2 -shared -fPIC -DNO_GRAPHICS -I {layer} {source} {objects} -o {output}";

/// The README's command for a C++ module (`cc` compiles `.cc` as C++, the layer as C).
pub const CXX_COMMAND: &str =
    "cc -O2 -shared -fPIC -DNO_GRAPHICS -I {layer} {source} {objects} -lstdc++ -o {output}";

/// Compiles the layer's sources once, with the flags of the commands above, into the
/// current directory.
pub const LAYER_OBJECTS_COMMAND: &str = "cc -O2 -fPIC -DNO_GRAPHICS -c {layer}/*.c";

/// Where Classic's files are: `../shared/gamesman-classic` beside the workspace.
pub fn corpus_dir(workspace: &Path) -> PathBuf {
    workspace
        .parent()
        .expect("the workspace has a parent")
        .join("shared/gamesman-classic")
}

/// The modules Classic's `Makefile.in` builds (`CGAMES`, then `CCGAMES`), as source
/// file stems (`mttt`), resolved through the `X_EXE = $(BINDIR)/mX` definitions; an
/// entry with no definition (Classic's own empty `$(TTTPPM_EXE)`) is left out.
pub fn makefile_modules(makefile: &str) -> Vec<String> {
    let mut exe: HashMap<String, String> = HashMap::new();
    for line in makefile.lines() {
        let Some((var, rest)) = line.split_once('=') else {
            continue;
        };
        let var = var.trim();
        if !var.ends_with("_EXE") || var.contains(' ') {
            continue;
        }
        if let Some(at) = rest.find("$(BINDIR)/") {
            let name: String = rest[at + "$(BINDIR)/".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            exe.insert(var.to_string(), name);
        }
    }
    let mut out = Vec::new();
    let mut in_list = false;
    for line in makefile.lines() {
        let head = line.split('=').next().unwrap_or("").trim();
        if head == "CGAMES" || head == "CCGAMES" {
            in_list = true;
        }
        if !in_list {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("$(") {
            let end = rest[at..].find(')').map_or(rest.len(), |e| at + e);
            let var = &rest[at + 2..end];
            if let Some(name) = exe.get(var) {
                out.push(name.clone());
            }
            rest = &rest[(end + 1).min(rest.len())..];
        }
        in_list = line.trim_end().ends_with('\\');
    }
    out
}

/// A tab-separated file with a header line, as maps from column name to field.
pub fn read_tsv(text: &str) -> Vec<HashMap<String, String>> {
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let names: Vec<&str> = header.split('\t').collect();
    lines
        .map(|l| {
            names
                .iter()
                .zip(l.split('\t').chain(std::iter::repeat("")))
                .map(|(n, v)| (n.to_string(), v.trim().to_string()))
                .collect()
        })
        .collect()
}

/// Counts of positions by value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// All positions.
    pub total: u64,
    /// Wins, losses, ties and draws.
    pub win: u64,
    /// Losses.
    pub lose: u64,
    /// Ties.
    pub tie: u64,
    /// Draws.
    pub draw: u64,
}

/// What Classic's solver says about a module's default variant.
#[derive(Debug, Clone)]
pub struct Oracle {
    /// The start's value (`win`, `lose`, `tie`, `draw`).
    pub value: String,
    /// Its remoteness (`inf` for a draw).
    pub remoteness: String,
    /// Whether Classic solved it with the Tier Gamesman (every position of every tier).
    pub tier: bool,
    /// The positions Classic counted: reached from the start (regular modules), or its
    /// analysis counts (tier solves).
    pub counts: Counts,
}

fn num(row: &HashMap<String, String>, key: &str) -> Option<u64> {
    row.get(key)?.parse().ok()
}

/// The oracle's `default` rows that Classic solved, by module.
pub fn read_oracle(text: &str) -> HashMap<String, Oracle> {
    read_oracle_request(text, "default")
}

/// The oracle's rows of one request (`default`, `notiers`, an option number) that
/// Classic solved, by module.
pub fn read_oracle_request(text: &str, request: &str) -> HashMap<String, Oracle> {
    let mut out = HashMap::new();
    for row in read_tsv(text) {
        if row["request"] != request || row.get("value").is_none_or(|v| v == "-") {
            continue;
        }
        let tier = row.get("tier").is_some_and(|t| t == "1");
        let p = if tier { "an" } else { "reach" };
        let total = if tier { "an_total" } else { "reach" };
        let get = |k: &str| num(&row, k);
        let Some(counts) = (|| {
            Some(Counts {
                total: get(total)?,
                win: get(&format!("{p}_win"))?,
                lose: get(&format!("{p}_lose"))?,
                tie: get(&format!("{p}_tie"))?,
                draw: get(&format!("{p}_draw"))?,
            })
        })() else {
            continue;
        };
        out.insert(
            row["module"].clone(),
            Oracle {
                value: row["value"].clone(),
                remoteness: row["remoteness"].clone(),
                tier,
                counts,
            },
        );
    }
    out
}

/// What a module is expected to do here (a row of `expectations.tsv`).
#[derive(Debug, Clone)]
pub struct Expectation {
    /// `ok`, `fail`, or `load-fails` (builds, but the host refuses to open it).
    pub build: String,
    /// `pass`, `skip`, `bench` (only with `GAMESMAN_CLASSIC_FULL`), or the checks
    /// expected to fail, comma-separated.
    pub validate: String,
    /// `equal`, `value`, `solves`, `bench`, `fails`, `notiers` (solved reachable-only
    /// and compared with Classic's `--notiers` row: value, remoteness and counts), or
    /// `bench-notiers` (that, only with `GAMESMAN_CLASSIC_FULL`).
    pub solve: String,
    /// Why, where it is not `equal`.
    pub note: String,
    /// Validate a random sample of this many positions per tier (`validate --sample`)
    /// instead of validate's default; set from `validate_sample.tsv` in CI's run.
    pub sample: Option<u64>,
}

/// The per-module sample sizes of CI's validate run (`validate_sample.tsv`: module,
/// sample, why).
pub fn read_samples(text: &str) -> HashMap<String, u64> {
    read_tsv(text)
        .into_iter()
        .filter_map(|r| Some((r["module"].clone(), r.get("sample")?.parse().ok()?)))
        .collect()
}

/// The expectations by module.
pub fn read_expectations(text: &str) -> HashMap<String, Expectation> {
    read_tsv(text)
        .into_iter()
        .map(|r| {
            (
                r["module"].clone(),
                Expectation {
                    build: r["build"].clone(),
                    validate: r["validate"].clone(),
                    solve: r["solve"].clone(),
                    note: r.get("note").cloned().unwrap_or_default(),
                    sample: None,
                },
            )
        })
        .collect()
}

/// Time bounds of one module's steps.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Building.
    pub build: Duration,
    /// `validate`.
    pub validate: Duration,
    /// `solve` and `analyze`, each.
    pub solve: Duration,
}

/// The binaries a module runs under.
pub struct Tools<'a> {
    /// `host`.
    pub host: &'a Path,
    /// `validate`.
    pub validate: &'a Path,
    /// The layer's directory (`plugin-api/c/classic`).
    pub layer: &'a Path,
    /// What `{objects}` stands for in the build command.
    pub objects: &'a str,
    /// Classic's `src/`.
    pub sources: &'a Path,
    /// Where each module gets a directory of its own.
    pub work: &'a Path,
}

/// What went differently from the expectation, one line each (empty: as expected).
pub type Problems = Vec<String>;

fn step(cmd: Command, bound: Duration, what: &str) -> Result<RunOutput, String> {
    let started = Instant::now();
    run_bounded(cmd, bound).map_err(|e| {
        format!(
            "{what} did not finish in {:?}: {}",
            started.elapsed(),
            e.lines().next().unwrap_or("")
        )
    })
}

fn json(r: &RunOutput, what: &str) -> Result<Json, String> {
    serde_json::from_str(&r.stdout)
        .map_err(|e| format!("{what} printed no JSON ({e}):\n{}", r.describe()))
}

/// Builds `module` and checks it against its expectation and the oracle.
pub fn check_module(
    module: &str,
    expect: &Expectation,
    oracle: Option<&Oracle>,
    tools: &Tools<'_>,
    bounds: Bounds,
) -> Problems {
    match run_module(module, expect, oracle, tools, bounds) {
        Ok(p) => p,
        Err(e) => vec![format!("{module}: {e}")],
    }
}

fn run_module(
    module: &str,
    expect: &Expectation,
    oracle: Option<&Oracle>,
    tools: &Tools<'_>,
    bounds: Bounds,
) -> Result<Problems, String> {
    let mut problems = Vec::new();
    let dir = tools.work.join(module);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let cc = tools.sources.join(format!("{module}.cc"));
    let (command, source) = if cc.is_file() {
        (CXX_COMMAND, cc)
    } else {
        (C_COMMAND, tools.sources.join(format!("{module}.c")))
    };
    let lib = dir.join(format!("lib{module}.so"));
    let line = command
        .replace("{layer}", &tools.layer.display().to_string())
        .replace("{objects}", tools.objects)
        .replace("{source}", &source.display().to_string())
        .replace("{output}", &lib.display().to_string());
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(&line).current_dir(&dir);
    let built = step(cmd, bounds.build, "building")?;
    if expect.build == "fail" {
        if built.status.success() {
            problems.push(format!(
                "{module}: builds, but expectations.tsv says it does not ({})",
                expect.note
            ));
        }
        return Ok(problems);
    }
    if !built.status.success() {
        return Err(format!("`{line}` failed:\n{}", built.stderr));
    }
    let plugin = lib.display().to_string();
    let host = |args: &[&str]| {
        let mut all = vec!["--plugin", plugin.as_str()];
        all.extend_from_slice(args);
        let mut c = host_command(tools.host, &all);
        c.current_dir(&dir);
        c
    };
    let info = step(host(&["info", "--json"]), bounds.build, "host info")?;
    if expect.build == "load-fails" {
        if info.status.success() {
            problems.push(format!(
                "{module}: loads, but expectations.tsv says it does not ({})",
                expect.note
            ));
        } else if !info.stderr.contains("error") && !info.stdout.contains("\"error\"") {
            problems.push(format!(
                "{module}: refused without an error message:\n{}",
                info.describe()
            ));
        }
        return Ok(problems);
    }
    if !info.status.success() {
        return Err(format!("host info failed:\n{}", info.describe()));
    }
    // A regular module is solved as Classic solves it: the positions reachable from the
    // start (its hash space may be far larger); a tier module's tiers whole.
    let regular = json(&info, "host info")?["properties"]["tier_game"] == false;
    if !matches!(expect.validate.as_str(), "skip" | "bench") {
        let mut v = Command::new(tools.validate);
        v.args(["--plugin", &plugin, "--json", "--threads", "1"])
            .current_dir(&dir);
        if let Some(n) = expect.sample {
            v.args(["--sample", &n.to_string()]);
        }
        let r = step(v, bounds.validate, "validate")?;
        let j = json(&r, "validate")?;
        let mut failed: Vec<String> = j["checks"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|c| c["status"] == "fail")
                    .filter_map(|c| c["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        failed.sort();
        let mut wanted: Vec<String> = if expect.validate == "pass" {
            Vec::new()
        } else {
            expect
                .validate
                .split(',')
                .map(|s| s.trim().to_string())
                .collect()
        };
        wanted.sort();
        if failed != wanted {
            problems.push(format!(
                "{module}: validate's failing checks are {failed:?}, expectations.tsv says {wanted:?}"
            ));
        }
    }
    if matches!(expect.solve.as_str(), "bench" | "bench-notiers" | "skip") {
        return Ok(problems);
    }
    let db = format!("file:{}", dir.join("db").display());
    let mut args = vec!["solve", "--db", &db, "--json", "--threads", "1"];
    // A tier module compared with Classic's `--notiers` solve: what is reachable.
    let notiers = expect.solve == "notiers";
    if regular || notiers {
        args.push("--reachable");
    }
    let solved = step(host(&args), bounds.solve, "solve")?;
    if expect.solve == "fails" {
        if solved.status.success() {
            problems.push(format!(
                "{module}: solves, but expectations.tsv says it fails ({})",
                expect.note
            ));
        }
        return Ok(problems);
    }
    if !solved.status.success() {
        // A module whose answers depend on uninitialised memory: the host may catch
        // it (a move to a position the forward search did not reach, or a record the
        // tier's verification finds at odds with `primitive`), which is right.
        let caught = [
            "moves must be a function of the position",
            "the module's functions contradict each other",
        ];
        if expect.solve == "value-or-caught" && caught.iter().any(|c| solved.stdout.contains(c)) {
            return Ok(problems);
        }
        return Err(format!("solve failed:\n{}", solved.describe()));
    }
    if expect.solve == "solves" {
        return Ok(problems);
    }
    let Some(oracle) = oracle else {
        return Err(
            "expectations.tsv wants a comparison, but oracle.tsv has no solved default row".into(),
        );
    };
    let s = json(&solved, "solve")?;
    let value = s["initial"]["value"].as_str().unwrap_or("?").to_string();
    let remoteness = s["initial"]["remoteness"].to_string();
    let same_remoteness = oracle.remoteness == "inf" || remoteness == oracle.remoteness;
    if value != oracle.value || !same_remoteness {
        problems.push(format!(
            "{module}: the start is {value} in {remoteness} here, {} in {} in Classic",
            oracle.value, oracle.remoteness
        ));
    }
    if matches!(expect.solve.as_str(), "equal" | "notiers") {
        let a = step(
            host(&["analyze", "--db", &db, "--json"]),
            bounds.solve,
            "analyze",
        )?;
        let a = json(&a, "analyze")?;
        let here = counts(&a, oracle.tier)?;
        let there = if oracle.tier {
            // Classic's bit-perfect databases count draws as ties.
            Counts {
                tie: oracle.counts.tie + oracle.counts.draw,
                draw: 0,
                ..oracle.counts
            }
        } else {
            oracle.counts
        };
        if here != there {
            problems.push(format!(
                "{module}: counts {here:?} here, {there:?} in Classic"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(dir.join("db"));
    Ok(problems)
}

/// The host's counts comparable with the oracle's: reachable positions of a regular
/// module; for a tier module its legal positions (indexed by Classic's TIERPOSITION
/// alone, as Classic's tier solver counts them), ties and draws together.
fn counts(analyze: &Json, tier: bool) -> Result<Counts, String> {
    let c = &analyze[if tier { "legal" } else { "reachable" }]["counts"];
    let get = |k: &Json| {
        k.as_u64()
            .ok_or_else(|| format!("analyze's counts lack a number: {c}"))
    };
    let v = &c["by_value"];
    let mut out = Counts {
        total: get(&c["total"])?,
        win: get(&v["win"])?,
        lose: get(&v["lose"])?,
        tie: get(&v["tie"])?,
        draw: get(&v["draw"])?,
    };
    if tier {
        out = Counts {
            tie: out.tie + out.draw,
            draw: 0,
            ..out
        };
    }
    Ok(out)
}
