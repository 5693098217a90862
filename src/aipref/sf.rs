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
    /// Every failure, in declaration order (`as usize` is the index).
    pub const ALL: [Failure; 14] = [
        Failure::NonAscii,
        Failure::KeyStart,
        Failure::ExpectedComma,
        Failure::TrailingComma,
        Failure::BareItem,
        Failure::Digit,
        Failure::Number,
        Failure::UnterminatedString,
        Failure::StringChar,
        Failure::ByteSequence,
        Failure::Boolean,
        Failure::Date,
        Failure::DisplayString,
        Failure::InnerList,
    ];

    /// Every failure's phrase, in the order of [`Failure::ALL`].
    pub const TEXTS: [&'static str; 14] = names!(Failure::ALL, |f| f.as_str());

    /// A phrase for explanations: "the statement did not parse (at byte N: <this>)".
    pub const fn as_str(self) -> &'static str {
        match self {
            Failure::NonAscii => "a non-ASCII byte",
            Failure::KeyStart => "a key must start with a-z or '*'",
            Failure::ExpectedComma => "expected ','",
            Failure::TrailingComma => "nothing after ','",
            Failure::BareItem => "not a value",
            Failure::Digit => "expected a digit",
            Failure::Number => "a bad number",
            Failure::UnterminatedString => "no closing '\"'",
            Failure::StringChar => "a bad character in a string",
            Failure::ByteSequence => "a bad byte sequence",
            Failure::Boolean => "'?' not followed by 0 or 1",
            Failure::Date => "a date must be an integer",
            Failure::DisplayString => "a bad display string",
            Failure::InnerList => "a bad inner list",
        }
    }
}

/// Where and why parsing failed: `offset` counts bytes from the start of the value.
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
    /// Every type, in declaration order (`as usize` is the index).
    pub const ALL: [Type; 9] = [
        Type::Token,
        Type::Boolean,
        Type::Integer,
        Type::Decimal,
        Type::String,
        Type::ByteSequence,
        Type::Date,
        Type::DisplayString,
        Type::InnerList,
    ];

    /// Every type's name, in the order of [`Type::ALL`].
    pub const TEXTS: [&'static str; 9] = names!(Type::ALL, |t| t.as_str());

    pub const fn as_str(self) -> &'static str {
        match self {
            Type::Token => "a token",
            Type::Boolean => "a boolean (a bare key)",
            Type::Integer => "an integer",
            Type::Decimal => "a decimal",
            Type::String => "a string",
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

/// The value being parsed, read one byte at a time.
struct Input<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Input<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) {
        self.at += 1;
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

    /// Consumes the longest run of bytes `keep` accepts.
    fn run(&mut self, keep: fn(u8) -> bool) -> &'a [u8] {
        let start = self.at;
        let rest = self.bytes.get(start..).unwrap_or_default();
        self.at += rest.iter().take_while(|&&b| keep(b)).count();
        self.bytes.get(start..self.at).unwrap_or_default()
    }

    fn skip(&mut self, space: fn(u8) -> bool) {
        while self.peek().is_some_and(space) {
            self.bump();
        }
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
    matches!(b, b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'!' | b'#'..=b'\'' | b'*' | b'+' | b'-' | b'.' | b'/' | b':' | b'^' | b'_' | b'`' | b'|' | b'~')
}

/// What the parsing functions return: the failure alone; its offset is where the input stopped.
type Parsed<T> = Result<T, Failure>;

/// Parses a field value as a Dictionary (RFC 9651 §4.2 with field type "dictionary"), calling
/// `member(key, value)` for each member in order. Parameters are validated and dropped: VOCAB
/// §6.4 ignores them. On failure some members may already have been reported; the caller
/// discards them (VOCAB §6.5.1: no partial result). Several field lines are one value joined
/// with ", " (§4.2; see `attach::parse_header`).
pub fn parse_dictionary<'a>(
    value: &'a [u8],
    member: &mut dyn FnMut(&'a [u8], Value<'a>),
) -> Result<(), Error> {
    let mut input = Input {
        bytes: value,
        at: 0,
    };
    // §4.2 step 1: the whole value must be ASCII, whatever the parse would have met first.
    let parsed = match value.iter().position(|b| !b.is_ascii()) {
        Some(at) => {
            input.at = at;
            Err(Failure::NonAscii)
        }
        None => dictionary(&mut input, member),
    };
    parsed.map_err(|failure| Error {
        offset: u32::try_from(input.at).unwrap_or(u32::MAX),
        failure,
    })
}

/// §4.2.2 (and §4.2's SP around the value: the member loop's OWS takes the trailing SP).
fn dictionary<'a>(
    input: &mut Input<'a>,
    member: &mut dyn FnMut(&'a [u8], Value<'a>),
) -> Parsed<()> {
    input.skip(is_sp);
    while input.peek().is_some() {
        let key = key(input)?;
        let start = input.at;
        let kind = if input.eat(b'=') {
            item_or_inner_list(input)?
        } else {
            parameters(input)?;
            Type::Boolean
        };
        // A Token's text (a Token never has '=' or parameters inside it).
        let token = match kind {
            Type::Token => input.bytes.get(start + 1..input.at).unwrap_or_default(),
            _ => b"",
        };
        let token = token.split(|&b| b == b';').next().unwrap_or_default();
        member(key, Value { kind, token });
        input.skip(is_ows);
        match input.peek() {
            None => break,
            Some(b',') => input.bump(),
            Some(_) => return Err(Failure::ExpectedComma),
        }
        input.skip(is_ows);
        if input.peek().is_none() {
            return Err(Failure::TrailingComma);
        }
    }
    Ok(())
}

