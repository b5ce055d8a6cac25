//! Whirly levels: the text format, and what a level fixes for the whole solve (walls,
//! targets, the numbered cells units can stand on, dead cells, the colonies).
//!
//! Format, one character per cell, rows top to bottom; lines starting with `;` are
//! comments:
//! - `#` wall; `-`, `.` or space: empty floor;
//! - `@` a pusher; `A`..`Z` a box of that colour; `a`..`z` a target of that colour;
//! - `*` a box on a target of the same colour and `+` a pusher on a target, both of
//!   colour `a` (Sokoban's symbols);
//! - a legend line `X = Uu` after the map defines symbol `X` as unit `U` (a box letter
//!   or `@`) standing on target `u`, e.g. `1 = Bb` or `2 = @c`.
//!
//! Cells a unit can stand on are numbered in reading order ("hids" in the seed);
//! walls are not numbered. A cell is dead for boxes of a colour when it is a corner
//! (walls on two orthogonal sides) that is not a target of that colour: a box there can
//! never move again. This file must not know about moves or ranking.

use std::collections::HashMap;

/// Directions: up, down, left, right.
pub const DIRS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
/// Direction letters, in the order of `DIRS`.
pub const DIR_NAMES: [char; 4] = ['u', 'd', 'l', 'r'];

/// The opposite direction.
pub fn opposite(d: usize) -> usize {
    d ^ 1
}

/// A parsed level.
#[derive(Clone, Debug)]
pub struct Level {
    /// Grid width and height.
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// Grid cell of each numbered cell (hid).
    pub cells: Vec<(usize, usize)>,
    /// Hid of each grid cell, if not a wall.
    pub hid: Vec<Option<usize>>,
    /// Neighbour hid of each hid in each direction.
    pub next: Vec<[Option<usize>; 4]>,
    /// Target colour per hid (0: none; 1..=colours).
    pub target: Vec<u8>,
    /// `dead[h][c - 1]`: a box of colour `c` at `h` can never move and is not home.
    pub dead: Vec<Vec<bool>>,
    /// Colour letters in use (index 0 is colour 1).
    pub colours: Vec<char>,
    /// Boxes per colour.
    pub boxes: Vec<usize>,
    /// Number of pushers.
    pub pushers: usize,
    /// The starting units per hid: 0 empty, 1..=colours a box, colours + 1 a pusher.
    pub start: Vec<u8>,
}

fn unit_code(ch: char, colour_of: &mut HashMap<char, u8>, order: &mut Vec<char>) -> u8 {
    let c = ch.to_ascii_lowercase();
    if let Some(&k) = colour_of.get(&c) {
        return k;
    }
    order.push(c);
    let k = order.len() as u8;
    colour_of.insert(c, k);
    k
}

