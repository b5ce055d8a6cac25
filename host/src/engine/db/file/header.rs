//! The header text shared by full tier files (`format`) and reachable-only ones
//! (`db::sparse`): the first line, `key: value` lines, the tier's identity (game,
//! variant, numbering, tier, tier name) and the record layout, written and read in one
//! place so the two formats cannot drift. Each format keeps its own `Header` struct and
//! the order of its own lines; this file must not know either format's other fields.

use std::collections::HashMap;
use std::fmt::Display;

/// The first line of every tier file's header, full or reachable-only.
pub(crate) const FIRST_LINE: &str = "gamesman tier database";

/// The record layout line's value: a `u16` of value and remoteness, then WinBy.
pub(crate) fn record_layout(winby: bool) -> &'static str {
    if winby {
        "value:3 remoteness:13 as u16 le; winby as i32 le"
    } else {
        "value:3 remoteness:13 as u16 le"
    }
}

/// The header line of a numbering other than 0 (none for 0, so files of modules that
/// never changed their numbering stay as they were).
pub(crate) fn numbering_line(numbering: u32) -> String {
    if numbering == 0 {
        String::new()
    } else {
        format!("numbering: {numbering}\n")
    }
}

/// A header's text being written, line by line in the caller's order.
pub(crate) struct HeaderText(String);

impl HeaderText {
    /// Starts a header: the first line and the format version.
    pub(crate) fn new(format: u32) -> HeaderText {
        HeaderText(format!("{FIRST_LINE}\nformat: {format}\n"))
    }

    /// A line as it stands (a marker such as `coverage: reachable-only`).
    pub(crate) fn line(mut self, line: &str) -> HeaderText {
        self.0.push_str(line);
        self.0.push('\n');
        self
    }

    /// One `key: value` line.
    pub(crate) fn field(mut self, key: &str, value: impl Display) -> HeaderText {
        self.0.push_str(&format!("{key}: {value}\n"));
        self
    }

    /// A CRC-32 as eight hex digits.
    pub(crate) fn crc(self, key: &str, crc: u32) -> HeaderText {
        self.field(key, format_args!("{crc:08x}"))
    }

    /// The tier's identity: game, variant, numbering (when not 0), tier and its name
    /// (a newline in the name becomes a space: the header is line-based).
    pub(crate) fn identity(
        mut self,
        game: &str,
        variant: &str,
        numbering: u32,
        tier: u64,
        tier_name: &str,
    ) -> HeaderText {
        self = self.field("game", game).field("variant", variant);
        self.0.push_str(&numbering_line(numbering));
        self.field("tier", tier)
            .field("tier_name", tier_name.replace('\n', " "))
    }

    /// The record layout line.
    pub(crate) fn record(self, winby: bool) -> HeaderText {
        self.field("record", record_layout(winby))
    }

    /// The finished text.
    pub(crate) fn finish(self) -> String {
        self.0
    }
}

/// A header's text being read: its `key: value` lines by key.
pub(crate) struct HeaderFields<'a>(HashMap<&'a str, &'a str>);

impl<'a> HeaderFields<'a> {
    /// Reads the lines after checking the first one.
    pub(crate) fn parse(text: &'a str) -> Result<HeaderFields<'a>, String> {
        let mut lines = text.lines();
        if lines.next() != Some(FIRST_LINE) {
            return Err("not a gamesman tier database (first line)".into());
        }
        Ok(HeaderFields(
            lines.filter_map(|l| l.split_once(": ")).collect(),
        ))
    }

    /// A field's text.
    pub(crate) fn get(&self, key: &str) -> Result<&'a str, String> {
        self.0
            .get(key)
            .copied()
            .ok_or_else(|| format!("header lacks '{key}'"))
    }

    /// A field's number.
    pub(crate) fn num(&self, key: &str) -> Result<u64, String> {
        self.get(key)?
            .parse()
            .map_err(|_| format!("header field '{key}' is not a number"))
    }

    /// A CRC-32 field (hex).
    pub(crate) fn crc(&self, key: &str) -> Result<u32, String> {
        u32::from_str_radix(self.get(key)?, 16).map_err(|_| format!("bad {key}"))
    }

    /// The numbering (0 when the line is absent, as in files written before it).
    pub(crate) fn numbering(&self) -> Result<u32, String> {
        match self.0.get("numbering") {
            Some(v) => v
                .parse()
                .map_err(|_| "header field 'numbering' is not a number".to_string()),
            None => Ok(0),
        }
    }

    /// Whether the record layout carries WinBy; an unknown layout is an error.
    pub(crate) fn winby(&self) -> Result<bool, String> {
        let record = self.get("record")?;
        if record == record_layout(true) {
            Ok(true)
        } else if record == record_layout(false) {
            Ok(false)
        } else {
            Err(format!("unknown record layout '{record}'"))
        }
    }
}
