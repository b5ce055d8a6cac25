//! Round trips of the block coding on random and adversarial records, and damaged
//! blocks that must be errors, never panics. These tests must not touch files: a
//! block is bytes in memory.

use super::*;
use crate::engine::record::{pack, MAX_REMOTENESS};
use gamesman_plugin_api::Value;
use rand::{Rng, SeedableRng};

fn rng(seed: u64) -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn round_trip(values: &[u16], winby: Option<&[i32]>) -> Vec<u8> {
    let member = encode(values, winby);
    let got = decode(&member, values.len(), winby.is_some()).unwrap();
    assert_eq!(got.values, values);
    assert_eq!(got.winby.as_deref(), winby);
    member
}

fn tag(member: &[u8]) -> (u8, u8) {
    let mut payload = Vec::new();
    GzDecoder::new(member).read_to_end(&mut payload).unwrap();
    let mut c = Cursor::new(&payload);
    let t = c.byte("tag").unwrap();
    if t == PLAIN {
        return (t, 0);
    }
    c.varint("m").unwrap();
    c.varint("k").unwrap();
    (t, c.byte("flags").unwrap())
}

/// Game-like records: mostly zeros in pairs, a few dozen distinct records that depend
/// on their neighbours.
fn gamelike(n: usize, seed: u64) -> Vec<u16> {
    let mut r = rng(seed);
    let mut out = vec![0u16; n];
    let mut prev = pack(Value::WIN, 1);
    for k in 0..n / 2 {
        if r.gen_bool(0.15) {
            for t in 0..2 {
                if r.gen_bool(0.3) {
                    let v = if r.gen_bool(0.5) {
                        Value::WIN
                    } else {
                        Value::LOSE
                    };
                    prev = pack(v, r.gen_range(0..12));
                }
                out[2 * k + t] = prev;
            }
        }
    }
    out
}

#[test]
fn edge_blocks_round_trip() {
    round_trip(&[], None);
    round_trip(&[], Some(&[]));
    round_trip(&[0], None);
    round_trip(&[pack(Value::DRAW, 0)], None);
    round_trip(&[0, 0, 0], Some(&[0, 5, 0]));
    // All zeros: nothing but a header.
    let zeros = round_trip(&vec![0; 1 << 18], None);
    assert!(zeros.len() < 100, "{}", zeros.len());
    round_trip(&vec![0; 1001], Some(&vec![0; 1001]));
    // One record, everything else zero; every record the same.
    let mut one = vec![0u16; 1 << 15];
    one[12345] = pack(Value::TIE, MAX_REMOTENESS);
    round_trip(&one, None);
    round_trip(&vec![pack(Value::LOSE, MAX_REMOTENESS); 4097], None);
    // An undecided record with a remoteness or WinBy is kept as it was.
    round_trip(&[pack(Value::UNDECIDED, 3), 0], Some(&[0, -1]));
}

#[test]
fn extreme_records_round_trip() {
    let mut r = rng(1);
    let n = 50_000;
    // Every packed value at random, with extreme WinBy: many distinct symbols.
    let values: Vec<u16> = (0..n).map(|_| r.gen()).collect();
    let winby: Vec<i32> = (0..n)
        .map(|i| match i % 4 {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => r.gen(),
            _ => -1,
        })
        .collect();
    round_trip(&values, None);
    assert_eq!(tag(&round_trip(&values, Some(&winby))).0, PLAIN);
    // All distinct records.
    let distinct: Vec<u16> = (1..=60_000u32).map(|i| i as u16).collect();
    assert_eq!(tag(&round_trip(&distinct, None)).0, PLAIN);
    // Just below the plain threshold: 256 symbols, escapes in the byte coding.
    let wide: Vec<u16> = (0..3000u32).map(|i| 1 + (i * 7919 % 300) as u16).collect();
    assert_eq!(tag(&round_trip(&wide, None)).0, CODED);
    // Maximal remoteness of every value.
    let max: Vec<u16> = (0..10_000u16)
        .map(|i| pack(Value((i % 5) as u8), MAX_REMOTENESS - u32::from(i % 3)))
        .collect();
    round_trip(&max, Some(&vec![7; 10_000]));
}

