//! The `ranks` coding of a block's symbols: an adaptive context model turned into
//! small decisions that deflate codes well.
//!
//! Each symbol is predicted from the two symbols before it and the parity of its
//! record's index (records often come in pairs, such as one board with either player
//! to move): every such context keeps up to `LIST` symbols ordered by how often they
//! followed it, and the symbol is written as its rank in that list, or as an escape
//! (rank = the list's length) followed by the symbol itself in the literal section. A
//! context seen for the first time starts with the block's most frequent symbols (the
//! table's first), in the table's order. Ranks are written in unary, one section of flags
//! per level ("is the rank more than `level`?", packed eight to a byte, only while the
//! answer is not already known), the remainder past `LEVELS` as a byte. Encoder and
//! decoder update the model identically after every symbol, so nothing about it is
//! stored.
//!
//! This file must not know what symbols stand for or how sections are stored.

use super::wire::{put_varint, BitReader, BitWriter, Cursor};
use super::CodecError;

/// Symbols kept per context.
const LIST: usize = 15;
/// Levels of unary flags before the remainder byte.
pub(super) const LEVELS: usize = 8;
/// Symbols told apart in contexts at most (larger ones share the last).
const CONTEXT_SYMBOLS: usize = 64;

/// One context's symbols, most frequent first.
#[derive(Clone, Copy)]
struct List {
    len: u8,
    counts: [u16; LIST],
    symbols: [u32; LIST],
}

const EMPTY: List = List {
    len: 0,
    counts: [0; LIST],
    symbols: [0; LIST],
};

impl List {
    fn find(&self, s: u32) -> Option<usize> {
        self.symbols[..self.len as usize]
            .iter()
            .position(|&x| x == s)
    }

    /// Counts `s`, found at `at` or new (replacing the rarest when full).
    fn count(&mut self, at: Option<usize>, s: u32) {
        let mut i = match at {
            Some(i) => i,
            None => {
                let i = (self.len as usize).min(LIST - 1);
                self.len = (i + 1) as u8;
                self.symbols[i] = s;
                self.counts[i] = 0;
                i
            }
        };
        if self.counts[i] == u16::MAX {
            for c in &mut self.counts[..self.len as usize] {
                *c /= 2;
            }
        }
        self.counts[i] += 1;
        while i > 0 && self.counts[i - 1] < self.counts[i] {
            self.counts.swap(i - 1, i);
            self.symbols.swap(i - 1, i);
            i -= 1;
        }
    }
}

/// The model's state: a list per context.
struct Model {
    lists: Vec<List>,
    /// Symbols told apart in contexts: those of the table, at most `CONTEXT_SYMBOLS`.
    told: usize,
    /// A new context's list: the first symbols of the table.
    first: List,
    /// The previous two symbols, capped at `told - 1`.
    p1: usize,
    p2: usize,
}

impl Model {
    /// The model for symbols below `symbols`.
    fn new(symbols: u32) -> Model {
        let told = (symbols as usize).clamp(1, CONTEXT_SYMBOLS);
        let mut first = EMPTY;
        first.len = symbols.min(LIST as u32) as u8;
        for (i, s) in first.symbols.iter_mut().enumerate() {
            *s = i as u32;
        }
        Model {
            lists: vec![EMPTY; told * told * 2],
            told,
            first,
            p1: 0,
            p2: 0,
        }
    }

    /// The list of the context of the next symbol, whose record has parity `par`.
    #[inline]
    fn context(&mut self, par: usize) -> usize {
        let long = (self.p1 * self.told + self.p2) * 2 + par;
        if self.lists[long].len == 0 {
            self.lists[long] = self.first;
        }
        long
    }

    /// Counts `s` (found at `at` in the list `long`) and moves on.
    #[inline]
    fn update(&mut self, long: usize, at: Option<usize>, s: u32) {
        self.lists[long].count(at, s);
        self.p2 = self.p1;
        self.p1 = (s as usize).min(self.told - 1);
    }
}

/// The sections of a `ranks` coding: `LEVELS` flag sections, the remainders, the
/// literals.
pub(super) struct Coded {
    pub(super) flags: Vec<Vec<u8>>,
    pub(super) rest: Vec<u8>,
    pub(super) literals: Vec<u8>,
}

