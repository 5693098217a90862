//! An RFC 9651 (Structured Field Values) Dictionary parser: what VOCAB §6.5 runs on every
//! statement of preference, in robots.txt and in the `Content-Usage` header alike.
//!
//! It validates the whole grammar (every bare item type, inner lists, parameters), because any
//! failure anywhere makes the whole statement unknown (VOCAB §6.5.1), and reports each member
//! to a callback instead of building a map: the caller keeps only what it knows (the vocabulary's
//! categories), so parsing allocates nothing and the last duplicate key wins by overwriting.
//!
//! Linear time on any input: one pass, one byte of lookahead, no backtracking, and nothing kept
//! per parameter or per member (a parser that deduplicates keys by scanning the ones it kept is
//! quadratic on 64 KiB of distinct parameters).
//!
//! Several field lines are parsed as one value joined with ", " (RFC 9651 §4.2, RFC 9110 §5.3),
//! without copying them: the input is a list of segments read in turn.

/// Why a value is not a Structured Field Dictionary: the failure points of RFC 9651 §4.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// §4.2 step 1: conversion to ASCII fails.
    NonAscii,
    /// §4.2.3.3: a key starts with `a-z` or `*` (an uppercase letter is neither).
    KeyStart,
    /// §4.2.2: after a member, only optional whitespace then `,` or the end may follow.
    ExpectedComma,
    /// §4.2.2: a `,` must be followed by another member.
    TrailingComma,
    /// §4.2.3.1: nothing a bare item starts with (`-`, a digit, `"`, a letter, `*`, `:`, `?`,
    /// `@` or `%`).
    BareItem,
    /// §4.2.4: a number needs a digit (after `-`).
    Digit,
    /// §4.2.4: more than 15 digits, 12 before the `.`, or 3 after it; or a `.` ending it.
    Number,
    /// §4.2.5: a String ends with `"`.
    UnterminatedString,
    /// §4.2.5: a control character in a String, or `\` before anything but `"` and `\`.
    StringChar,
    /// §4.2.7: a Byte Sequence ends with `:` and holds base64.
    ByteSequence,
    /// §4.2.8: `?` is followed by `0` or `1`.
    Boolean,
    /// §4.2.9: a Date is an Integer.
    Date,
    /// §4.2.10: a Display String is `%"`, then `%xx` lower-case hex escapes of UTF-8.
    DisplayString,
    /// §4.2.1.2: items of an Inner List are separated by SP and the list ends with `)`.
    InnerList,
}

impl Failure {
    /// A phrase for explanations: "the statement did not parse (at byte N: <this>)".
    pub const fn as_str(self) -> &'static str {
        match self {
            Failure::NonAscii => "a byte outside ASCII",
            Failure::KeyStart => "a key must start with a-z or '*' (no uppercase)",
            Failure::ExpectedComma => "expected ',' between members",
            Failure::TrailingComma => "a ',' with no member after it",
            Failure::BareItem => "not the start of a value",
            Failure::Digit => "expected a digit",
            Failure::Number => "a number too long or ending in '.'",
            Failure::UnterminatedString => "a string with no closing '\"'",
            Failure::StringChar => "a character not allowed in a string",
            Failure::ByteSequence => "a byte sequence that is not ':base64:'",
            Failure::Boolean => "'?' not followed by 0 or 1",
            Failure::Date => "a date that is not an integer",
            Failure::DisplayString => "a display string that is not %\"...\" of UTF-8",
            Failure::InnerList => "an inner list without ' ' between items or a closing ')'",
        }
    }
}

/// Where and why parsing failed: `offset` counts bytes from the start of the (joined) value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    pub offset: u32,
    pub failure: Failure,
}

/// The type of a member's value (RFC 9651 §3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Token,
    /// A bare key (`train-ai`) is the Boolean true (§4.2.2).
    Boolean,
    Integer,
    Decimal,
    String,
    ByteSequence,
    Date,
    DisplayString,
    InnerList,
}

