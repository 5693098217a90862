//! Python arguments, checked and read: wrong types are `TypeError`s, bad values `ValueError`s,
//! each naming the call and the argument, as the npm package's messages do (js/common.js).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};
use robots_eval::DialectId;

/// The prefix of every message, as the npm package's.
pub const PREFIX: &str = "robots-eval: ";

/// The type of a wrong argument, for a message: `int`, `NoneType`, ...
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| String::from("?"), |n| n.to_string())
}

pub fn type_error(where_: &str, what: &str, got: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("{PREFIX}{where_}: {what}, got {}", type_name(got)))
}

pub fn type_error_text(where_: &str, message: &str) -> PyErr {
    PyTypeError::new_err(format!("{PREFIX}{where_}: {message}"))
}

pub fn value_error(where_: &str, message: &str) -> PyErr {
    PyValueError::new_err(format!("{PREFIX}{where_}: {message}"))
}

/// A `str` argument as UTF-8. A string with a lone surrogate has no UTF-8 form: a `ValueError`.
pub fn text<'a>(value: &'a Bound<'_, PyAny>, where_: &str, name: &str) -> PyResult<&'a str> {
    let Ok(s) = value.cast::<PyString>() else {
        return Err(type_error(where_, &format!("{name} must be a str"), value));
    };
    s.to_str().map_err(|_| {
        value_error(
            where_,
            &format!("{name} holds a lone surrogate, which has no UTF-8 form"),
        )
    })
}

/// `text` for item `i` of the list argument `list`: the name is only written for an error.
pub fn text_item<'a>(
    value: &'a Bound<'_, PyAny>,
    where_: &str,
    list: &str,
    i: usize,
) -> PyResult<&'a str> {
    match value.cast::<PyString>().map(|s| s.to_str()) {
        Ok(Ok(s)) => Ok(s),
        _ => text(value, where_, &format!("{list}[{i}]")),
    }
}

/// A robots.txt body: `bytes` as they are (no copy), or `str`, `bytearray`, `memoryview` (as
/// bytes: a copy). Only the first `limit` bytes are read (the core's size cap), so only
/// `limit` + 1 are taken from anything copied (one more tells the core the file was longer).
pub enum Body<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Body<'_> {
    pub fn bytes(&self) -> &[u8] {
        match self {
            Body::Borrowed(b) => b,
            Body::Owned(v) => v,
        }
    }
}

pub fn body<'a>(value: &'a Bound<'_, PyAny>, where_: &str, limit: usize) -> PyResult<Body<'a>> {
    let keep = limit.saturating_add(1);
    if let Ok(b) = value.cast::<PyBytes>() {
        return Ok(Body::Borrowed(b.as_bytes()));
    }
    if value.cast::<PyString>().is_ok() {
        return Ok(Body::Borrowed(text(value, where_, "body")?.as_bytes()));
    }
    if let Ok(b) = value.cast::<PyByteArray>() {
        // Copied while the GIL is held: nothing can resize it meanwhile.
        let mut v = b.to_vec();
        v.truncate(keep);
        return Ok(Body::Owned(v));
    }
    if value.cast::<PyMemoryView>().is_ok() {
        let b = value.call_method0("tobytes")?;
        let b = b.cast::<PyBytes>()?;
        let bytes = b.as_bytes();
        return Ok(Body::Owned(bytes[..bytes.len().min(keep)].to_vec()));
    }
    Err(type_error(
        where_,
        "body must be bytes, bytearray, memoryview or str",
        value,
    ))
}

/// A dialect name, in any ASCII case.
pub fn dialect(name: &Bound<'_, PyAny>, where_: &str) -> PyResult<DialectId> {
    let name = text(name, where_, "dialect")?;
    DialectId::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = DialectId::ALL.iter().map(|d| d.name()).collect();
        value_error(
            where_,
            &format!(
                "unknown dialect {name:?}; the dialects are {}",
                names.join(", ")
            ),
        )
    })
}

/// `max_bytes`: a non-negative int; one past what memory can hold means no cap.
pub fn max_bytes(value: &Bound<'_, PyAny>, where_: &str) -> PyResult<usize> {
    // bool is an int subclass in Python; `True` as a size is a mistake.
    if value.is_instance_of::<pyo3::types::PyBool>()
        || !value.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(type_error(where_, "max_bytes must be an int", value));
    }
    if value.lt(0)? {
        return Err(value_error(where_, "max_bytes must not be negative"));
    }
    Ok(value.extract::<usize>().unwrap_or(usize::MAX))
}
