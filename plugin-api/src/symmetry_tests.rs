//! Tests of `symmetry`: group sizes, orbit counts against Burnside's lemma worked by
//! hand, and Mills symmetries keeping the board's lines. Not a public item.

use super::*;
use std::collections::HashSet;

/// Every board over `colours` colours with `cells` cells, as digit vectors.
fn boards(cells: usize, colours: u8) -> impl Iterator<Item = Vec<u8>> {
    let total = (colours as u64).pow(cells as u32);
    (0..total).map(move |mut n| {
        (0..cells)
            .map(|_| {
                let d = (n % colours as u64) as u8;
                n /= colours as u64;
                d
            })
            .collect()
    })
}

/// Canonical boards and the sum of their orbit sizes, over every board.
fn classes(sym: &Symmetries, colours: u8) -> (usize, u64) {
    let mut canon = HashSet::new();
    let mut weight = 0;
    let mut out = vec![0u8; sym.cells()];
    for b in boards(sym.cells(), colours) {
        sym.canonical(&b, &mut out);
        assert_eq!(sym.is_canonical(&b), out == b, "{b:?}");
        if out == b {
            weight += sym.orbit_size(&b);
        }
        canon.insert(out.clone());
    }
    (canon.len(), weight)
}

#[test]
fn a_square_board_has_8_symmetries_and_tic_tac_toe_boards_fall_into_2862_classes() {
    let sym = Symmetries::square(3);
    assert_eq!(sym.len(), 8);
    let distinct: HashSet<_> = (0..8).map(|s| sym.table(s).to_vec()).collect();
    assert_eq!(distinct.len(), 8);
    // Burnside: (3^9 + 2*3^3 + 3^5 + 4*3^6) / 8 = 22896 / 8.
    assert_eq!(classes(&sym, 3), (2862, 19683));
    // The centre stays put under all 8; a quarter turn moves a corner to a corner.
    assert!((0..8).all(|s| sym.table(s)[4] == 4));
    assert_eq!(sym.orbit_size(&[0u8, 0, 0, 0, 1, 0, 0, 0, 0]), 1);
    assert_eq!(sym.orbit_size(&[0u8, 1, 0, 0, 0, 0, 0, 0, 0]), 4);
    assert_eq!(sym.orbit_size(&[1u8, 2, 0, 0, 0, 0, 0, 0, 0]), 8);
}

#[test]
fn a_4x4_board_with_two_colours_has_8548_classes() {
    // Burnside: (2^16 + 2*2^4 + 3*2^8 + 2*2^10) / 8 = 68384 / 8.
    assert_eq!(classes(&Symmetries::square(4), 2), (8548, 65536));
}

#[test]
fn a_rectangular_board_has_4_symmetries_and_3x4_boards_fall_into_1120_classes() {
    let sym = Symmetries::rectangle(3, 4);
    assert_eq!(sym.len(), 4);
    // Burnside: (2^12 + 2^6 + 2^8 + 2^6) / 4 = 4480 / 4.
    assert_eq!(classes(&sym, 2), (1120, 4096));
    assert_eq!(Symmetries::rectangle(2, 2), Symmetries::square(2));
}

/// The lines and adjacencies of a Mills board in `Symmetries::mills`' numbering.
fn mills_edges(rings: usize) -> HashSet<(u32, u32)> {
    let mut e = HashSet::new();
    for r in 0..rings {
        for k in 0..8 {
            e.insert(((r * 8 + k) as u32, (r * 8 + (k + 1) % 8) as u32));
        }
        if r + 1 < rings {
            for k in [1, 3, 5, 7] {
                e.insert(((r * 8 + k) as u32, ((r + 1) * 8 + k) as u32));
            }
        }
    }
    e.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect()
}

#[test]
fn mills_symmetries_keep_the_board_s_lines_and_the_ring_swap_doubles_them() {
    for (swap, size) in [(false, 8), (true, 16)] {
        let sym = Symmetries::mills(3, swap);
        assert_eq!(sym.len(), size);
        let edges = mills_edges(3);
        for s in 0..sym.len() {
            let t = sym.table(s);
            for &(a, b) in &edges {
                assert!(
                    edges.contains(&(t[a as usize], t[b as usize])),
                    "{s}: {a}-{b}"
                );
            }
        }
    }
    // The ring swap maps outer corners onto inner ones.
    let sym = Symmetries::mills(3, true);
    let mut board = [0u8; 24];
    board[0] = 1;
    assert_eq!(sym.orbit_size(&board), 8);
    let mut canon = [0u8; 24];
    sym.canonical(&board, &mut canon);
    let mut inner = [0u8; 24];
    inner[22] = 1;
    assert_eq!(canon, inner);
}

#[test]
fn least_by_key_is_the_least_index_over_images() {
    let sym = Symmetries::square(3);
    let base3 = |b: &[u8]| b.iter().rev().fold(0u32, |n, &d| n * 3 + d as u32);
    let mut scratch = [0u8; 9];
    let mut out = [0u8; 9];
    for b in boards(9, 3).step_by(7) {
        let (k, s) = sym.least_by_key(&b, &mut scratch, base3);
        sym.image(s, &b, &mut out);
        assert_eq!(base3(&out), k);
        let all: Vec<u32> = (0..8)
            .map(|t| {
                sym.image(t, &b, &mut out);
                base3(&out)
            })
            .collect();
        assert_eq!(Some(&k), all.iter().min());
    }
}

#[test]
fn bad_tables_are_refused() {
    assert_eq!(
        Symmetries::from_generators(3, &[vec![0, 0, 1]]),
        Err(SymmetryError::NotAPermutation(
            0,
            "cell 0 appears twice".into()
        ))
    );
    assert!(matches!(
        Symmetries::from_generators(3, &[vec![0, 1, 7]]),
        Err(SymmetryError::NotAPermutation(0, _))
    ));
    assert!(matches!(
        Symmetries::from_generators(3, &[vec![0, 1]]),
        Err(SymmetryError::NotAPermutation(0, _))
    ));
    // An 8-cycle and a swap generate every permutation of 8 cells (40320), past
    // the limit.
    let cycle: Vec<u32> = (0..8).map(|i| (i + 1) % 8).collect();
    let swap: Vec<u32> = [1, 0, 2, 3, 4, 5, 6, 7].to_vec();
    assert_eq!(
        Symmetries::from_generators(8, &[cycle, swap]),
        Err(SymmetryError::TooMany)
    );
    assert_eq!(Symmetries::identity(5).len(), 1);
}
