//! The AutoGUI sidecar of a C module: `libgame.so.autogui.json` beside the library,
//! holding GamesmanUni's `imageAutoGUIData` (the same JSON a Rust module's
//! `Game::image_autogui_data` gives) for each variant by name, because a C module
//! (GamesmanOne's, Classic's) carries no board geometry in its code:
//!
//! ```json
//! {"format": 1, "module": "mtttier",
//!  "variants": {"regular": {"defaultTheme": "basic", "themes": {"basic": {
//!      "space": [3, 3], "centers": [[0.5, 0.5], ...],
//!      "background": "ttt/3x3grid.svg",
//!      "charImages": {"x": {"image": "ttt/x.svg", "scale": 1}, ...}}}}}}
//! ```
//!
//! It is read once when the module loads: a regular file only (a FIFO is refused, not
//! waited on: it is opened non-blocking), a symbolic link only to a file in the same
//! folder, at most `MAX_BYTES`. Every variant named must be one of the module's; every
//! theme has a positive space, the same number of centers (at most `MAX_CENTERS`),
//! each inside its space, images named by plain relative paths, and an image for
//! every character any theme gives one for. The AutoGUI board the host checks the
//! module's strings against is made from it (`Board`: the default theme's space and
//! centers, a token per character). A bad file is one `SidecarError` naming the file
//! and the entry; the loader then serves the module without boards. This file reads
//! and checks; it must not call the game nor know HTTP.
//!
//! An optional top-level `"moveTokens": {"x": "-", "o": "-"}` renames the token of the
//! module's `A_` move strings (`A_x_4` is served as `A_-_4`), for a game whose move
//! token is also a piece drawn in its positions (GamesmanOne's tic-tac-toe): GamesmanUni
//! draws a move whose token has an image as that image's `#MoveButtonSVG` button, which
//! a piece's image lacks, so the move would be invisible and could not be clicked. A
//! renamed token must have no image.

use gamesman_plugin_api::autogui::{Board, Shape, Token};
use serde_json::{Map, Value as Json};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The largest sidecar read, in bytes.
pub const MAX_BYTES: u64 = 4 << 20;

/// The most centers a theme may have.
pub const MAX_CENTERS: usize = 4096;

/// The most tokens `moveTokens` may rename.
pub const MAX_MOVE_TOKENS: usize = 64;

/// The most themes a variant may have.
pub const MAX_THEMES: usize = 16;

/// The largest `imageAutoGUIData` of one variant, in bytes (as for a Rust module's).
pub const MAX_VARIANT_BYTES: usize = 1 << 20;

/// The suffix added to the library's file name.
pub const SUFFIX: &str = ".autogui.json";

/// The theme options GamesmanUni reads besides space, centers and images.
const OPTIONS: [&str; 7] = [
    "arrowWidth",
    "circleButtonRadius",
    "lineWidth",
    "textEntityFontSize",
    "textButtonFontSize",
    "entitiesOverArrows",
    "animationType",
];

/// A sidecar that is refused: which file, where in it, and why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("AutoGUI sidecar {}: {}{why}; the module is served without boards (as text)", path.display(), if entry.is_empty() { String::new() } else { format!("at {entry}: ") })]
pub struct SidecarError {
    /// The file.
    pub path: PathBuf,
    /// The entry (`variants.regular.themes.basic.centers[3]`), empty for the file.
    pub entry: String,
    /// What is wrong.
    pub why: String,
}

/// The images of one variant: GamesmanUni's JSON and the board made from it.
#[derive(Debug, Clone)]
pub struct VariantImages {
    /// The file it came from.
    pub path: PathBuf,
    /// The variant's name.
    pub variant: String,
    /// `imageAutoGUIData` as JSON text.
    pub json: String,
    /// The board made from its default theme.
    pub board: Board,
    /// The sidecar's `moveTokens`: (the module's token, the one served).
    pub move_tokens: Vec<(char, char)>,
}

impl VariantImages {
    /// The module's AutoGUI move string `s` as served: an `A_` move's token renamed by
    /// `moveTokens`, every other string unchanged.
    pub fn serve_move(&self, s: String) -> String {
        let mut chars = s.chars();
        if let (Some('A'), Some('_'), Some(t), Some('_')) =
            (chars.next(), chars.next(), chars.next(), chars.next())
        {
            if let Some(&(_, to)) = self.move_tokens.iter().find(|(from, _)| *from == t) {
                return format!("A_{to}_{}", chars.as_str());
            }
        }
        s
    }
}

/// A checked sidecar: the images of each variant it names.
#[derive(Debug, Clone, Default)]
pub struct Sidecar {
    /// By variant name.
    pub variants: Vec<VariantImages>,
}

