//! The core's tables a crawl audit needs besides verdicts, converted: the fetch policy
//! (`robots_eval::fetch::decide`: what a robots.txt fetch's outcome means) and the AI operator
//! table (`robots_eval::aipref::operators::OPERATORS`). Nothing is decided here.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use robots_eval::aipref::operators::OPERATORS;
use robots_eval::fetch::{self, FetchContext, FetchOutcome};
use robots_eval::DialectId;

use crate::args::{self, type_error, value_error};
use crate::result;

fn dialect_arg(dialect: Option<&Bound<'_, PyAny>>, where_: &str) -> PyResult<DialectId> {
    match dialect {
        Some(d) if !d.is_none() => args::dialect(d, where_),
        _ => Ok(DialectId::default()),
    }
}

/// An int argument (not a bool).
fn int<'py>(value: &Bound<'py, PyAny>, where_: &str, what: &str) -> PyResult<()> {
    if value.is_instance_of::<pyo3::types::PyBool>()
        || !value.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(type_error(where_, what, value));
    }
    Ok(())
}

/// The core's outcomes without a response, by the names `fetch_policy(failure=)` takes.
const FAILURES: [(&str, FetchOutcome); 3] = [
    ("network-error", FetchOutcome::NetworkError),
    ("timeout", FetchOutcome::Timeout),
    ("too-many-redirects", FetchOutcome::TooManyRedirects),
];

/// What a robots.txt fetch's outcome means for the crawler: `status` the HTTP status (None: no
/// usable response, then `failure` says why: a network error unless told), `redirects` how many
/// redirects were followed to reach it. A first fetch with no cached copy (the core's
/// `FetchContext::default()`).
#[pyfunction]
#[pyo3(signature = (status, *, dialect = None, redirects = None, failure = None))]
fn fetch_policy<'py>(
    py: Python<'py>,
    status: Option<&Bound<'py, PyAny>>,
    dialect: Option<&Bound<'py, PyAny>>,
    redirects: Option<&Bound<'py, PyAny>>,
    failure: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let where_ = "fetch_policy(status)";
    let dialect = dialect_arg(dialect, where_)?;
    let failure = match failure {
        Some(f) if !f.is_none() => {
            let name = args::text(f, where_, "failure")?;
            let Some(&(_, outcome)) = FAILURES.iter().find(|(n, _)| *n == name) else {
                let names: Vec<&str> = FAILURES.iter().map(|(n, _)| *n).collect();
                return Err(value_error(
                    where_,
                    &format!(
                        "unknown failure {name:?}; the failures are {}",
                        names.join(", ")
                    ),
                ));
            };
            Some(outcome)
        }
        _ => None,
    };
    let outcome = match status {
        Some(s) if !s.is_none() => {
            if failure.is_some() {
                return Err(value_error(
                    where_,
                    "give a status (a response came) or a failure (none came), not both",
                ));
            }
            int(
                s,
                where_,
                "status must be an int (an HTTP status) or None (no response)",
            )?;
            let code = s
                .extract::<u16>()
                .ok()
                .filter(|c| (100..=999).contains(c))
                .ok_or_else(|| {
                    value_error(
                        where_,
                        &format!("status must be an HTTP status (100-999), got {s}"),
                    )
                })?;
            FetchOutcome::Status(code)
        }
        _ => failure.unwrap_or(FetchOutcome::NetworkError),
    };
    let redirects_followed = match redirects {
        Some(r) if !r.is_none() => {
            int(r, where_, "redirects must be an int")?;
            if r.lt(0)? {
                return Err(value_error(where_, "redirects must not be negative"));
            }
            r.extract::<u8>().unwrap_or(u8::MAX)
        }
        _ => 0,
    };
    let ctx = FetchContext {
        redirects_followed,
        ..FetchContext::default()
    };
    let d = fetch::decide(dialect, &outcome, &ctx);
    let out = PyDict::new(py);
    out.set_item("policy", d.policy.name())?;
    out.set_item("reason", d.reason)?;
    out.set_item("message", d.message)?;
    out.set_item("source", d.source)?;
    out.set_item("dialect", dialect.name())?;
    // The rules to obey when the policy gives no file (`Policy::rules`), as bytes for a column.
    out.set_item("rules", d.policy.rules().map(|r| PyBytes::new(py, r)))?;
    result(py, "_fetch_decision", out.into_any())
}

/// How many consecutive redirects the dialect follows before the chain counts as too many.
#[pyfunction]
#[pyo3(signature = (dialect = None))]
fn redirect_limit(dialect: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    Ok(fetch::redirect_limit(dialect_arg(
        dialect,
        "redirect_limit(dialect)",
    )?))
}

/// The AI operator table: every token the core knows, with its operator, kind, purposes.
#[pyfunction]
fn operators(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let mut rows = Vec::with_capacity(OPERATORS.len());
    for o in &OPERATORS {
        let d = PyDict::new(py);
        d.set_item("token", o.token)?;
        d.set_item("operator", o.operator)?;
        d.set_item("kind", o.kind.as_str())?;
        let purposes: Vec<&str> = o.purposes.iter().map(|p| p.label()).collect();
        d.set_item("purposes", PyTuple::new(py, purposes)?)?;
        d.set_item("dedicated", o.dedicated)?;
        d.set_item("fetched_by", o.fetched_by)?;
        d.set_item("robots_txt", o.robots_txt)?;
        d.set_item("source", o.source)?;
        rows.push(result(py, "_operator", d.into_any())?);
    }
    PyTuple::new(py, rows)
}

/// The robots.txt a crawler obeys under a policy that gives no file (allow-all: none;
/// disallow-all and defer: a complete disallow), parsed in the dialect.
pub fn rules_for(policy: &Bound<'_, PyAny>, where_: &str) -> PyResult<&'static [u8]> {
    let name = args::text(policy, where_, "policy")?;
    let names: Vec<&str> = fetch::Policy::ALL.iter().map(|p| p.name()).collect();
    let p = fetch::Policy::from_name(name).ok_or_else(|| {
        value_error(
            where_,
            &format!(
                "unknown policy {name:?}; the policies are {}",
                names.join(", ")
            ),
        )
    })?;
    p.rules().ok_or_else(|| {
        value_error(
            where_,
            &format!("policy {name:?} obeys a file (the body fetched, the redirect's target, the cached copy): parse that with Robots.parse"),
        )
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fetch_policy, m)?)?;
    m.add_function(wrap_pyfunction!(redirect_limit, m)?)?;
    m.add_function(wrap_pyfunction!(operators, m)?)?;
    Ok(())
}