impl Type {
    pub const fn as_str(self) -> &'static str {
        match self {
            Type::Token => "a token",
            Type::Boolean => "a boolean (a key with no '=' is true)",
            Type::Integer => "an integer",
            Type::Decimal => "a decimal",
            Type::String => "a string (quoted)",
            Type::ByteSequence => "a byte sequence",
            Type::Date => "a date",
            Type::DisplayString => "a display string",
            Type::InnerList => "an inner list",
        }
    }
}

/// A member's value: its type, and a Token's text (empty for the other types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value<'a> {
    pub kind: Type,
    pub token: &'a [u8],
}

impl Value<'_> {
    const fn of(kind: Type) -> Self {
        Value { kind, token: b"" }
    }
}

/// The bytes of a value given as field lines, joined with ", " (RFC 9110 §5.3), read one at a
/// time. A run of key or token characters never crosses a joint (the joint starts with `,`), so
/// runs are borrowed from one segment.
struct Input<'a> {
    lines: &'a [&'a [u8]],
    /// The segment being read: a line, or the joint between two lines.
    segment: &'a [u8],
    at: usize,
    /// The next line to read after the current segment.
    next: usize,
    in_joint: bool,
    /// Bytes consumed in all.
    offset: usize,
}

const JOINT: &[u8] = b", ";

impl<'a> Input<'a> {
    fn new(lines: &'a [&'a [u8]]) -> Self {
        Input {
            lines,
            segment: lines.first().copied().unwrap_or_default(),
            at: 0,
            next: 1,
            in_joint: false,
            offset: 0,
        }
    }

    fn peek(&mut self) -> Option<u8> {
        loop {
            if let Some(&b) = self.segment.get(self.at) {
                return Some(b);
            }
            if self.in_joint {
                self.segment = self.lines.get(self.next).copied().unwrap_or_default();
                self.next += 1;
                self.in_joint = false;
            } else if self.next < self.lines.len() {
                self.segment = JOINT;
                self.in_joint = true;
            } else {
                return None;
            }
            self.at = 0;
        }
    }

    fn bump(&mut self) {
        self.at += 1;
        self.offset += 1;
    }

    /// Consumes the next byte if it is `b`.
    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes and returns the next byte.
    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.bump();
        Some(b)
    }

    /// Consumes the longest run of bytes `keep` accepts, within the current segment. `keep` must
    /// reject `,` (the joint's first byte).
    fn run(&mut self, keep: impl Fn(u8) -> bool) -> &'a [u8] {
        let _ = self.peek();
        let segment = self.segment;
        let start = self.at;
        let len = segment
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| keep(b))
            .count();
        self.at += len;
        self.offset += len;
        segment.get(start..start + len).unwrap_or_default()
    }

    fn skip(&mut self, space: impl Fn(u8) -> bool) {
        while self.peek().is_some_and(&space) {
            self.bump();
        }
    }

    fn fail<T>(&self, failure: Failure) -> Result<T, Error> {
        Err(Error {
            offset: u32::try_from(self.offset).unwrap_or(u32::MAX),
            failure,
        })
    }
}

fn is_sp(b: u8) -> bool {
    b == b' '
}

/// OWS: SP or HTAB (RFC 9110 §5.6.3).
fn is_ows(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn is_key_start(b: u8) -> bool {
    b.is_ascii_lowercase() || b == b'*'
}

fn is_key_char(b: u8) -> bool {
    is_key_start(b) || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')
}

/// tchar (RFC 9110 §5.6.2), `:` and `/` (RFC 9651 §4.2.6).
fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~:/".contains(&b)
}