impl Sidecar {
    /// The images of `variant`, if the sidecar has them.
    pub fn variant(&self, variant: &str) -> Option<&VariantImages> {
        self.variants.iter().find(|v| v.variant == variant)
    }
}

/// The sidecar's path for the library at `library`.
pub fn path_for(library: &Path) -> PathBuf {
    let mut name = library.as_os_str().to_os_string();
    name.push(SUFFIX);
    PathBuf::from(name)
}

/// Reads and checks the sidecar of the library at `library` (module `module` with
/// `variants`); `Ok(None)` when there is none.
pub fn load(
    library: &Path,
    module: &str,
    variants: &[String],
) -> Result<Option<Sidecar>, SidecarError> {
    let path = path_for(library);
    let Some(bytes) = read(&path)? else {
        return Ok(None);
    };
    parse(&path, &bytes, module, variants).map(Some)
}

fn fail(path: &Path, entry: &str, why: impl Into<String>) -> SidecarError {
    SidecarError {
        path: path.to_path_buf(),
        entry: entry.to_string(),
        why: why.into(),
    }
}

/// The file's bytes, by the rules of the file comment; `None` when it does not exist.
fn read(path: &Path) -> Result<Option<Vec<u8>>, SidecarError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(fail(path, "", format!("cannot be read ({e})"))),
    };
    let mut target = path.to_path_buf();
    if meta.file_type().is_symlink() {
        let resolved = std::fs::canonicalize(path)
            .map_err(|e| fail(path, "", format!("is a symbolic link to nothing ({e})")))?;
        let folder = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .and_then(|p| std::fs::canonicalize(p).ok());
        if resolved.parent() != folder.as_deref() {
            return Err(fail(
                path,
                "",
                format!(
                    "is a symbolic link out of the library's folder (to {}); copy the file in",
                    resolved.display()
                ),
            ));
        }
        target = resolved;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(&target)
        .map_err(|e| fail(path, "", format!("cannot be opened ({e})")))?;
    let meta = file
        .metadata()
        .map_err(|e| fail(path, "", format!("cannot be read ({e})")))?;
    if let Some(kind) = crate::engine::db::keyfile::kind_of(meta.file_type()) {
        return Err(fail(path, "", format!("is {kind}, not a regular file")));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(path, "", format!("cannot be read ({e})")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(fail(
            path,
            "",
            format!("is larger than {MAX_BYTES} bytes, the most a sidecar may hold"),
        ));
    }
    Ok(Some(bytes))
}

/// Checks a sidecar's bytes (see the file comment).
pub fn parse(
    path: &Path,
    bytes: &[u8],
    module: &str,
    variants: &[String],
) -> Result<Sidecar, SidecarError> {
    let data: Json =
        serde_json::from_slice(bytes).map_err(|e| fail(path, "", format!("is not JSON ({e})")))?;
    let top = data
        .as_object()
        .ok_or_else(|| fail(path, "", "is not a JSON object"))?;
    if top.get("format") != Some(&Json::from(1)) {
        return Err(fail(path, "format", "must be 1"));
    }
    if top.get("module").and_then(Json::as_str) != Some(module) {
        return Err(fail(
            path,
            "module",
            format!(
                "{} is not the library's module '{module}'",
                top.get("module").unwrap_or(&Json::Null)
            ),
        ));
    }
    if let Some(k) = top
        .keys()
        .find(|k| !["format", "module", "variants", "moveTokens"].contains(&k.as_str()))
    {
        return Err(fail(
            path,
            k,
            "is not a sidecar key (format, module, variants, moveTokens)",
        ));
    }
    let move_tokens = move_tokens(path, top.get("moveTokens"))?;
    let listed = top
        .get("variants")
        .and_then(Json::as_object)
        .ok_or_else(|| fail(path, "variants", "is not an object of variant names"))?;
    let mut out = Sidecar::default();
    for (name, data) in listed {
        let entry = format!("variants.{name}");
        if !variants.contains(name) {
            return Err(fail(
                path,
                &entry,
                format!(
                    "'{name}' is not a variant of {module} ({})",
                    variants.join(", ")
                ),
            ));
        }
        let board = check_variant(path, &entry, data)?;
        if let Some((_, to)) = move_tokens
            .iter()
            .find(|(_, to)| board.tokens.iter().any(|t| t.ch == *to))
        {
            return Err(fail(
                path,
                &format!("moveTokens.{to}"),
                format!("'{to}' has an image in {entry}, so its moves would still not be buttons"),
            ));
        }
        let json = data.to_string();
        if json.len() > MAX_VARIANT_BYTES {
            return Err(fail(
                path,
                &entry,
                format!(
                    "{} bytes of image data, more than {MAX_VARIANT_BYTES}",
                    json.len()
                ),
            ));
        }
        out.variants.push(VariantImages {
            path: path.to_path_buf(),
            variant: name.clone(),
            json,
            board,
            move_tokens: move_tokens.clone(),
        });
    }
    Ok(out)
}

/// One character of [a-zA-Z0-9-], as a token or a `charImages` key.
fn one_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) if c.is_ascii_alphanumeric() || c == '-' => Some(c),
        _ => None,
    }
}

