//! Words for records: "win in 5", "win by 8 in 11", "tie in 9", "draw", and for
//! puzzles "solvable in 12" / "unsolvable". Text and JSON use the same value names
//! (`value_name`): win, lose, tie, draw for games, solvable and unsolvable for puzzles,
//! unsolved for positions without a record. Presentation only; shared by every command.

use crate::engine::record::Record;
use gamesman_plugin_api::{Player, Value};

/// A record in words, from the view of the player to move. `winby` adds the margin
/// (from player one's view, as stored) where the record has one.
pub fn describe(record: &Record, players: u8, winby: bool) -> String {
    let v = record.value;
    let r = record.remoteness;
    if players == 1 {
        return match v {
            Value::WIN => format!("solvable in {r}"),
            _ => value_name(v, players).into(),
        };
    }
    match (v, record.winby.filter(|_| winby)) {
        (Value::WIN, Some(w)) => format!("win by {} in {r}", w.abs()),
        (Value::LOSE, Some(w)) => format!("lose by {} in {r}", w.abs()),
        (Value::WIN, None) => format!("win in {r}"),
        (Value::LOSE, None) => format!("lose in {r}"),
        (Value::TIE, _) => format!("tie in {r}"),
        (Value::DRAW, _) => "draw".into(),
        _ => "unsolved".into(),
    }
}

/// A WinBy (stored from player one's view) read from `mover`'s side: positive when
/// `mover` is ahead.
pub fn margin_for(winby: i64, mover: Player) -> i64 {
    if mover == Player::TWO {
        -winby
    } else {
        winby
    }
}

/// The prediction line's words for the player to move: "Player 1 should win by 8 in
/// 11" (WinBy shown when `winby` is on and the record has one, with the margin read
/// from `mover`'s side), "Player 2 should lose in 9", "Player 1 should tie in 9",
/// "Player 1 should draw", "unsolved"; puzzles as `describe` says them.
pub fn prediction(record: &Record, players: u8, mover: Player, winby: bool) -> String {
    if players == 1 {
        return describe(record, players, winby);
    }
    let r = record.remoteness;
    // Unlike `describe`, the margin keeps its sign from the mover's side, so a stored
    // WinBy that disagrees with the value shows up instead of being hidden by `abs`.
    match (record.value, record.winby.filter(|_| winby)) {
        (Value::WIN, Some(w)) => format!("{mover} should win by {} in {r}", margin_for(w, mover)),
        (Value::LOSE, Some(w)) => {
            format!("{mover} should lose by {} in {r}", -margin_for(w, mover))
        }
        (Value::WIN, None) => format!("{mover} should win in {r}"),
        (Value::LOSE, None) => format!("{mover} should lose in {r}"),
        (Value::TIE, _) => format!("{mover} should tie in {r}"),
        (Value::DRAW, _) => format!("{mover} should draw"),
        _ => "unsolved".into(),
    }
}

/// The name of a value, in text and JSON alike: win, lose, tie, draw or unsolved; for a
/// puzzle (`players == 1`) solvable, or unsolvable for every other decided value (a
/// dead end, a loop, or an end without a solution), or unsolved.
pub fn value_name(v: Value, players: u8) -> &'static str {
    match (players, v) {
        (_, Value::UNDECIDED) => "unsolved",
        (1, Value::WIN) => "solvable",
        (1, Value::LOSE) | (1, Value::TIE) | (1, Value::DRAW) => "unsolvable",
        (_, Value::WIN) => "win",
        (_, Value::LOSE) => "lose",
        (_, Value::TIE) => "tie",
        (_, Value::DRAW) => "draw",
        _ => "unsolved",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        let r = |value, remoteness, winby| Record {
            value,
            remoteness,
            winby,
        };
        assert_eq!(
            describe(&r(Value::WIN, 11, Some(-8)), 2, true),
            "win by 8 in 11"
        );
        assert_eq!(
            describe(&r(Value::WIN, 11, Some(-8)), 2, false),
            "win in 11"
        );
        assert_eq!(describe(&r(Value::TIE, 9, None), 2, true), "tie in 9");
        assert_eq!(describe(&r(Value::DRAW, 0, None), 2, false), "draw");
        assert_eq!(describe(&r(Value::WIN, 4, None), 1, false), "solvable in 4");
        assert_eq!(describe(&r(Value::DRAW, 0, None), 1, false), "unsolvable");
        assert_eq!(describe(&Record::UNSOLVED, 2, false), "unsolved");
        assert_eq!(describe(&r(Value::TIE, 3, None), 1, false), "unsolvable");
        assert_eq!(describe(&Record::UNSOLVED, 1, false), "unsolved");
    }

    #[test]
    fn puzzles_and_games_name_values_their_own_way() {
        assert_eq!(value_name(Value::WIN, 2), "win");
        assert_eq!(value_name(Value::DRAW, 2), "draw");
        assert_eq!(value_name(Value::WIN, 1), "solvable");
        assert_eq!(value_name(Value::LOSE, 1), "unsolvable");
        assert_eq!(value_name(Value::DRAW, 1), "unsolvable");
        assert_eq!(value_name(Value::UNDECIDED, 1), "unsolved");
        // The words of a puzzle's record begin with its value's name.
        for v in [Value::WIN, Value::LOSE, Value::TIE, Value::DRAW] {
            let rec = Record {
                value: v,
                remoteness: 4,
                winby: None,
            };
            assert!(describe(&rec, 1, false).starts_with(value_name(v, 1)));
        }
    }

    #[test]
    fn predictions_read_the_margin_from_the_mover() {
        let r = |value, remoteness, winby| Record {
            value,
            remoteness,
            winby,
        };
        let (one, two) = (Player::ONE, Player::TWO);
        assert_eq!(
            prediction(&r(Value::WIN, 11, Some(8)), 2, one, true),
            "Player 1 should win by 8 in 11"
        );
        assert_eq!(
            prediction(&r(Value::WIN, 11, Some(-8)), 2, two, true),
            "Player 2 should win by 8 in 11"
        );
        assert_eq!(
            prediction(&r(Value::LOSE, 4, Some(-3)), 2, one, true),
            "Player 1 should lose by 3 in 4"
        );
        assert_eq!(
            prediction(&r(Value::LOSE, 4, Some(-3)), 2, one, false),
            "Player 1 should lose in 4"
        );
        assert_eq!(
            prediction(&r(Value::TIE, 9, None), 2, two, true),
            "Player 2 should tie in 9"
        );
        assert_eq!(
            prediction(&r(Value::DRAW, 0, None), 2, one, false),
            "Player 1 should draw"
        );
        assert_eq!(prediction(&Record::UNSOLVED, 2, one, true), "unsolved");
        assert_eq!(
            prediction(&r(Value::WIN, 3, None), 1, one, false),
            "solvable in 3"
        );
    }
}