/// §4.2.3.3.
fn key<'a>(input: &mut Input<'a>) -> Parsed<&'a [u8]> {
    if !input.peek().is_some_and(is_key_start) {
        return Err(Failure::KeyStart);
    }
    Ok(input.run(is_key_char))
}

/// §4.2.1.1 (Item) or §4.2.1.2 (Inner List).
fn item_or_inner_list(input: &mut Input<'_>) -> Parsed<Type> {
    let kind = if input.eat(b'(') {
        loop {
            input.skip(is_sp);
            if input.eat(b')') {
                break Type::InnerList;
            }
            bare_item(input)?;
            parameters(input)?;
            if !matches!(input.peek(), Some(b' ' | b')')) {
                return Err(Failure::InnerList);
            }
        }
    } else {
        bare_item(input)?
    };
    parameters(input)?;
    Ok(kind)
}

/// §4.2.3.2: every `;` is followed by a key, then optionally `=` and a bare item.
fn parameters(input: &mut Input<'_>) -> Parsed<()> {
    while input.eat(b';') {
        input.skip(is_sp);
        key(input)?;
        if input.eat(b'=') {
            bare_item(input)?;
        }
    }
    Ok(())
}

/// §4.2.3.1: the type of the bare item that starts here, consumed.
fn bare_item(input: &mut Input<'_>) -> Parsed<Type> {
    let Some(first) = input.peek() else {
        return Err(Failure::BareItem);
    };
    if first == b'-' || first.is_ascii_digit() {
        return number(input);
    }
    if first.is_ascii_alphabetic() || first == b'*' {
        input.run(is_token_char);
        return Ok(Type::Token);
    }
    input.bump();
    match first {
        b'"' => string(input),
        b':' => byte_sequence(input),
        b'?' => match input.next_byte() {
            Some(b'0' | b'1') => Ok(Type::Boolean),
            _ => Err(Failure::Boolean),
        },
        b'@' => match number(input)? {
            Type::Integer => Ok(Type::Date),
            _ => Err(Failure::Date),
        },
        b'%' => display_string(input),
        _ => {
            input.at -= 1;
            Err(Failure::BareItem)
        }
    }
}

/// §4.2.4: Integer (at most 15 digits) or Decimal (at most 12 digits, `.`, 1 to 3 digits).
fn number(input: &mut Input<'_>) -> Parsed<Type> {
    input.eat(b'-');
    let integer = input.run(|b| b.is_ascii_digit()).len();
    if integer == 0 {
        return Err(Failure::Digit);
    }
    if integer > 15 {
        return Err(Failure::Number);
    }
    if !input.eat(b'.') {
        return Ok(Type::Integer);
    }
    if integer > 12 || !(1..=3).contains(&input.run(|b| b.is_ascii_digit()).len()) {
        return Err(Failure::Number);
    }
    Ok(Type::Decimal)
}

/// §4.2.5, after the opening `"`: printable ASCII, with `\"` and `\\` escapes.
fn string(input: &mut Input<'_>) -> Parsed<Type> {
    loop {
        match input.next_byte() {
            None => return Err(Failure::UnterminatedString),
            Some(b'"') => return Ok(Type::String),
            Some(b'\\') => match input.peek() {
                None => return Err(Failure::UnterminatedString),
                Some(b'"' | b'\\') => input.bump(),
                Some(_) => return Err(Failure::StringChar),
            },
            Some(0x20..=0x7E) => {}
            Some(_) => {
                input.at -= 1;
                return Err(Failure::StringChar);
            }
        }
    }
}

/// §4.2.7, after the opening `:`: base64 up to the closing `:`. Missing `=` padding and non-zero
/// pad bits are accepted, as the section recommends; a `=` before the end, or a length no
/// decoding can give, fails.
fn byte_sequence(input: &mut Input<'_>) -> Parsed<Type> {
    let data = input
        .run(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
        .len();
    let padding = input.run(|b| b == b'=').len();
    let valid = input.eat(b':')
        && data % 4 != 1
        && (padding == 0 || (padding <= 2 && (data + padding) % 4 == 0));
    if valid {
        Ok(Type::ByteSequence)
    } else {
        Err(Failure::ByteSequence)
    }
}

/// §4.2.10, after the `%`: `"`, then printable ASCII with `%xx` (lower-case hex) escapes, then
/// `"`; the bytes must be UTF-8 (each character's, at most 4, checked as it completes).
fn display_string(input: &mut Input<'_>) -> Parsed<Type> {
    if !input.eat(b'"') {
        return Err(Failure::DisplayString);
    }
    let mut char = [0u8; 4];
    let mut len = 0;
    loop {
        let byte = match input.next_byte() {
            Some(b'"') if len == 0 => return Ok(Type::DisplayString),
            Some(b'%') => {
                let hi = input.next_byte().and_then(lower_hex);
                let lo = input.next_byte().and_then(lower_hex);
                match (hi, lo) {
                    (Some(hi), Some(lo)) => (hi << 4) | lo,
                    _ => return Err(Failure::DisplayString),
                }
            }
            Some(b @ 0x20..=0x7E) if b != b'"' => b,
            _ => return Err(Failure::DisplayString),
        };
        if let Some(slot) = char.get_mut(len) {
            *slot = byte;
            len += 1;
        }
        match core::str::from_utf8(char.get(..len).unwrap_or_default()) {
            Ok(_) => len = 0,
            // An incomplete character: wait for its next byte.
            Err(e) if e.error_len().is_none() && len < char.len() => {}
            Err(_) => return Err(Failure::DisplayString),
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