impl Level {
    /// Parses a level, with a message saying what is wrong.
    pub fn parse(text: &str) -> Result<Level, String> {
        let mut map: Vec<&str> = Vec::new();
        let mut legend: HashMap<char, (char, char)> =
            HashMap::from([('*', ('A', 'a')), ('+', ('@', 'a'))]);
        let mut in_map = true;
        for line in text.lines() {
            let trimmed = line.trim_end();
            if trimmed.trim_start().starts_with(';') {
                continue;
            }
            if let Some((sym, def)) = trimmed.split_once(" = ") {
                let sym: Vec<char> = sym.trim().chars().collect();
                let def: Vec<char> = def.trim().chars().collect();
                if sym.len() != 1
                    || def.len() != 2
                    || !(def[0] == '@' || def[0].is_ascii_uppercase())
                    || !def[1].is_ascii_lowercase()
                {
                    return Err(format!("bad legend line '{trimmed}': write 'X = Bb' (a box) or 'X = @b' (a pusher) on target b"));
                }
                legend.insert(sym[0], (def[0], def[1]));
                in_map = false;
                continue;
            }
            if trimmed.is_empty() {
                if !map.is_empty() {
                    in_map = false;
                }
                continue;
            }
            if !in_map {
                return Err(format!("map line '{trimmed}' after the map ended"));
            }
            map.push(trimmed);
        }
        if map.is_empty() {
            return Err("the level has no map".into());
        }
        let height = map.len();
        let width = map.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let mut colour_of: HashMap<char, u8> = HashMap::new();
        let mut order: Vec<char> = Vec::new();
        let mut hid = vec![None; width * height];
        let mut cells = Vec::new();
        // (unit: 0 none, b'@' pusher, colour letter for a box), target letter or 0
        let mut contents: Vec<(char, char)> = Vec::new();
        for (r, line) in map.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            for c in 0..width {
                let ch = chars.get(c).copied().unwrap_or('#');
                let (unit, target) = match ch {
                    '#' => continue,
                    '-' | '.' | ' ' => ('\0', '\0'),
                    '@' => ('@', '\0'),
                    x if x.is_ascii_uppercase() => (x, '\0'),
                    x if x.is_ascii_lowercase() => ('\0', x),
                    x => match legend.get(&x) {
                        Some(&(u, t)) => (u, t),
                        None => {
                            return Err(format!(
                                "unknown symbol '{x}' at row {}, column {}",
                                r + 1,
                                c + 1
                            ))
                        }
                    },
                };
                hid[r * width + c] = Some(cells.len());
                cells.push((r, c));
                contents.push((unit, target));
            }
        }
        // Colours in order of first appearance, boxes or targets alike.
        for &(u, t) in &contents {
            if u != '\0' && u != '@' {
                unit_code(u, &mut colour_of, &mut order);
            }
            if t != '\0' {
                unit_code(t, &mut colour_of, &mut order);
            }
        }
        let k = order.len();
        let mut boxes = vec![0usize; k];
        let mut targets = vec![0usize; k];
        let mut start = vec![0u8; cells.len()];
        let mut target = vec![0u8; cells.len()];
        let mut pushers = 0;
        for (h, &(u, t)) in contents.iter().enumerate() {
            if u == '@' {
                pushers += 1;
                start[h] = k as u8 + 1;
            } else if u != '\0' {
                let col = colour_of[&u.to_ascii_lowercase()];
                boxes[col as usize - 1] += 1;
                start[h] = col;
            }
            if t != '\0' {
                let col = colour_of[&t];
                targets[col as usize - 1] += 1;
                target[h] = col;
            }
        }
        if pushers == 0 {
            return Err("the level has no pusher '@'".into());
        }
        for (i, &c) in order.iter().enumerate() {
            if boxes[i] < targets[i] {
                return Err(format!(
                    "colour '{c}' has {} targets but only {} boxes, so the level can never be solved",
                    targets[i], boxes[i]
                ));
            }
        }
        let at = |r: isize, c: isize| -> Option<usize> {
            if r < 0 || c < 0 || r as usize >= height || c as usize >= width {
                None
            } else {
                hid[r as usize * width + c as usize]
            }
        };
        let next: Vec<[Option<usize>; 4]> = cells
            .iter()
            .map(|&(r, c)| DIRS.map(|(dr, dc)| at(r as isize + dr, c as isize + dc)))
            .collect();
        let dead = (0..cells.len())
            .map(|h| {
                let n = next[h];
                let corner =
                    (n[0].is_none() || n[1].is_none()) && (n[2].is_none() || n[3].is_none());
                (1..=k as u8)
                    .map(|col| corner && target[h] != col)
                    .collect()
            })
            .collect::<Vec<Vec<bool>>>();
        for (h, &s) in start.iter().enumerate() {
            if s >= 1 && (s as usize) <= k && dead[h][s as usize - 1] {
                let (r, c) = cells[h];
                return Err(format!(
                    "the box at row {}, column {} starts in a corner that is not its target, so the level can never be solved",
                    r + 1,
                    c + 1
                ));
            }
        }
        Ok(Level {
            width,
            height,
            cells,
            hid,
            next,
            target,
            dead,
            colours: order,
            boxes,
            pushers,
            start,
        })
    }

    /// Number of colours.
    pub fn colour_count(&self) -> usize {
        self.colours.len()
    }

    /// The unit code of a pusher.
    pub fn pusher_code(&self) -> u8 {
        self.colours.len() as u8 + 1
    }

    /// The name of a cell, `b3` style: column letter, row number from the top.
    pub fn cell_name(&self, h: usize) -> String {
        let (r, c) = self.cells[h];
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    /// The hid of a cell name, if it is a floor cell.
    pub fn parse_cell(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let col = chars.next()?;
        if !col.is_ascii_lowercase() {
            return None;
        }
        let row: usize = chars.as_str().parse().ok()?;
        let (r, c) = (row.checked_sub(1)?, (col as u8 - b'a') as usize);
        if r >= self.height || c >= self.width {
            return None;
        }
        self.hid[r * self.width + c]
    }

    /// The symbol of a cell holding `unit` (0 empty, colour, or pusher code) over its
    /// target.
    pub fn symbol(&self, h: usize, unit: u8) -> String {
        let t = self.target[h];
        let colour = |k: u8| self.colours[k as usize - 1];
        match (unit, t) {
            (0, 0) => "-".into(),
            (0, t) => colour(t).to_string(),
            (u, 0) if u == self.pusher_code() => "@".into(),
            (u, 0) => colour(u).to_ascii_uppercase().to_string(),
            (u, t) if u == self.pusher_code() => format!("@{}", colour(t)),
            (u, t) => format!("{}{}", colour(u).to_ascii_uppercase(), colour(t)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units_targets_and_dead_corners() {
        let l = Level::parse("; c\n#######\n#-----#\n#-A@B-#\n#a---b#\n#######\n").unwrap();
        assert_eq!((l.width, l.height), (7, 5));
        assert_eq!(l.cells.len(), 15);
        assert_eq!(l.colours, vec!['a', 'b']);
        assert_eq!(l.boxes, vec![1, 1]);
        assert_eq!(l.pushers, 1);
        let a3 = l.parse_cell("b4").unwrap();
        assert_eq!(l.target[a3], 1);
        // b4 (row 4, column b) is a corner and a's target: dead for B only.
        assert_eq!(l.dead[a3], vec![false, true]);
        let b2 = l.parse_cell("b2").unwrap();
        assert_eq!(l.dead[b2], vec![true, true]);
        assert_eq!(l.cell_name(a3), "b4");
    }

    #[test]
    fn legend_and_errors() {
        let l = Level::parse("#####\n#@1-#\n#####\n1 = Bb\n").unwrap();
        assert_eq!(l.boxes, vec![1]);
        assert!(Level::parse("###\n#A#\n###")
            .unwrap_err()
            .contains("no pusher"));
        assert!(Level::parse("####\n#@a#\n####")
            .unwrap_err()
            .contains("only 0 boxes"));
        assert!(Level::parse("#####\n#@?-#\n#####")
            .unwrap_err()
            .contains("unknown symbol '?'"));
        assert!(Level::parse("####\n#A@#\n#-a#\n####")
            .unwrap_err()
            .contains("corner"));
    }
}