#[test]
fn game_like_blocks_round_trip_small() {
    for (seed, n) in [(2, 1 << 18), (3, 99_999), (4, 2)] {
        let values = gamelike(n, seed);
        let member = round_trip(&values, None);
        if n > 1000 {
            let (t, flags) = tag(&member);
            assert_eq!(t, CODED);
            assert!(flags & PAIRS != 0 || n % 2 == 1, "{flags:#x}");
            assert!(
                member.len() < n / 8,
                "{} bytes for {n} records",
                member.len()
            );
        }
        // With WinBy following the value, and pairs that disagree on zero.
        let mut r = rng(seed);
        let winby: Vec<i32> = values
            .iter()
            .map(|&v| if v == 0 { 0 } else { r.gen_range(-3..4) })
            .collect();
        round_trip(&values, Some(&winby));
        let mut unpaired = values.clone();
        if let Some(x) = unpaired.iter_mut().find(|x| **x == 0) {
            *x = pack(Value::DRAW, 0);
        }
        round_trip(&unpaired, None);
    }
}

#[test]
fn random_blocks_round_trip() {
    let mut r = rng(5);
    for _ in 0..40 {
        let n = r.gen_range(1..20_000);
        let k = r.gen_range(1..600);
        let zeros = r.gen_range(0.0..1.0);
        let values: Vec<u16> = (0..n)
            .map(|_| {
                if r.gen_bool(zeros) {
                    0
                } else {
                    (r.gen_range(0..k) * 37 % 65536) as u16
                }
            })
            .collect();
        let winby: Vec<i32> = (0..n).map(|_| r.gen_range(-2..3) * 1000).collect();
        round_trip(&values, None);
        round_trip(&values, Some(&winby));
    }
}

#[test]
fn encoding_is_deterministic() {
    let values = gamelike(100_000, 9);
    assert_eq!(encode(&values, None), encode(&values, None));
}

#[test]
fn damaged_blocks_are_errors_never_panics() {
    let mut r = rng(6);
    let n = 40_000;
    let values = gamelike(n, 7);
    let winby: Vec<i32> = values.iter().map(|&v| i32::from(v != 0)).collect();
    for w in [None, Some(&winby[..])] {
        let member = encode(&values, w);
        // The wrong number of records (a mask has room for up to 7 more), or a damaged
        // gzip member.
        assert!(decode(&member, n - 20, w.is_some()).is_err());
        assert!(decode(&member, n + 20, w.is_some()).is_err());
        assert!(decode(&member[..member.len() - 3], n, w.is_some()).is_err());
        // (A changed bit may leave the inflated bytes as they were, in a part of a
        // Huffman table no code uses; a few changed bytes do not.)
        let mut flipped = member.clone();
        let mid = member.len() / 2;
        flipped[mid..mid + 4].iter_mut().for_each(|b| *b ^= 0xff);
        assert!(decode(&flipped, n, w.is_some()).is_err());
        // Damage under a valid CRC: decoded to an error or to some records, never a
        // panic.
        let mut payload = Vec::new();
        GzDecoder::new(&member[..])
            .read_to_end(&mut payload)
            .unwrap();
        for _ in 0..300 {
            let mut bad = payload.clone();
            for _ in 0..r.gen_range(1..4) {
                let at = r.gen_range(0..bad.len());
                bad[at] = r.gen();
            }
            if r.gen_bool(0.2) {
                bad.truncate(r.gen_range(0..bad.len()));
            }
            let _ = decode(&wire::gzip_sections(&[&bad], 1), n, w.is_some());
        }
    }
    // A bomb: far more bytes than any block of its records.
    let bomb = wire::gzip_sections(&[&vec![0u8; 100_000]], 6);
    assert_eq!(decode(&bomb, 100, false), Err(CodecError::TooLarge));
}
