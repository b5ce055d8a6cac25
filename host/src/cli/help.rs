//! The examples and notes shown after each command's `--help` (and in the man page).
//! Texts only: every example here is a complete command that works as written once
//! the workspace is built (`mtttier` is the bundled tic-tac-toe module).

/// After the top-level help: examples, environment, exit codes.
pub const MAIN: &str = concat!(
    "\
Examples:
  host list                                    the modules found and their variants
  host --plugin mtttier solve                  solve tic-tac-toe into the default database
  host --plugin mtttier query X-O------        a position's value and every move, best first
  host --plugin mtttier play                   play against the perfect computer
  host --plugin whirly --variant two-colours solve --json
  host completions bash > ~/.local/share/bash-completion/completions/host

Environment:
  GAMESMAN_DB           the database when --db is not given (file:DIRECTORY, a directory,
                        or memory:); default: the per-user data directory,
                        $XDG_DATA_HOME/gamesman (~/.local/share/gamesman)
  GAMESMAN_PLUGIN_PATH  directories searched first for a bare --plugin name, separated by
                        ':'; then $XDG_DATA_HOME/gamesman/plugins, then the host's own
                        directory
  RUST_LOG              log detail on stderr (warn, info, debug); default info

",
    "Exit codes:\n  0  success\n  1  failure: anything not below (writing output, a failed search)\n  2  usage: bad command line, a position or move the module rejects, a bad plot path\n  3  module: not found or not loadable, unknown variant, or the module failed in a call\n  4  database: nothing solved at --db, or the database is unreadable, damaged or unwritable\n  5  solve: the solve could not finish (record limits, memory, verification)"
);

/// After `info --help`.
pub const INFO: &str = "\
Examples:
  host --plugin mtttier info
  host --plugin chess --variant KRK info --json
  host --plugin ./target/release/libmygame.so info";

/// After `solve --help`.
pub const SOLVE: &str = "\
Examples:
  host --plugin mtttier solve                      into the default database
  host --plugin quixo --variant 3x3 solve --threads 2 --db file:/srv/gamesman
  host --plugin mtttier solve --json               one summary object on stdout
  host --plugin mtttier solve --force              solve every tier again
  host --plugin mothello --variant 4x4 solve --reachable   only positions that can occur
  host --plugin quixo --variant 3x3 solve --verify full    check every record before storing
  host --plugin quixo --variant 5x5 solve --endgame 1      the tiers with at most 1 blank
  host --plugin quixo --variant 4x4 solve --tier 2Blank_7X_7O   one tier and all below it

An interrupted solve resumes where it stopped: run the same command again.";

/// After `verify --help`.
pub const VERIFY: &str = "\
Examples:
  host --plugin mtttier verify                     the default database
  host --plugin quixo --variant 3x3 verify --db file:/srv/gamesman

Every record of every tier is checked against its children's records; a database
copied from another machine or an older build is then known to be right.";

/// After `bench --help`.
pub const BENCH: &str = "\
Examples:
  host --plugin quixo --variant 4x4 bench floor --solve      the solve against its floor";

/// After `bench floor --help`.
pub const BENCH_FLOOR: &str = "\
The floor of a tier is the cheapest complete way to make its calls: the scan plus the
children of every undecided position, the module's fused scan with children, or the
scan plus the parents of every canonical position (modules with undo moves). It is what
the module costs any solver; a solve's CPU over it is what the solver adds.
CPU is user + system time of every thread; the solve runs as a child process.

Examples:
  host --plugin mtttier bench floor
  host --plugin quixo --variant 5x5 bench floor --endgame 2 --solve --threads 1 --json";

/// After `db --help`.
pub const DB: &str = "\
Examples:
  host --plugin mtttier db copy file:/srv/gamesman file:./backup
  host --plugin quixo --variant 4x4 db copy http://solver.example:8080/db file:./data
  host db keygen ~/.config/gamesman-publisher.key
  host db sign --key ~/.config/gamesman-publisher.key --db file:/srv/gamesman
  host --plugin quixo --trust KEY db copy http://solver.example:8080/db file:./data

