//! Floor 1 (a leaf): readers of record values that more than one layer needs: `parse` checks
//! a Crawl-delay with them (to warn about an unreadable one) and `decide` reads it. Imports
//! nothing of the crate.

/// A non-negative decimal number of seconds (`10`, `0.5`, `1.`); anything else is `None`.
/// Written out rather than `str::parse::<f64>` to keep float parsing out of the wasm build.
pub(crate) fn parse_seconds(value: &[u8]) -> Option<f64> {
    let (int, frac) = match value.iter().position(|&b| b == b'.') {
        Some(i) => (&value[..i], &value[i + 1..]),
        None => (value, &b""[..]),
    };
    if int.is_empty() && frac.is_empty() || int.len() > 12 {
        return None;
    }
    let mut whole: u64 = 0;
    for &b in int {
        if !b.is_ascii_digit() {
            return None;
        }
        whole = whole * 10 + u64::from(b - b'0');
    }
    let mut fraction = 0.0;
    let mut scale = 0.1;
    for &b in frac {
        if !b.is_ascii_digit() {
            return None;
        }
        fraction += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    Some(whole as f64 + fraction)
}