/// Checks `moveTokens` (see the file comment): pairs of one character each.
fn move_tokens(path: &Path, v: Option<&Json>) -> Result<Vec<(char, char)>, SidecarError> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let map = v
        .as_object()
        .filter(|m| m.len() <= MAX_MOVE_TOKENS)
        .ok_or_else(|| {
            fail(
                path,
                "moveTokens",
                format!("is not an object of at most {MAX_MOVE_TOKENS} tokens"),
            )
        })?;
    let mut out = Vec::new();
    for (k, to) in map {
        let at = format!("moveTokens.{k}");
        let from =
            one_char(k).ok_or_else(|| fail(path, &at, "is not one character of [a-zA-Z0-9-]"))?;
        let to = to
            .as_str()
            .and_then(one_char)
            .ok_or_else(|| fail(path, &at, "is not renamed to one character of [a-zA-Z0-9-]"))?;
        out.push((from, to));
    }
    Ok(out)
}

/// Checks one variant's `imageAutoGUIData` and makes its board.
fn check_variant(path: &Path, entry: &str, data: &Json) -> Result<Board, SidecarError> {
    let bad = |at: &str, why: String| fail(path, &format!("{entry}{at}"), why);
    let data = data
        .as_object()
        .ok_or_else(|| bad("", "is not an object".into()))?;
    if let Some(k) = data
        .keys()
        .find(|k| !["defaultTheme", "themes"].contains(&k.as_str()))
    {
        return Err(bad(
            &format!(".{k}"),
            "is not served (only defaultTheme and themes)".into(),
        ));
    }
    let default = data
        .get("defaultTheme")
        .and_then(Json::as_str)
        .ok_or_else(|| bad(".defaultTheme", "is not a string".into()))?;
    let themes = data
        .get("themes")
        .and_then(Json::as_object)
        .filter(|t| !t.is_empty() && t.len() <= MAX_THEMES)
        .ok_or_else(|| {
            bad(
                ".themes",
                format!("is not an object of 1 to {MAX_THEMES} themes"),
            )
        })?;
    let Some(first) = themes.get(default) else {
        return Err(bad(
            ".defaultTheme",
            format!("'{default}' is not among the themes"),
        ));
    };
    let mut chars: Vec<char> = Vec::new();
    for t in themes.values() {
        if let Some(images) = t.get("charImages").and_then(Json::as_object) {
            for k in images.keys() {
                let mut it = k.chars();
                if let (Some(c), None) = (it.next(), it.next()) {
                    if !chars.contains(&c) {
                        chars.push(c);
                    }
                }
            }
        }
    }
    chars.sort_unstable();
    let mut count = None;
    for (name, t) in themes {
        let at = format!(".themes.{name}");
        let n = check_theme(t, &chars).map_err(|(sub, why)| bad(&format!("{at}{sub}"), why))?;
        match count {
            None => count = Some(n),
            Some(c) if c != n => {
                return Err(bad(
                    &format!("{at}.centers"),
                    format!("{n} centers, another theme has {c}"),
                ))
            }
            _ => {}
        }
    }
    let space = pair(&first["space"]).expect("checked");
    let centers = first["centers"]
        .as_array()
        .expect("checked")
        .iter()
        .map(|c| pair(c).expect("checked"))
        .collect();
    let size = 0.6 * space.0.min(space.1) / (count.unwrap_or(1) as f64).sqrt();
    let tokens = chars
        .iter()
        .map(|&c| {
            Token::shape(c, Shape::CIRCLE, size.max(0.01), "#ddd", "#333")
                .with_glyph(&c.to_string(), "#111")
        })
        .collect();
    Ok(Board {
        width: space.0,
        height: space.1,
        background: String::new(),
        centers,
        fixed: Vec::new(),
        tokens,
    })
}

fn pair(v: &Json) -> Option<(f64, f64)> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y]) => {
            let (x, y) = (x.as_f64()?, y.as_f64()?);
            (x.is_finite() && y.is_finite()).then_some((x, y))
        }
        _ => None,
    }
}

type ThemeError = (String, String);