A database served by `host serve` is under http://HOST:PORT/db; any static HTTP server
with Range support over a file: directory (with directory listings) works too. With
--trust KEY (or keys in the data directory's trusted-keys file) only tiers matching a
manifest signed by a trusted key are used; `db sign` writes that manifest.";

/// After `serve --help`.
pub const SERVE: &str = "\
Examples:
  host serve                                       every module found, on 127.0.0.1:8080
  host --plugin mtttier --plugin quixo serve --addr 127.0.0.1:9000
  host serve --db file:/srv/gamesman --addr 0.0.0.0:8080 --cache-mb 4096
  host serve --gamesmanuni GamesmanUni/dist        GamesmanUni at http://127.0.0.1:8080/uni/

Open http://127.0.0.1:8080/ in a browser; the JSON API is under /api/.";

/// After `play --help`.
pub const PLAY: &str = "\
Examples:
  host --plugin mtttier play                       you first, the computer second
  host --plugin mtttier play --first computer --second human
  host --plugin mothello play --first computer --second computer --seed 1
  host --plugin mtttier play --json < moves.txt    a JSON line per move and a final object

At the prompt: a move, ps (or values), hint, undo, w, help, quit.";

/// After `query --help`.
pub const QUERY: &str = "\
Examples:
  host --plugin mtttier query                      the initial position
  host --plugin mtttier query X-O------            any position, in the module's text form
  host --plugin whirly --variant two-colours query --json
  host --plugin chess --variant KRRK query --depth 3 '7k/8/8/8/8/8/R7/1R4K1 w - - 0 1'";

/// After `analyze --help`.
pub const ANALYZE: &str = "\
Examples:
  host --plugin mtttier analyze
  host --plugin mothello analyze --plot mothello.svg       with a chart of WinBy margins
  host --plugin quixo --variant 3x3 analyze --plot quixo.png --log-scale
  host --plugin mtttier analyze --json";

/// After `export --help`.
pub const EXPORT: &str = "\
Examples:
  host --plugin mtttier export --out mtttier.parquet
  host --plugin mtttier export --format sqlite --out mtttier.db --moves
  host --plugin quixo --variant 3x3 export --out quixo.csv --reachable
  host --plugin quixo --variant 3x3 export --out quixo-all.parquet --all-positions --tiers 0,1";

/// After `list --help`.
pub const LIST: &str = "\
Examples:
  host list
  GAMESMAN_PLUGIN_PATH=$HOME/my-modules host list --json";

/// After `install-plugin --help`.
pub const INSTALL_PLUGIN: &str = "\
Examples:
  host install-plugin target/release/libmygame.so
  host install-plugin --force target/release/libmtttier.so
  host --plugin mygame solve                        found by name afterwards";

/// After `completions --help`.
pub const COMPLETIONS: &str = "\
Examples:
  host completions bash > ~/.local/share/bash-completion/completions/host
  host completions zsh > ~/.zfunc/_host
  host completions fish > ~/.config/fish/completions/host.fish";

/// After `man --help`.
pub const MAN: &str = "\
Examples:
  host man > host.1 && man ./host.1
  host man > ~/.local/share/man/man1/host.1
  host man --markdown > docs/book/src/reference/cli.md";

/// After `new --help`.
pub const NEW: &str = "\
Examples:
  host new mygame                         a Rust crate in ./mygame: cargo build --release
  host new mygame --tiers                 the tiered template (undo moves, symmetry)
  host new mygame --lang c --dir ~/src/mygame   a C module with a Makefile: make

The directory must not exist: host new never writes into an existing one.";

#[cfg(test)]
mod tests {
    #[test]
    fn the_main_help_lists_the_exit_codes_defined_in_exit() {
        assert!(super::MAIN.ends_with(crate::cli::exit::EXIT_CODES));
    }
}
