//! Lifecycle, floor 6: the date readers of the lifecycle: HTTP-date (RFC 9110 §5.6.7) for
//! `fetch` (`Retry-After`, `Expires`, `Date`), the lenient dates of `unavailable_after` for
//! `meta`, and the token and digit readers both share. Pure functions over bytes; uses nothing of
//! the core.

/// Milliseconds in a day.
pub(crate) const DAY_MS: u64 = 86_400_000;

/// Parses an HTTP-date into milliseconds since the Unix epoch (negative before 1970).
///
/// Accepts the three formats of RFC 9110 §5.6.7:
/// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850)
/// and `Sun Nov  6 08:49:37 1994` (asctime). As "recipients ... are encouraged to be robust",
/// names are case-insensitive, runs of spaces count as one, either day-name form is accepted
/// with either comma format, `UTC`/`UT` are read as `GMT`, and the day name is not checked
/// against the date. A two-digit RFC 850 year that "appears to be more than 50 years in the
/// future" is moved back a century, measured from `now_ms`. Returns `None` for anything else,
/// including impossible dates (`31 Feb`) and times (`24:00:00`); a leap second `:60` is accepted.
#[must_use]
pub fn parse_http_date(value: &str, now_ms: u64) -> Option<i64> {
    let tokens = Tokens::split(value.as_bytes(), false)?;
    let (day, mon, year, time) = match *tokens.as_slice() {
        // IMF-fixdate: day-name "," SP date1 SP time-of-day SP GMT
        [wd, day, mon, year, time, zone] => {
            weekday(wd.strip_suffix(b",")?)?;
            gmt(zone)?;
            (day, mon, four_digit_year(year)?, time)
        }
        // rfc850-date: day-name-l "," SP date2 SP time-of-day SP GMT
        [wd, date, time, zone] if wd.ends_with(b",") => {
            weekday(wd.strip_suffix(b",")?)?;
            gmt(zone)?;
            let (day, mon, year) = dashed(date)?;
            let year = read_year(year, |yy| two_digit_year_rfc9110(yy, now_ms))?;
            (day, mon, year, time)
        }
        // asctime-date: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP year
        [wd, mon, day, time, year] => {
            weekday(wd)?;
            (day, mon, four_digit_year(year)?, time)
        }
        _ => return None,
    };
    let (h, mi, s) = hms(time, false)?;
    civil_to_ms(year, month(mon)?, two_digits(day)?, h, mi, s)
}

/// The day, month and year of an RFC 850 date (`06-Nov-94`).
fn dashed(date: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let mut parts = date.split(|&c| c == b'-');
    let dmy = (parts.next()?, parts.next()?, parts.next()?);
    parts.next().is_none().then_some(dmy)
}

/// A year of four digits.
fn four_digit_year(v: &[u8]) -> Option<i64> {
    if v.len() == 4 {
        digits(v).map(i64::from)
    } else {
        None
    }
}

/// A year of four digits, or of two as `two_digit` reads them (RFC 9110 measures from the
/// clock, RFC 5322 from a fixed pivot).
fn read_year(v: &[u8], two_digit: impl FnOnce(u32) -> i64) -> Option<i64> {
    if v.len() == 2 {
        digits(v).map(two_digit)
    } else {
        four_digit_year(v)
    }
}

/// Up to eight whitespace-separated tokens, without allocating. `commas` also splits after a
/// comma (the comma stays on the token before it).
pub(crate) struct Tokens<'a> {
    items: [&'a [u8]; 8],
    len: usize,
}

impl<'a> Tokens<'a> {
    /// `None` when there are more than eight tokens.
    pub(crate) fn split(v: &'a [u8], commas: bool) -> Option<Tokens<'a>> {
        let mut out = Tokens {
            items: [&[]; 8],
            len: 0,
        };
        let mut i = 0usize;
        while i < v.len() {
            while v.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
                i = i.saturating_add(1);
            }
            if i >= v.len() {
                break;
            }
            let start = i;
            while let Some(&c) = v.get(i) {
                if c.is_ascii_whitespace() {
                    break;
                }
                i = i.saturating_add(1);
                if commas && c == b',' {
                    break;
                }
            }
            let slot = out.items.get_mut(out.len)?;
            *slot = v.get(start..i)?;
            out.len = out.len.saturating_add(1);
        }
        Some(out)
    }

    pub(crate) fn as_slice(&self) -> &[&'a [u8]] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// All ASCII digits, at most nine of them, as a number.
pub(crate) fn digits(v: &[u8]) -> Option<u32> {
    if v.is_empty() || v.len() > 9 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u32, |acc, &c| {
        acc.saturating_mul(10)
            .saturating_add(u32::from(c.wrapping_sub(b'0')))
    }))
}

/// One or two digits.
pub(crate) fn two_digits(v: &[u8]) -> Option<u32> {
    if v.len() > 2 {
        return None;
    }
    digits(v)
}

/// `GMT`; robustly also `UTC` and `UT` (they are the same zone).
fn gmt(v: &[u8]) -> Option<()> {
    (v.eq_ignore_ascii_case(b"GMT")
        || v.eq_ignore_ascii_case(b"UTC")
        || v.eq_ignore_ascii_case(b"UT"))
    .then_some(())
}