fn positive(v: Option<&Json>, at: &str) -> Result<f64, ThemeError> {
    match v.and_then(Json::as_f64) {
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err((at.into(), "is not a positive number".into())),
    }
}

/// An image path GamesmanUni can look up: relative, plain characters, no `..`.
fn image(v: Option<&Json>, at: &str) -> Result<(), ThemeError> {
    let s = v.and_then(Json::as_str).unwrap_or("");
    let plain = !s.is_empty()
        && !s.starts_with('/')
        && !s.split('/').any(|p| p == ".." || p == "." || p.is_empty())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
        && (s.ends_with(".svg") || s.ends_with(".png"));
    if plain {
        Ok(())
    } else {
        Err((
            at.into(),
            format!("'{s}' is not a relative path of an image under GamesmanUni's svg folder"),
        ))
    }
}

/// Checks one theme; gives its number of centers.
fn check_theme(t: &Json, chars: &[char]) -> Result<usize, ThemeError> {
    let t: &Map<String, Json> = t
        .as_object()
        .ok_or(("".into(), "is not an object".into()))?;
    for k in t.keys() {
        let known = ["space", "centers", "background", "foreground", "charImages"]
            .contains(&k.as_str())
            || OPTIONS.contains(&k.as_str());
        if !known {
            return Err((
                format!(".{k}"),
                "is not an option GamesmanUni's image board reads".into(),
            ));
        }
    }
    let (w, h) = match t.get("space").and_then(Json::as_array).map(Vec::as_slice) {
        Some([w, h]) => (
            positive(Some(w), ".space[0]")?,
            positive(Some(h), ".space[1]")?,
        ),
        _ => return Err((".space".into(), "is not [width, height]".into())),
    };
    let centers = t
        .get("centers")
        .and_then(Json::as_array)
        .filter(|c| !c.is_empty() && c.len() <= MAX_CENTERS)
        .ok_or((
            ".centers".into(),
            format!("is not a list of 1 to {MAX_CENTERS} centers"),
        ))?;
    for (i, c) in centers.iter().enumerate() {
        let at = format!(".centers[{i}]");
        let (x, y) = pair(c).ok_or((at.clone(), "is not a pair of numbers".into()))?;
        if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) {
            return Err((
                at,
                format!("({x}, {y}) is outside the board's space {w} x {h}"),
            ));
        }
    }
    for key in ["background", "foreground"] {
        if t.contains_key(key) {
            image(t.get(key), &format!(".{key}"))?;
        }
    }
    let images = t
        .get("charImages")
        .and_then(Json::as_object)
        .ok_or((".charImages".into(), "is not an object".into()))?;
    for (k, v) in images {
        let at = format!(".charImages.{k}");
        if one_char(k).is_none() {
            return Err((at, "is not one character of [a-zA-Z0-9-]".into()));
        }
        image(v.get("image"), &format!("{at}.image"))?;
        positive(v.get("scale"), &format!("{at}.scale"))?;
    }
    if let Some(c) = chars.iter().find(|c| !images.contains_key(&c.to_string())) {
        return Err((
            ".charImages".into(),
            format!("has no image for '{c}', which another theme draws"),
        ));
    }
    for key in &OPTIONS[..5] {
        if t.contains_key(*key) {
            positive(t.get(*key), &format!(".{key}"))?;
        }
    }
    if t.get("entitiesOverArrows").is_some_and(|v| !v.is_boolean()) {
        return Err((".entitiesOverArrows".into(), "is not true or false".into()));
    }
    if let Some(a) = t.get("animationType") {
        if !["", "entityFade", "simpleSlides"].contains(&a.as_str().unwrap_or("?")) {
            return Err((
                ".animationType".into(),
                "is not entityFade or simpleSlides".into(),
            ));
        }
    }
    Ok(centers.len())
}

/// Checks an AutoGUI position string against the images: `1_` or `2_`, one character
/// per center (or fewer), each `-` or a character with an image. `Err` says what is wrong.
pub fn check_position(images: &VariantImages, s: &str) -> Result<(), String> {
    let cells = s
        .strip_prefix("1_")
        .or_else(|| s.strip_prefix("2_"))
        .ok_or_else(|| format!("the AutoGUI position '{s}' does not start with 1_ or 2_"))?;
    let n = cells.chars().count();
    if n == 0 || n > images.board.centers.len() {
        return Err(format!(
            "the AutoGUI position '{s}' has {n} cells for the {} centers",
            images.board.centers.len()
        ));
    }
    if let Some(c) = cells
        .chars()
        .find(|&c| c != '-' && !images.board.tokens.iter().any(|t| t.ch == c))
    {
        return Err(format!(
            "the AutoGUI position '{s}' has '{c}', which has no image"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
