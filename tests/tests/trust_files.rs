//! Trust, round 3 (issue 40): the publisher's key files and signing, end to end with
//! the real `host`. `db keygen` never replaces a file nor writes through a link;
//! `db sign` refuses a public key, a key others may read (as ssh does), a device or
//! FIFO as key (reading at most a few kilobytes, never blocking), and signs only a
//! finished solve (it waits for the writer's lock, or with `--no-wait` fails);
//! `db copy` and queries under `--trust` say when a signed manifest lists fewer tiers
//! than the variant has; a writable, empty or dangling trusted-keys file and `--trust`
//! with a local database are named in a warning, not passed over in silence.

use e2e_tests::hostile::Hostile;
use e2e_tests::run::{assert_no_panic_noise, host_command, run, run_host, RunOutput};
use e2e_tests::serve::solved;
use e2e_tests::workspace::host_binary;
use gamesman_host::engine::db::{file::FileDb, Database, GameKey, LockWait};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const DIR: &str = "mtttier_regular_tierdb";

fn host(args: &[&str]) -> RunOutput {
    run_host(&host_binary(), args)
}

/// `host db keygen` of `dir/name`: (secret file, public key).
fn keygen(dir: &Path, name: &str) -> (PathBuf, String) {
    let file = dir.join(name);
    host(&["db", "keygen", file.to_str().unwrap()]).assert_success();
    let public = std::fs::read_to_string(dir.join(format!("{name}.pub")))
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(public.len(), 64, "{public}");
    (file, public)
}