/// Parses `lines` (one field value, or the field lines of one field) as a Dictionary (RFC 9651
/// §4.2 with field type "dictionary"), calling `member(key, value)` for each member in order.
/// Parameters are validated and dropped: VOCAB §6.4 ignores them. On failure some members may
/// already have been reported; the caller discards them (VOCAB §6.5.1: no partial result).
pub fn parse_dictionary<'a>(
    lines: &'a [&'a [u8]],
    mut member: impl FnMut(&'a [u8], Value<'a>),
) -> Result<(), Error> {
    // §4.2 step 1: the whole value must be ASCII, whatever the parse would have met first.
    let mut offset = 0usize;
    for (i, line) in lines.iter().enumerate() {
        if let Some(at) = line.iter().position(|b| !b.is_ascii()) {
            return Err(Error {
                offset: u32::try_from(offset + at).unwrap_or(u32::MAX),
                failure: Failure::NonAscii,
            });
        }
        offset += line.len() + if i + 1 < lines.len() { JOINT.len() } else { 0 };
    }
    let mut input = Input::new(lines);
    input.skip(is_sp);
    // §4.2.2.
    while input.peek().is_some() {
        let key = key(&mut input)?;
        let value = if input.eat(b'=') {
            item_or_inner_list(&mut input)?
        } else {
            parameters(&mut input)?;
            Value::of(Type::Boolean)
        };
        member(key, value);
        input.skip(is_ows);
        match input.peek() {
            None => break,
            Some(b',') => input.bump(),
            Some(_) => return input.fail(Failure::ExpectedComma),
        }
        input.skip(is_ows);
        if input.peek().is_none() {
            return input.fail(Failure::TrailingComma);
        }
    }
    // §4.2 steps 5-6: trailing SP was taken by the member loop's OWS.
    Ok(())
}

/// §4.2.3.3.
fn key<'a>(input: &mut Input<'a>) -> Result<&'a [u8], Error> {
    if !input.peek().is_some_and(is_key_start) {
        return input.fail(Failure::KeyStart);
    }
    Ok(input.run(is_key_char))
}

/// §4.2.1.1 (Item) or §4.2.1.2 (Inner List).
fn item_or_inner_list<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    if input.eat(b'(') {
        loop {
            input.skip(is_sp);
            match input.peek() {
                None => return input.fail(Failure::InnerList),
                Some(b')') => {
                    input.bump();
                    parameters(input)?;
                    return Ok(Value::of(Type::InnerList));
                }
                Some(_) => {
                    bare_item(input)?;
                    parameters(input)?;
                    if !matches!(input.peek(), Some(b' ' | b')')) {
                        return input.fail(Failure::InnerList);
                    }
                }
            }
        }
    }
    let value = bare_item(input)?;
    parameters(input)?;
    Ok(value)
}

/// §4.2.3.2: every `;` is followed by a key, then optionally `=` and a bare item.
fn parameters(input: &mut Input<'_>) -> Result<(), Error> {
    while input.eat(b';') {
        input.skip(is_sp);
        key(input)?;
        if input.eat(b'=') {
            bare_item(input)?;
        }
    }
    Ok(())
}

/// §4.2.3.1.
fn bare_item<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    match input.peek() {
        Some(b'-' | b'0'..=b'9') => number(input),
        Some(b'"') => {
            input.bump();
            string(input)
        }
        Some(b) if b.is_ascii_alphabetic() || b == b'*' => Ok(Value {
            kind: Type::Token,
            token: input.run(is_token_char),
        }),
        Some(b':') => {
            input.bump();
            byte_sequence(input)
        }
        Some(b'?') => {
            input.bump();
            match input.next_byte() {
                Some(b'1') => Ok(Value::of(Type::Boolean)),
                Some(b'0') => Ok(Value::of(Type::Boolean)),
                _ => input.fail(Failure::Boolean),
            }
        }
        Some(b'@') => {
            input.bump();
            match number(input)? {
                Value {
                    kind: Type::Integer,
                    ..
                } => Ok(Value::of(Type::Date)),
                _ => input.fail(Failure::Date),
            }
        }
        Some(b'%') => {
            input.bump();
            display_string(input)
        }
        _ => input.fail(Failure::BareItem),
    }
}

/// §4.2.4: Integer (at most 15 digits) or Decimal (at most 12 digits, `.`, 1 to 3 digits).
fn number<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    input.eat(b'-');
    if !input.peek().is_some_and(|b| b.is_ascii_digit()) {
        return input.fail(Failure::Digit);
    }
    let integer = input.run(|b| b.is_ascii_digit()).len();
    if integer > 15 {
        return input.fail(Failure::Number);
    }
    if !input.eat(b'.') {
        return Ok(Value::of(Type::Integer));
    }
    if integer > 12 {
        return input.fail(Failure::Number);
    }
    let fraction = input.run(|b| b.is_ascii_digit()).len();
    if !(1..=3).contains(&fraction) {
        return input.fail(Failure::Number);
    }
    Ok(Value::of(Type::Decimal))
}

