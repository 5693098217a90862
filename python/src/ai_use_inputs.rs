//! The keyword arguments of `Robots.ai_use`, checked as the npm package's `aiUse` options
//! (js/rich.js `aiUseInputs`) and held for `robots_eval::ai_use::AiUseInputs`.

use pyo3::prelude::*;
use pyo3::types::{PyMapping, PySequence, PyString};
use robots_eval::ai_use::{AiUseInputs, RobotsFetch};
use robots_eval::aipref::operators::Purpose;
use robots_eval::fetch::{self, FetchContext, FetchOutcome};
use robots_eval::DialectId;

use crate::args::{self, text, type_error, value_error};

/// The page-level inputs, owned.
pub struct Inputs {
    headers: Vec<(String, String)>,
    html: Option<Vec<u8>>,
    tdmrep: Option<Vec<u8>>,
    purposes: Option<Vec<Purpose>>,
    policy_tokens: Vec<String>,
    robots_fetch: Option<RobotsFetch>,
}

impl Inputs {
    /// `f` with the inputs as the core takes them (borrowed views of what is owned here).
    pub fn with<R>(&self, f: impl FnOnce(&AiUseInputs<'_>) -> R) -> R {
        let headers: Vec<(&str, &str)> = self
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let tokens: Vec<&str> = self.policy_tokens.iter().map(String::as_str).collect();
        f(&AiUseInputs {
            headers: &headers,
            html: self.html.as_deref(),
            tdmrep: self.tdmrep.as_deref(),
            purposes: self.purposes.as_deref(),
            policy_tokens: &tokens,
            robots_fetch: self.robots_fetch,
        })
    }
}

fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

/// Text or bytes as bytes, at most `limit` + 1 of them (one more tells the core there was more).
fn capped(value: &Bound<'_, PyAny>, limit: usize, where_: &str, name: &str) -> PyResult<Vec<u8>> {
    let body = args::body(value, where_, limit).map_err(|e| {
        if e.is_instance_of::<pyo3::exceptions::PyTypeError>(value.py()) {
            type_error(
                where_,
                &format!("{name} must be bytes, bytearray, memoryview or str"),
                value,
            )
        } else {
            e
        }
    })?;
    let b = body.bytes();
    Ok(b[..b.len().min(limit.saturating_add(1))].to_vec())
}

/// A list of str (or one str).
fn strings(
    value: &Bound<'_, PyAny>,
    where_: &str,
    name: &str,
    what: &str,
) -> PyResult<Vec<String>> {
    if value.cast::<PyString>().is_ok() {
        return Ok(vec![text(value, where_, name)?.to_owned()]);
    }
    let Ok(seq) = value.cast::<PySequence>() else {
        return Err(type_error(where_, &format!("{name} must be {what}"), value));
    };
    let mut out = Vec::new();
    for (i, item) in seq.try_iter()?.enumerate() {
        out.push(text(&item?, where_, &format!("{name}[{i}]"))?.to_owned());
    }
    Ok(out)
}

/// The response headers as field lines: a mapping of names to a str or a list of str (one per
/// field line), or a sequence of (name, value) pairs. Names in any case.
fn headers(value: &Bound<'_, PyAny>, where_: &str) -> PyResult<Vec<(String, String)>> {
    let what = "headers must be a mapping of names to str (or lists of str) or a sequence of (name, value) pairs";
    let mut out = Vec::new();
    if let Ok(map) = value.cast::<PyMapping>() {
        for item in map.items()?.try_iter()? {
            let item = item?;
            let (name, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let name = text(&name, where_, "a header name")?.to_owned();
            for line in strings(
                &v,
                where_,
                &format!("headers[{name:?}]"),
                "a str or a list of str",
            )? {
                out.push((name.clone(), line));
            }
        }
        return Ok(out);
    }
    if value.cast::<PyString>().is_ok() {
        return Err(type_error(where_, what, value));
    }
    let Ok(seq) = value.cast::<PySequence>() else {
        return Err(type_error(where_, what, value));
    };
    for (i, pair) in seq.try_iter()?.enumerate() {
        let pair = pair?;
        let Ok(p) = pair.cast::<PySequence>() else {
            return Err(type_error(
                where_,
                &format!("headers[{i}] must be a (name, value) pair"),
                &pair,
            ));
        };
        if pair.cast::<PyString>().is_ok() || p.len()? != 2 {
            return Err(type_error(
                where_,
                &format!("headers[{i}] must be a (name, value) pair"),
                &pair,
            ));
        }
        let name = text(&p.get_item(0)?, where_, &format!("headers[{i}][0]"))?.to_owned();
        let v = text(&p.get_item(1)?, where_, &format!("headers[{i}][1]"))?.to_owned();
        out.push((name, v));
    }
    Ok(out)
}

/// How the robots.txt was fetched: its HTTP status (0: no response), read as the core's fetch
/// policy reads it for the file's dialect (`fetch::decide`), as the npm package's `fetchRobots`.
fn robots_fetch(
    status: &Bound<'_, PyAny>,
    dialect: DialectId,
    where_: &str,
) -> PyResult<RobotsFetch> {
    if status.is_instance_of::<pyo3::types::PyBool>()
        || !status.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(type_error(
            where_,
            "robots_status must be an int (an HTTP status, 0 for no response)",
            status,
        ));
    }
    let status = status
        .extract::<u16>()
        .ok()
        .filter(|s| *s == 0 || (100..=999).contains(s))
        .ok_or_else(|| value_error(where_, &format!("robots_status must be an HTTP status (100-999) or 0 for no response, got {status}")))?;
    let status = (status != 0).then_some(status);
    let outcome = status.map_or(FetchOutcome::NetworkError, FetchOutcome::Status);
    let d = fetch::decide(dialect, &outcome, &FetchContext::default());
    Ok(RobotsFetch {
        status,
        policy: d.policy,
        reason: d.reason,
    })
}

#[allow(clippy::too_many_arguments)]
pub fn read(
    where_: &str,
    dialect: DialectId,
    robots_status: Option<&Bound<'_, PyAny>>,
    headers_arg: Option<&Bound<'_, PyAny>>,
    html: Option<&Bound<'_, PyAny>>,
    tdmrep: Option<&Bound<'_, PyAny>>,
    purposes: Option<&Bound<'_, PyAny>>,
    policy_tokens: Option<&Bound<'_, PyAny>>,
) -> PyResult<Inputs> {
    let purposes = match given(purposes) {
        None => None,
        Some(p) => {
            let labels = strings(
                p,
                where_,
                "purposes",
                "a list of purpose labels ('train-ai', 'ai-use', 'search')",
            )?;
            let mut out = Vec::with_capacity(labels.len());
            for label in labels {
                out.push(Purpose::from_label(&label).ok_or_else(|| {
                    value_error(
                        where_,
                        &format!("purposes: unknown purpose {label:?}; the purposes are 'train-ai', 'ai-use' and 'search'"),
                    )
                })?);
            }
            Some(out)
        }
    };
    Ok(Inputs {
        headers: given(headers_arg).map_or(Ok(Vec::new()), |h| headers(h, where_))?,
        html: given(html)
            .map(|h| capped(h, robots_eval::meta::HEAD_SCAN_LIMIT, where_, "html"))
            .transpose()?,
        tdmrep: given(tdmrep)
            .map(|t| capped(t, robots_eval::tdmrep::MAX_FILE_BYTES, where_, "tdmrep"))
            .transpose()?,
        purposes,
        policy_tokens: given(policy_tokens).map_or(Ok(Vec::new()), |t| {
            strings(t, where_, "policy_tokens", "a list of str")
        })?,
        robots_fetch: given(robots_status)
            .map(|s| robots_fetch(s, dialect, where_))
            .transpose()?,
    })
}