fn sign(key: &Path, db: &Path, extra: &[&str]) -> RunOutput {
    let res = format!("file:{}", db.display());
    let mut args = vec!["db", "sign", "--key", key.to_str().unwrap(), "--db", &res];
    args.extend_from_slice(extra);
    host(&args)
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn manifest_tiers(db: &Path) -> usize {
    std::fs::read_to_string(db.join(DIR).join("tiers.manifest"))
        .map(|m| m.lines().filter(|l| l.starts_with("tier_")).count())
        .unwrap_or(0)
}

#[test]
fn keygen_never_replaces_a_file_nor_writes_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An existing FILE.pub (someone's published key) is kept, and no secret is made.
    std::fs::write(d.join("k.pub"), "precious\n").unwrap();
    let e = host(&["db", "keygen", d.join("k").to_str().unwrap()]).assert_failure_code(2);
    assert!(e.contains("k.pub already exists"), "{e}");
    assert_eq!(
        std::fs::read_to_string(d.join("k.pub")).unwrap(),
        "precious\n"
    );
    assert!(!d.join("k").exists(), "no half pair is left");
    // FILE.pub a symbolic link to another file: not written through.
    let target = d.join("target");
    std::fs::write(&target, "untouched\n").unwrap();
    std::os::unix::fs::symlink(&target, d.join("l.pub")).unwrap();
    let e = host(&["db", "keygen", d.join("l").to_str().unwrap()]).assert_failure_code(2);
    assert!(e.contains("a symbolic link"), "{e}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "untouched\n");
    assert!(!d.join("l").exists());
    // FILE a dangling symbolic link: not created through it.
    std::os::unix::fs::symlink(d.join("elsewhere"), d.join("m")).unwrap();
    host(&["db", "keygen", d.join("m").to_str().unwrap()]).assert_failure_code(2);
    assert!(!d.join("elsewhere").exists() && !d.join("m.pub").exists());
    // A fresh name: secret 0600 with its header, public key beside it.
    let (secret, public) = keygen(d, "fresh");
    let mode = std::fs::metadata(&secret).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let text = std::fs::read_to_string(&secret).unwrap();
    assert!(
        text.starts_with("gamesman ed25519 secret key 1\n"),
        "{text}"
    );
    assert!(text.contains(&format!("public {public}")), "{text}");
}

#[test]
fn sign_refuses_public_open_and_endless_keys() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let keys = tempfile::tempdir().unwrap();
    let (secret, public) = keygen(keys.path(), "pub");
    let pub_file = keys.path().join("pub.pub");

    // The public key as --key: refused (its hex is not the secret seed), nothing signed.
    for mode in [0o644, 0o600] {
        set_mode(&pub_file, mode);
        let e = sign(&pub_file, db.path(), &[]).assert_failure_code(2);
        assert!(e.contains("it may be a public key"), "{e}");
    }
    assert!(!db.path().join(DIR).join("tiers.manifest").exists());

    // A secret key others may read, as ssh refuses it, naming chmod 600.
    for mode in [0o644, 0o666, 0o640] {
        set_mode(&secret, mode);
        let e = sign(&secret, db.path(), &[]).assert_failure_code(2);
        assert!(e.contains(&format!("mode {mode:04o}")), "{e}");
        assert!(e.contains("chmod 600"), "{e}");
    }
    assert!(!db.path().join(DIR).join("tiers.manifest").exists());

    // Endless or blocking files: refused at once, never read without bound.
    let fifo = keys.path().join("fifo");
    mkfifo(&fifo);
    for (path, kind) in [
        (PathBuf::from("/dev/zero"), "a character device"),
        (fifo, "a FIFO"),
        (keys.path().to_path_buf(), "a directory"),
    ] {
        let started = Instant::now();
        let e = sign(&path, db.path(), &[]).assert_failure_code(2);
        assert!(e.contains(kind), "{e}");
        assert!(started.elapsed() < Duration::from_secs(10), "{e}");
    }
    let big = keys.path().join("big");
    std::fs::write(&big, vec![b'#'; 1 << 20]).unwrap();
    set_mode(&big, 0o600);
    let e = sign(&big, db.path(), &[]).assert_failure_code(2);
    assert!(e.contains("larger than a key file"), "{e}");

    // A key of the first format (comment header naming its public key) still signs.
    let seed = [7u8; 32];
    let k = public_of(&seed);
    let old = keys.path().join("old");
    std::fs::write(
        &old,
        format!(
            "# gamesman ed25519 secret key: keep it private (public key {})\n{}\n",
            k,
            hex(&seed)
        ),
    )
    .unwrap();
    set_mode(&old, 0o600);
    let r = sign(&old, db.path(), &[]);
    r.assert_success();
    assert!(r.stdout.contains(&k), "{}", r.describe());

    // The genuine secret, private again: signs.
    set_mode(&secret, 0o600);
    let r = sign(&secret, db.path(), &[]);
    r.assert_success();
    assert!(r.stdout.contains("(10 tier files)"), "{}", r.describe());
    assert!(r.stdout.contains(&public), "{}", r.describe());
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The public key's hex of a seed, through the host's key-file code.
fn public_of(seed: &[u8; 32]) -> String {
    let text = format!("gamesman ed25519 secret key 1\nsecret {}\n", hex(seed));
    let key = gamesman_host::engine::db::keyfile::parse_secret(&text).unwrap();
    hex(key.verifying_key().as_bytes())
}

#[test]
fn sign_waits_for_the_solve_writing_the_database() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let tiers = db.path().join(DIR);
    let keys = tempfile::tempdir().unwrap();
    let (secret, _) = keygen(keys.path(), "k");
    // A solve under way: 3 of the 10 tiers written, the writer's lock held (the lock
    // `host solve` takes, through the same code).
    let held = tempfile::tempdir().unwrap();
    for t in 3..10 {
        let name = format!("tier_{t}.gz");
        std::fs::rename(tiers.join(&name), held.path().join(&name)).unwrap();
    }
    let m = gamesman_host::engine::load::loader::load(
        e2e_tests::workspace::plugin("mtttier").to_str().unwrap(),
    )
    .unwrap();
    let g = m.open(None).unwrap();
    let writer = FileDb::open(db.path().to_path_buf(), GameKey::of(&g)).unwrap();
    writer.begin_writing(LockWait::NoWait).unwrap();

    // --no-wait: refused at once, like `solve --no-wait`; nothing signed.
    let e = sign(&secret, db.path(), &["--no-wait"]).assert_failure_code(4);
    assert!(e.contains("another solve is writing"), "{e}");
    assert!(!tiers.join("tiers.manifest").exists());

    // Without it: waits (saying so) until the solve is over, then signs all 10 tiers.
    let res = format!("file:{}", db.path().display());
    let mut cmd = host_command(
        &host_binary(),
        &[
            "db",
            "sign",
            "--key",
            secret.to_str().unwrap(),
            "--db",
            &res,
        ],
    );
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !tiers.join("tiers.manifest").exists(),
        "signed while the solve was writing"
    );
    for t in 3..10 {
        let name = format!("tier_{t}.gz");
        std::fs::rename(held.path().join(&name), tiers.join(&name)).unwrap();
    }
    drop(writer);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("another solve is writing"), "{stderr}");
    assert_eq!(manifest_tiers(db.path()), 10);
}

