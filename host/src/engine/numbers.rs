//! The one way numbers are written in text output: whole counts with a comma every
//! three digits (`86,093,442`), rates rounded to whole numbers the same way, seconds
//! with two decimals. JSON output keeps plain numbers. Identifiers (tier numbers,
//! position indices) are not counts and are written as they are.
//!
//! It also reads the one rate a user types (`--rate 1.2M`). This file formats and
//! parses; it must not decide what is printed.

use std::time::Duration;

/// A count with thousands separators: `1234567` gives `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A signed count with thousands separators (`-1,024`).
pub fn signed(n: i64) -> String {
    if n < 0 {
        format!("-{}", count(n.unsigned_abs()))
    } else {
        count(n as u64)
    }
}

/// A rate per second, rounded to a whole count (`5,213,004`); `-` when unknown.
pub fn rate(per_second: f64) -> String {
    if per_second.is_finite() && per_second >= 0.0 {
        count(per_second.round() as u64)
    } else {
        "-".into()
    }
}

/// `amount` per `took`, as `rate` writes it.
pub fn rate_over(amount: u64, took: Duration) -> String {
    let s = took.as_secs_f64();
    if s <= 0.0 {
        "-".into()
    } else {
        rate(amount as f64 / s)
    }
}

/// A duration in seconds with two decimals (`8.81s`).
pub fn seconds(d: Duration) -> String {
    format!("{:.2}s", d.as_secs_f64())
}

/// Reads a positive rate a user typed: a number (`1200000`, `1.2e6`) or one with a
/// suffix of K, M or G (thousands, millions, billions; `1.2M`); commas are allowed.
pub fn parse_rate(text: &str) -> Result<f64, String> {
    let t = text.trim().replace(',', "");
    let (digits, scale) = match t.char_indices().last() {
        Some((i, 'k' | 'K')) => (&t[..i], 1e3),
        Some((i, 'm' | 'M')) => (&t[..i], 1e6),
        Some((i, 'g' | 'G')) => (&t[..i], 1e9),
        _ => (t.as_str(), 1.0),
    };
    match digits.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && (x * scale).is_finite() => Ok(x * scale),
        _ => Err(format!(
            "`{text}` is not a rate: give positions per CPU-second as a positive number, \
             such as 1500000 or 1.5M"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_every_three_digits() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(86_093_442), "86,093,442");
        assert_eq!(count(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(signed(-1024), "-1,024");
        assert_eq!(signed(7), "7");
        assert_eq!(rate(134_612.6), "134,613");
        assert_eq!(rate(f64::NAN), "-");
        assert_eq!(rate_over(10, Duration::ZERO), "-");
        assert_eq!(seconds(Duration::from_millis(8812)), "8.81s");
    }

    #[test]
    fn rates_read_back() {
        assert_eq!(parse_rate("1200000"), Ok(1_200_000.0));
        assert_eq!(parse_rate("1,200,000"), Ok(1_200_000.0));
        assert_eq!(parse_rate("1.5M"), Ok(1_500_000.0));
        assert_eq!(parse_rate("250k"), Ok(250_000.0));
        assert_eq!(parse_rate("2G"), Ok(2e9));
        assert_eq!(parse_rate("1.2e6"), Ok(1_200_000.0));
        for bad in ["", "M", "0", "-5", "nan", "inf", "1.5X", "1e400", "fast"] {
            let e = parse_rate(bad).unwrap_err();
            assert!(e.contains("not a rate"), "{bad}: {e}");
        }
    }
}