/// A day name, short (`Sun`) or long (`Sunday`), case-insensitive. The index is not used: the
/// standards do not ask recipients to check it.
pub(crate) fn weekday(v: &[u8]) -> Option<()> {
    const DAYS: [&[u8]; 7] = [
        b"monday",
        b"tuesday",
        b"wednesday",
        b"thursday",
        b"friday",
        b"saturday",
        b"sunday",
    ];
    DAYS.iter()
        .any(|d| d.eq_ignore_ascii_case(v) || d.get(..3).is_some_and(|s| s.eq_ignore_ascii_case(v)))
        .then_some(())
}

/// `Jan` .. `Dec` (case-insensitive) as 1..=12.
pub(crate) fn month(v: &[u8]) -> Option<u32> {
    const MONTHS: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    let mut n = 0u32;
    for m in MONTHS {
        n = n.saturating_add(1);
        if m.eq_ignore_ascii_case(v) {
            return Some(n);
        }
    }
    None
}

/// `HH:MM:SS` with two digits each (RFC 9110), or with `lenient` also `H:MM`, `HH:MM` and a
/// fraction after the seconds (`.123`, ignored).
pub(crate) fn hms(v: &[u8], lenient: bool) -> Option<(u32, u32, u32)> {
    let mut parts = v.split(|&c| c == b':');
    let h = parts.next()?;
    let m = parts.next()?;
    let s = parts.next();
    if parts.next().is_some() {
        return None;
    }
    let (h, m, s) = if lenient {
        let s = match s {
            None => 0,
            Some(s) => {
                let whole = s.split(|&c| c == b'.' || c == b',').next()?;
                let frac_ok = s
                    .get(whole.len().saturating_add(1)..)
                    .is_none_or(|f| f.iter().all(u8::is_ascii_digit));
                if whole.len() != 2 || !frac_ok {
                    return None;
                }
                digits(whole)?
            }
        };
        if m.len() != 2 {
            return None;
        }
        (two_digits(h)?, digits(m)?, s)
    } else {
        let s = s?;
        if h.len() != 2 || m.len() != 2 || s.len() != 2 {
            return None;
        }
        (digits(h)?, digits(m)?, digits(s)?)
    };
    (h <= 23 && m <= 59 && s <= 60).then_some((h, m, s))
}

/// RFC 9110 §5.6.7: a two-digit year more than 50 years in the future (from `now_ms`) is the
/// most recent past year with those digits.
fn two_digit_year_rfc9110(yy: u32, now_ms: u64) -> i64 {
    let now_year = year_of(now_ms);
    let century = now_year.div_euclid(100).saturating_mul(100);
    let mut year = century.saturating_add(i64::from(yy));
    if year > now_year.saturating_add(50) {
        year = year.saturating_sub(100);
    } else if year <= now_year.saturating_sub(50) {
        year = year.saturating_add(100);
    }
    year
}

/// The proleptic-Gregorian year of a time (H. Hinnant's `civil_from_days`).
#[allow(clippy::arithmetic_side_effects)] // u64 ms / DAY_MS fits i64; the rest is bounded by it.
fn year_of(ms: u64) -> i64 {
    let z = i64::try_from(ms / DAY_MS).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(m <= 2)
}

const fn is_leap(y: i64) -> bool {
    y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0)
}

/// Milliseconds since the epoch of a UTC date and time, or `None` if the date does not exist
/// or the year is outside 0..=9999.
pub(crate) fn civil_to_ms(y: i64, m: u32, d: u32, h: u32, mi: u32, s: u32) -> Option<i64> {
    let days_in_month = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => return None,
    };
    if !(0..=9999).contains(&y) || d == 0 || d > days_in_month || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let secs = i64::from(h)
        .checked_mul(3600)?
        .checked_add(i64::from(mi).checked_mul(60)?)?
        .checked_add(i64::from(s))?;
    days_from_civil(y, m, d)
        .checked_mul(86_400_000)?
        .checked_add(secs.checked_mul(1000)?)
}

/// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
#[allow(clippy::arithmetic_side_effects)] // callers pass 0 <= y <= 9999, 1 <= m <= 12, 1 <= d <= 31.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

// ---------------------------------------------------------------------------------------------
// Dates of unavailable_after (G.4: RFC 822, RFC 850, ISO 8601 "and other widely used formats")
// ---------------------------------------------------------------------------------------------

/// Reads a date leniently: ISO 8601 (`2010-06-25`, `2010-06-25T15:00:00Z`, with `+01:00` or
/// `+0100` offsets and optional fractions), RFC 822/1123 (`[Fri,] 25 Jun 2010 15:00[:00]
/// [zone]`, zone names of RFC 5322 §4.3 or `+hhmm`), RFC 850 (`Friday, 25-Jun-10 ...`) and
/// asctime. A missing zone is UTC (our choice). Two-digit years: 00-49 are 20xx, 50-99 19xx
/// (RFC 5322 §4.3); unlike [`parse_http_date`] there is no clock to measure
/// against.
pub(crate) fn parse_date(value: &str) -> Option<i64> {
    let v = value.trim().as_bytes();
    if v.get(4) == Some(&b'-') && v.get(..4).is_some_and(|y| y.iter().all(u8::is_ascii_digit)) {
        iso8601(v)
    } else {
        rfc_date(v)
    }
}

