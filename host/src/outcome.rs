//! Words for records: "win in 5", "win by 8 in 11", "tie in 9", "draw", and for
//! puzzles "solvable in 12" / "unsolvable". Presentation only; shared by every command.

use crate::record::Record;
use gamesman_plugin_api::Value;

/// A record in words, from the view of the player to move. `winby` adds the margin
/// (from player one's view, as stored) where the record has one.
pub fn describe(record: &Record, players: u8, winby: bool) -> String {
    let v = record.value;
    let r = record.remoteness;
    if players == 1 {
        return match v {
            Value::WIN => format!("solvable in {r}"),
            Value::UNDECIDED => "unsolved".into(),
            Value::TIE => format!("ends without a solution in {r}"),
            _ => "unsolvable".into(),
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

/// The JSON name of a value: win, lose, tie, draw, or unsolved.
pub fn value_name(v: Value) -> &'static str {
    match v {
        Value::WIN => "win",
        Value::LOSE => "lose",
        Value::TIE => "tie",
        Value::DRAW => "draw",
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
    }
}