#[test]
fn a_partial_signed_manifest_is_named_by_copy_and_queries() {
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let tiers = db.path().join(DIR);
    // Signed while only the tiers 0 to 2 were there (as a sign during a solve did).
    let aside = tempfile::tempdir().unwrap();
    for t in 3..10 {
        let name = format!("tier_{t}.gz");
        std::fs::rename(tiers.join(&name), aside.path().join(&name)).unwrap();
    }
    let keys = tempfile::tempdir().unwrap();
    let (secret, public) = keygen(keys.path(), "k");
    sign(&secret, db.path(), &[]).assert_success();
    for t in 3..10 {
        let name = format!("tier_{t}.gz");
        std::fs::rename(aside.path().join(&name), tiers.join(&name)).unwrap();
    }
    assert_eq!(manifest_tiers(db.path()), 3);
    let server = Hostile::start(db.path().to_path_buf());
    let url = server.url();

    let copy = tempfile::tempdir().unwrap();
    let dst = format!("file:{}", copy.path().display());
    let r = host(&[
        "--plugin", "mtttier", "--trust", &public, "db", "copy", &url, &dst,
    ]);
    r.assert_success();
    assert!(
        r.stderr.contains("holds 3 of the 10 tiers"),
        "{}",
        r.describe()
    );
    assert!(r.stderr.contains("signed manifest"), "{}", r.describe());

    // A position of a tier the manifest leaves out: said, not silently "unsolved".
    let r = host(&[
        "--plugin",
        "mtttier",
        "--trust",
        &public,
        "query",
        "--db",
        &url,
        "X--------",
    ]);
    assert_no_panic_noise(&r.stderr, &r.describe());
    assert!(
        r.stderr
            .contains("tier_8.gz is not listed in the signed manifest"),
        "{}",
        r.describe()
    );
}

/// `host list` with the data directory at `data` (the trusted-keys file's home).
fn with_data_home(data: &Path, args: &[&str]) -> RunOutput {
    let mut cmd = host_command(&host_binary(), args);
    cmd.env("XDG_DATA_HOME", data);
    run(cmd, Duration::from_secs(30))
}

#[test]
fn the_trusted_keys_file_and_local_trust_are_named() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("gamesman");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("trusted-keys");
    let keys = tempfile::tempdir().unwrap();
    let (_, public) = keygen(keys.path(), "k");

    // Writable by others: used, with a warning naming the fix.
    std::fs::write(&file, format!("{public}\n")).unwrap();
    set_mode(&file, 0o666);
    let r = with_data_home(data.path(), &["list"]);
    r.assert_success();
    assert!(
        r.stderr.contains("may be written by others (mode 0666)"),
        "{}",
        r.describe()
    );
    assert!(r.stderr.contains("chmod go-w"), "{}", r.describe());
    set_mode(&file, 0o644);
    let r = with_data_home(data.path(), &["list"]);
    assert!(!r.stderr.contains("trusted-keys"), "{}", r.describe());

    // Empty: says nothing is trusted from it.
    std::fs::write(&file, "# no keys yet\n").unwrap();
    let r = with_data_home(data.path(), &["list"]);
    r.assert_success();
    assert!(r.stderr.contains("lists no key"), "{}", r.describe());

    // A link to nothing: says so.
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(dir.join("gone"), &file).unwrap();
    let r = with_data_home(data.path(), &["list"]);
    r.assert_success();
    assert!(
        r.stderr.contains("which does not exist"),
        "{}",
        r.describe()
    );

    // A FIFO: refused at once, not waited on.
    std::fs::remove_file(&file).unwrap();
    mkfifo(&file);
    let started = Instant::now();
    let r = with_data_home(data.path(), &["list"]);
    let e = r.assert_failure_code(2);
    assert!(e.contains("a FIFO"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(10));
    std::fs::remove_file(&file).unwrap();

    // --trust with a database on this machine: said to do nothing there.
    let db = solved(&host_binary(), &[("mtttier", "regular")]);
    let res = format!("file:{}", db.path().display());
    let r = with_data_home(
        data.path(),
        &[
            "--plugin",
            "mtttier",
            "--trust",
            &public,
            "query",
            "--db",
            &res,
            "---------",
        ],
    );
    r.assert_success();
    assert!(
        r.stderr.contains("--trust does nothing for file:"),
        "{}",
        r.describe()
    );
}
