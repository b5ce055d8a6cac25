//! `host db copy SRC DST`: copies a variant's tiers from one database to another
//! (`file:` to `file:`, `http:` to `file:`, ...), the seed's transfer between database
//! classes. Every tier is read block by block (`db::transfer`: never whole, WinBy tiers
//! aside) and put in place, atomically, only after its checksum was verified; tiers
//! already valid at the destination are kept. From an `http:` source the whole copy
//! runs within `--fetch-deadline`, and with `--trust` every tier must match the
//! publisher's signed manifest.

use super::{game_key, CliError};
use crate::engine::db::{self, LockWait, TierStatus};
use crate::engine::game::GameHandle;
use crate::engine::numbers::{count, seconds};
use crate::engine::solver;
use crate::engine::tier::TierGraph;
use std::time::Instant;

/// Copies `game`'s variant from `src` to `dst`; `cache` applies to an `http:` source.
pub fn run(game: &GameHandle, src: &str, dst: &str, cache: Option<&str>) -> anyhow::Result<()> {
    crate::engine::db::net::within(crate::engine::db::trust::policy().deadline, || {
        copy(game, src, dst, cache)
    })
}

fn copy(game: &GameHandle, src: &str, dst: &str, cache: Option<&str>) -> anyhow::Result<()> {
    if matches!(db::parse_resource(dst)?, db::Resource::Http(_)) {
        return Err(CliError::Usage(format!(
            "{dst} is read-only: copy into a file:DIRECTORY database"
        ))
        .into());
    }
    let started = Instant::now();
    super::trust::note_local_trust(src);
    let key = game_key(game);
    super::verify_fetch::prepare(game, src, cache)?;
    let from = db::open_cached(src, cache, &key)?;
    let to = db::open_for_writing(dst, &key, LockWait::Wait)?;
    // Temporaries of copies and solves that were killed are reclaimed here too, as
    // `export` reclaims its own: only those whose process is gone.
    let reclaimed = to.remove_temporaries()?;
    if reclaimed > 0 {
        log::info!(
            "removed {} temporary files left in {} by stopped copies or solves",
            count(reclaimed as u64),
            to.describe()
        );
    }
    let graph = TierGraph::discover(game)?;
    let stored = from.stored_tiers()?;
    if stored.is_empty() {
        return Err(CliError::Empty(format!(
            "{} holds nothing of {} ({}): nothing to copy",
            from.describe(),
            game.module_name(),
            game.variant()
        ))
        .into());
    }
    let held = graph
        .order
        .iter()
        .filter(|n| stored.contains(&n.tier))
        .count();
    if held < graph.order.len() {
        let signed = if db::trust::policy().trusted.is_empty() {
            String::new()
        } else {
            " (under --trust or the trusted-keys file, the tiers its signed manifest lists: a manifest signed before the solve finished lists fewer; ask the publisher to sign again with `host db sign`)".to_string()
        };
        log::warn!(
            "{} holds {} of the {} tiers of {} ({}){signed}: the copy will be partial, and queries of positions in the missing tiers will find them unsolved",
            from.describe(),
            count(held as u64),
            count(graph.order.len() as u64),
            game.module_name(),
            game.variant()
        );
    }
    let mut copied = Vec::new();
    let mut kept = 0usize;
    // Full tier files hold the stored indices; reachable-only ones mark the whole hash.
    let reachable_only = db::coverage(from.as_ref())? == Some(db::Coverage::ReachableOnly);
    for node in graph.order.iter().filter(|n| stored.contains(&n.tier)) {
        let meta = if reachable_only {
            solver::full_meta_of(node)
        } else {
            solver::meta_of(node)
        };
        // A full tier already valid at the destination is not fetched again.
        if to.stored_tier(node.tier).ok().flatten().is_some()
            && matches!(to.verify_tier(&meta), Ok(TierStatus::Valid))
        {
            kept += 1;
            continue;
        }
        copied.push(meta);
    }
    let n = db::transfer(from.as_ref(), to.as_ref(), &copied, key.winby)?;
    let positions: u64 = copied.iter().map(|m| m.size).sum();
    outln!(
        "copied {} tiers ({} positions) of {} ({}) from {} to {} in {}; {} already there",
        count(n as u64),
        count(positions),
        game.module_name(),
        game.variant(),
        from.describe(),
        to.describe(),
        seconds(started.elapsed()),
        count(kept as u64)
    )?;
    Ok(())
}