/// Codes `symbols` (each below `k`), the `i`th belonging to a record of parity
/// `parity(i)`.
pub(super) fn encode(symbols: &[u32], k: u32, parity: impl Fn(usize) -> usize) -> Coded {
    let mut m = Model::new(k);
    let mut flags: Vec<BitWriter> = (0..LEVELS).map(|_| BitWriter::default()).collect();
    let (mut rest, mut literals) = (Vec::new(), Vec::new());
    for (i, &s) in symbols.iter().enumerate() {
        let par = parity(i);
        let long = m.context(par);
        let list = &m.lists[long];
        let len = list.len as usize;
        let at = list.find(s);
        let rank = at.unwrap_or(len);
        let mut level = 0;
        while level < LEVELS && level < len {
            flags[level].push(rank != level);
            if rank == level {
                break;
            }
            level += 1;
        }
        if level == LEVELS && len > LEVELS {
            rest.push((rank - LEVELS) as u8);
        }
        if at.is_none() {
            put_varint(&mut literals, u64::from(s));
        }
        m.update(long, at, s);
    }
    Coded {
        flags: flags.into_iter().map(|f| f.bytes).collect(),
        rest,
        literals,
    }
}

/// Decodes `n` symbols below `symbols` coded by `encode`, calling `out` with each.
pub(super) fn decode(
    flags: &[&[u8]; LEVELS],
    rest: &[u8],
    literals: &[u8],
    n: usize,
    symbols: u32,
    parity: impl Fn(usize) -> usize,
    mut out: impl FnMut(usize, u32),
) -> Result<(), CodecError> {
    let mut m = Model::new(symbols);
    let mut flags = flags.map(BitReader::new);
    let (mut rest, mut literals) = (Cursor::new(rest), Cursor::new(literals));
    for i in 0..n {
        let par = parity(i);
        let long = m.context(par);
        let list = &m.lists[long];
        let len = list.len as usize;
        let mut rank = 0;
        while rank < LEVELS && rank < len && flags[rank].next()? {
            rank += 1;
        }
        if rank == LEVELS && len > LEVELS {
            rank += rest.byte("rank remainders")? as usize;
            if rank > len {
                return Err(CodecError::Malformed("a rank past its context's list"));
            }
        }
        let (s, at) = if rank < len {
            (list.symbols[rank], Some(rank))
        } else {
            let s = literals.varint("literals")?;
            if s >= u64::from(symbols) {
                return Err(CodecError::Malformed("a symbol past the block's table"));
            }
            (s as u32, None)
        };
        out(i, s);
        m.update(long, at, s);
    }
    for f in &flags {
        f.finish()?;
    }
    rest.finish("rank remainders")?;
    literals.finish("literals")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(symbols: &[u32], k: u32) -> usize {
        let par = |i: usize| i & 1;
        let c = encode(symbols, k, par);
        let flags: [&[u8]; LEVELS] = std::array::from_fn(|l| &c.flags[l][..]);
        let mut got = Vec::new();
        decode(
            &flags,
            &c.rest,
            &c.literals,
            symbols.len(),
            k,
            par,
            |_, s| got.push(s),
        )
        .unwrap();
        assert_eq!(got, symbols);
        c.flags.iter().map(Vec::len).sum::<usize>() + c.rest.len() + c.literals.len()
    }

    #[test]
    fn symbols_round_trip() {
        round_trip(&[], 1);
        round_trip(&[0], 1);
        // Repetitive: mostly rank 0, few bytes.
        let rep: Vec<u32> = (0..10_000).map(|i| [0, 1, 0, 2][i % 4]).collect();
        assert!(round_trip(&rep, 3) < 2000);
        // Many distinct symbols: escapes, full lists, remainders.
        let wide: Vec<u32> = (0..20_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 300)
            .collect();
        round_trip(&wide, 300);
        let all: Vec<u32> = (0..5000).collect();
        round_trip(&all, 5000);
        // A long run saturates the counts.
        let long: Vec<u32> = (0..200_000).map(|i| u32::from(i % 1000 == 0)).collect();
        round_trip(&long, 2);
    }

    #[test]
    fn damaged_sections_are_errors() {
        let symbols: Vec<u32> = (0..3000u32).map(|i| (i * 7 + i / 13) % 40).collect();
        let par = |i: usize| i & 1;
        let c = encode(&symbols, 40, par);
        let flags: [&[u8]; LEVELS] = std::array::from_fn(|l| &c.flags[l][..]);
        let dec = |flags: &[&[u8]; LEVELS], rest: &[u8], lits: &[u8], n: usize, k: u32| {
            decode(flags, rest, lits, n, k, par, |_, _| {})
        };
        assert!(dec(&flags, &c.rest, &c.literals, symbols.len(), 40).is_ok());
        // Too few symbols in the table, too many or too few symbols wanted.
        assert!(dec(&flags, &c.rest, &c.literals, symbols.len(), 10).is_err());
        assert!(dec(&flags, &c.rest, &c.literals, symbols.len() + 50, 40).is_err());
        assert!(dec(&flags, &c.rest, &c.literals, symbols.len() - 500, 40).is_err());
        let short = &c.literals[..c.literals.len() - 1];
        assert!(dec(&flags, &c.rest, short, symbols.len(), 40).is_err());
    }
}