fn iso8601(v: &[u8]) -> Option<i64> {
    let year = digits(v.get(..4)?)?;
    if v.get(7) != Some(&b'-') {
        return None;
    }
    let m = v.get(5..7)?;
    let d = v.get(8..10)?;
    if m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (mo, da) = (digits(m)?, digits(d)?);
    let rest = v.get(10..)?;
    let Some((&sep, rest)) = rest.split_first() else {
        return civil_to_ms(i64::from(year), mo, da, 0, 0, 0);
    };
    if !matches!(sep, b'T' | b't' | b' ') {
        return None;
    }
    let zone_at = rest
        .iter()
        .position(|&c| matches!(c, b'Z' | b'z' | b'+' | b'-'))
        .unwrap_or(rest.len());
    let (h, mi, s) = hms(rest.get(..zone_at)?, true)?;
    let offset = match rest.get(zone_at..)? {
        [] => 0,
        zone => zone_offset_min(zone)?,
    };
    let t = civil_to_ms(i64::from(year), mo, da, h, mi, s)?;
    t.checked_sub(offset.checked_mul(60_000)?)
}

fn rfc_date(v: &[u8]) -> Option<i64> {
    let tokens = Tokens::split(v, true)?;
    let t = tokens.as_slice();
    let tok = |k: usize| t.get(k).map(|x| x.strip_suffix(b",").unwrap_or(x));
    let mut k = 0usize;
    if tok(0).is_some_and(|w| weekday(w).is_some()) {
        k = 1;
    }
    let first = tok(k)?;
    let (day, mon, year, time);
    if first.contains(&b'-') {
        // RFC 850: 25-Jun-10
        (day, mon, year) = dashed(first)?;
        k = k.checked_add(1)?;
        time = tok(k).filter(|x| x.contains(&b':'));
        k = k.checked_add(usize::from(time.is_some()))?;
    } else if first.first().is_some_and(u8::is_ascii_digit) {
        // RFC 822/1123: 25 Jun 2010
        (day, mon, year) = (first, tok(k.checked_add(1)?)?, tok(k.checked_add(2)?)?);
        k = k.checked_add(3)?;
        time = tok(k).filter(|x| x.contains(&b':'));
        k = k.checked_add(usize::from(time.is_some()))?;
    } else {
        // asctime: Jun 25 15:00:00 2010
        mon = first;
        day = tok(k.checked_add(1)?)?;
        time = Some(tok(k.checked_add(2)?)?);
        year = tok(k.checked_add(3)?)?;
        k = k.checked_add(4)?;
    }
    let offset = match tok(k) {
        None => 0,
        Some(zone) => {
            k = k.checked_add(1)?;
            zone_offset_min(zone)?
        }
    };
    if k != t.len() {
        return None;
    }
    // RFC 5322 §4.3: 00-49 are 20xx, 50-99 19xx.
    let year = read_year(year, |yy| {
        i64::from(yy).saturating_add(if yy < 50 { 2000 } else { 1900 })
    })?;
    let (h, mi, s) = match time {
        Some(x) => hms(x, true)?,
        None => (0, 0, 0),
    };
    let ms = civil_to_ms(year, month(mon)?, two_digits(day)?, h, mi, s)?;
    ms.checked_sub(offset.checked_mul(60_000)?)
}

/// A zone as minutes east of UTC: `Z`, `GMT`, `UT`, `UTC`, the US names of RFC 5322 §4.3, or
/// `+hh`, `+hhmm`, `+hh:mm` (and `-`).
fn zone_offset_min(z: &[u8]) -> Option<i64> {
    const NAMED: [(&[u8], i64); 12] = [
        (b"Z", 0),
        (b"GMT", 0),
        (b"UT", 0),
        (b"UTC", 0),
        (b"EST", -300),
        (b"EDT", -240),
        (b"CST", -360),
        (b"CDT", -300),
        (b"MST", -420),
        (b"MDT", -360),
        (b"PST", -480),
        (b"PDT", -420),
    ];
    if let Some((_, off)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(z)) {
        return Some(*off);
    }
    let (&sign, rest) = z.split_first()?;
    let sign = match sign {
        b'+' => 1i64,
        b'-' => -1,
        _ => return None,
    };
    let (hh, mm): (&[u8], &[u8]) = match rest.len() {
        2 => (rest, b"00"),
        4 => (rest.get(..2)?, rest.get(2..)?),
        5 if rest.get(2) == Some(&b':') => (rest.get(..2)?, rest.get(3..)?),
        _ => return None,
    };
    let (hh, mm) = (i64::from(digits(hh)?), i64::from(digits(mm)?));
    if hh > 23 || mm > 59 {
        return None;
    }
    hh.checked_mul(60)?.checked_add(mm)?.checked_mul(sign)
}
