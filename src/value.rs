//! Floor 1 (a leaf): readers of record values that more than one layer needs: `parse` checks
//! Crawl-delay, Request-rate and Host values with them (to warn about an unreadable one) and
//! `decide` and `robots` read them (docs/records.md). Imports nothing of the crate.

/// The longest Crawl-delay read, in seconds: 2^32 - 1 (about 136 years). A larger value is read
/// as this, with a `crawl-delay-capped` diagnostic, rather than dropped (texting_robots reads a
/// `u32` and drops larger values silently).
pub const MAX_CRAWL_DELAY: f64 = 4_294_967_295.0;

/// A non-negative decimal number of seconds (`10`, `0.5`, `1.`, `.5`), and whether it was larger
/// than `MAX_CRAWL_DELAY` (it is then that); anything else is `None`. Written out rather than
/// `str::parse::<f64>` to keep float parsing out of the wasm build.
pub(crate) fn read_seconds(value: &[u8]) -> Option<(f64, bool)> {
    let (int, frac) = match value.iter().position(|&b| b == b'.') {
        Some(i) => (&value[..i], &value[i + 1..]),
        None => (value, &b""[..]),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut whole: u64 = 0;
    for &b in int {
        if !b.is_ascii_digit() {
            return None;
        }
        whole = whole.saturating_mul(10).saturating_add(u64::from(b - b'0'));
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
    let seconds = whole as f64 + fraction;
    Some(if seconds > MAX_CRAWL_DELAY {
        (MAX_CRAWL_DELAY, true)
    } else {
        (seconds, false)
    })
}

/// `read_seconds` without the flag: a Crawl-delay as queries read it.
pub(crate) fn parse_seconds(value: &[u8]) -> Option<f64> {
    read_seconds(value).map(|(seconds, _)| seconds)
}

/// A Request-rate (Conner's extended standard, semantics F.6): at most `requests` documents every
/// `seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestRate {
    pub requests: u32,
    pub seconds: f64,
}

/// `<documents>/<time>[unit]`, the unit `s` (the default), `m`, `h` or `d`, any case: `1/10s`,
/// `1/10m`, `20/1h`, `10/60`. What follows the rate after whitespace (a time window such as
/// `1300-1659`) is not read here; the record keeps it. A rate of no time is `None`.
pub(crate) fn parse_request_rate(value: &[u8]) -> Option<RequestRate> {
    let rate = value.split(|&b| b == b' ' || b == b'\t').next()?;
    let slash = rate.iter().position(|&b| b == b'/')?;
    let (count, time) = (&rate[..slash], &rate[slash + 1..]);
    if count.is_empty() || count.len() > 9 || !count.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let requests = count
        .iter()
        .fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'));
    let (number, unit) = match time.split_last() {
        Some((&u, rest)) if u.is_ascii_alphabetic() => (rest, u.to_ascii_lowercase()),
        _ => (time, b's'),
    };
    let scale = match unit {
        b's' => 1.0,
        b'm' => 60.0,
        b'h' => 3600.0,
        b'd' => 86_400.0,
        _ => return None,
    };
    let (amount, _) = read_seconds(number)?;
    let seconds = amount * scale;
    (seconds > 0.0).then_some(RequestRate { requests, seconds })
}

/// Whether a Host value (Yandex's main-mirror directive) names a host: an optional `http://` or
/// `https://`, then dot-separated labels of letters, digits, `-` and non-ASCII (a host name or an
/// IPv4 address), and an optional `:port`; no path, no space.
pub(crate) fn is_valid_host(value: &[u8]) -> bool {
    let scheme = |s: &[u8]| {
        value
            .get(..s.len())
            .is_some_and(|v| v.eq_ignore_ascii_case(s))
    };
    let rest = match (scheme(b"https://"), scheme(b"http://")) {
        (true, _) => &value[8..],
        (_, true) => &value[7..],
        _ => value,
    };
    // `.` and `:` never first, twice in a row or last; after `:` only digits.
    let mut last = b'.';
    let mut port = false;
    for &b in rest {
        let ok = match b {
            b'.' | b':' => !matches!(last, b'.' | b':') && !port,
            b'0'..=b'9' => true,
            _ => !port && (b.is_ascii_alphabetic() || b == b'-' || b >= 0x80),
        };
        if !ok {
            return false;
        }
        port |= b == b':';
        last = b;
    }
    !matches!(last, b'.' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds() {
        assert_eq!(read_seconds(b"10"), Some((10.0, false)));
        assert_eq!(read_seconds(b".25"), Some((0.25, false)));
        assert_eq!(read_seconds(b"1."), Some((1.0, false)));
        assert_eq!(read_seconds(b"4294967295"), Some((MAX_CRAWL_DELAY, false)));
        assert_eq!(read_seconds(b"4294967296"), Some((MAX_CRAWL_DELAY, true)));
        assert_eq!(read_seconds(&[b'9'; 400]), Some((MAX_CRAWL_DELAY, true)));
        for bad in [&b""[..], b".", b"-1", b"1e3", b"1.2.1", b" 1", b"10s"] {
            assert_eq!(read_seconds(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn request_rates() {
        let rate = |v: &[u8]| parse_request_rate(v).map(|r| (r.requests, r.seconds));
        assert_eq!(rate(b"1/10s"), Some((1, 10.0)));
        assert_eq!(rate(b"1/10M"), Some((1, 600.0)));
        assert_eq!(rate(b"20/1h"), Some((20, 3600.0)));
        assert_eq!(rate(b"10/60"), Some((10, 60.0)));
        assert_eq!(rate(b"3/1d 0000-0600"), Some((3, 86_400.0)));
        assert_eq!(rate(b"1/0.5s"), Some((1, 0.5)));
        for bad in [
            &b""[..],
            b"1/",
            b"/10",
            b"1/0",
            b"1/10x",
            b"x/10",
            b"1/s",
            b"1234567890/1",
        ] {
            assert_eq!(rate(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn hosts() {
        for good in [
            "example.com",
            "https://example.com:8443",
            "HTTP://www.example.net",
            "192.168.0.1:8080",
            "xn--e1afmkfd.xn--p1ai",
            "пример.рф",
        ] {
            assert!(is_valid_host(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "http://bad host/",
            "example.com/",
            "a..b",
            ".a",
            "a.",
            "a:",
            "a:8x",
            "a:80:80",
            "https://",
            "ftp://example.com",
        ] {
            assert!(!is_valid_host(bad.as_bytes()), "{bad}");
        }
    }
}