/// §4.2.5, after the opening `"`: printable ASCII, with `\"` and `\\` escapes.
fn string<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    loop {
        match input.peek() {
            None => return input.fail(Failure::UnterminatedString),
            Some(b'"') => {
                input.bump();
                return Ok(Value::of(Type::String));
            }
            Some(b'\\') => {
                input.bump();
                match input.peek() {
                    None => return input.fail(Failure::UnterminatedString),
                    Some(b'"' | b'\\') => input.bump(),
                    Some(_) => return input.fail(Failure::StringChar),
                }
            }
            Some(0x20..=0x7E) => input.bump(),
            Some(_) => return input.fail(Failure::StringChar),
        }
    }
}

/// §4.2.7, after the opening `:`: base64 up to the closing `:`. Missing `=` padding and non-zero
/// pad bits are accepted, as the section recommends; a `=` before the end, or a length no
/// decoding can give, fails.
fn byte_sequence<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    let data = input.run(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    let padding = input.run(|b| b == b'=').len();
    let valid = input.eat(b':')
        && data.len() % 4 != 1
        && (padding == 0 || (padding <= 2 && (data.len() + padding) % 4 == 0));
    if valid {
        Ok(Value::of(Type::ByteSequence))
    } else {
        input.fail(Failure::ByteSequence)
    }
}

/// §4.2.10, after the `%`: `"`, then printable ASCII with `%xx` (lower-case hex) escapes, then
/// `"`; the escaped bytes must be UTF-8 (checked as they come, with nothing kept).
fn display_string<'a>(input: &mut Input<'a>) -> Result<Value<'a>, Error> {
    if !input.eat(b'"') {
        return input.fail(Failure::DisplayString);
    }
    let mut utf8 = Utf8::default();
    loop {
        let byte = match input.next_byte() {
            Some(b'"') if utf8.complete() => return Ok(Value::of(Type::DisplayString)),
            Some(b'%') => {
                let hi = input.next_byte().and_then(lower_hex);
                let lo = input.next_byte().and_then(lower_hex);
                match (hi, lo) {
                    (Some(hi), Some(lo)) => (hi << 4) | lo,
                    _ => return input.fail(Failure::DisplayString),
                }
            }
            Some(b @ 0x20..=0x7E) if b != b'"' => b,
            _ => return input.fail(Failure::DisplayString),
        };
        if !utf8.push(byte) {
            return input.fail(Failure::DisplayString);
        }
    }
}

fn lower_hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// A UTF-8 validator fed one byte at a time (RFC 3629 §4: no overlong forms, no surrogates,
/// nothing above U+10FFFF).
#[derive(Default)]
struct Utf8 {
    /// Continuation bytes still expected, and the range the next one must fall in.
    pending: u8,
    low: u8,
    high: u8,
}

impl Utf8 {
    fn push(&mut self, b: u8) -> bool {
        if self.pending > 0 {
            if b < self.low || b > self.high {
                return false;
            }
            self.pending -= 1;
            (self.low, self.high) = (0x80, 0xBF);
            return true;
        }
        let (pending, low, high) = match b {
            0x00..=0x7F => return true,
            0xC2..=0xDF => (1, 0x80, 0xBF),
            0xE0 => (2, 0xA0, 0xBF),
            0xED => (2, 0x80, 0x9F),
            0xE1..=0xEF => (2, 0x80, 0xBF),
            0xF0 => (3, 0x90, 0xBF),
            0xF1..=0xF3 => (3, 0x80, 0xBF),
            0xF4 => (3, 0x80, 0x8F),
            _ => return false,
        };
        (self.pending, self.low, self.high) = (pending, low, high);
        true
    }

    fn complete(&self) -> bool {
        self.pending == 0
    }
}
