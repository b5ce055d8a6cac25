//! `host info`: a module's metadata and the opened variant's properties, as text or
//! JSON. Presentation only.

use crate::game::{GameHandle, ModuleResult};
use crate::loader::{host_api_version, Module};
use serde_json::json;

/// The metadata as a JSON value.
pub fn info_json(module: &Module, game: &GameHandle) -> ModuleResult<serde_json::Value> {
    let p = game.properties();
    let init = game.initial_position()?;
    let variants: Vec<_> = module
        .info
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| json!({"name": v.name.as_str(), "description": v.description.as_str(), "default": i == 0}))
        .collect();
    Ok(json!({
        "name": module.name(),
        "authors": module.info.authors.as_str(),
        "description": module.info.description.as_str(),
        "file": module.path.display().to_string(),
        "api_version": module.info.api_version.as_str(),
        "host_api_version": host_api_version(),
        "abi_version": gamesman_plugin_api::ffi::ABI_VERSION,
        "variants": variants,
        "variant": game.variant(),
        "properties": {
            "players": p.players,
            "tier_game": p.is_tier_game,
            "winby": p.supports_winby,
            "go_again": p.go_again,
            "symmetry": p.has_symmetry,
            "score": p.has_score,
            "max_moves": p.max_moves,
            "max_undo_moves": p.max_undo_moves,
            "max_tier_children": p.max_tier_children,
        },
        "initial_position": {
            "tier": init.tier.0,
            "tier_name": game.tier_name(init.tier)?,
            "index": init.position,
            "text": game.position_to_text(init)?,
        },
    }))
}

/// The metadata as text for people.
pub fn info_text(module: &Module, game: &GameHandle) -> ModuleResult<String> {
    let p = game.properties();
    let init = game.initial_position()?;
    let yes = |b: bool| if b { "yes" } else { "no" };
    let mut s = String::new();
    s.push_str(&format!("{}: {}\n", module.name(), module.info.description));
    s.push_str(&format!("authors:    {}\n", module.info.authors));
    s.push_str(&format!("file:       {}\n", module.path.display()));
    s.push_str(&format!(
        "plugin-api: {} (host {}, ABI generation {})\n",
        module.info.api_version,
        host_api_version(),
        gamesman_plugin_api::ffi::ABI_VERSION
    ));
    s.push_str("variants:\n");
    let width = module
        .info
        .variants
        .iter()
        .map(|v| v.name.len())
        .max()
        .unwrap_or(0);
    for (i, v) in module.info.variants.iter().enumerate() {
        let mark = if v.name.as_str() == game.variant() {
            "*"
        } else {
            " "
        };
        let default = if i == 0 { " (default)" } else { "" };
        s.push_str(&format!(
            "  {mark} {:width$}  {}{default}\n",
            v.name, v.description
        ));
    }
    s.push_str(&format!("variant {}:\n", game.variant()));
    s.push_str(&format!(
        "  players: {}, tier game: {}, WinBy: {}, symmetry: {}, go-again: {}, search score: {}\n",
        p.players,
        yes(p.is_tier_game),
        yes(p.supports_winby),
        yes(p.has_symmetry),
        yes(p.go_again),
        yes(p.has_score)
    ));
    s.push_str(&format!(
        "  initial position: {} (tier {} \"{}\", index {})\n",
        game.position_to_text(init)?,
        init.tier,
        game.tier_name(init.tier)?,
        init.position
    ));
    Ok(s)
}
