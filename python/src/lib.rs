//! `robots_eval._core`: the Python bindings of robots-eval. They convert and call the core,
//! nothing else: verdicts come from `robots_eval::Robots`, the rich answers from
//! `robots_eval::report` (the npm package's rich module serialises the same types), AI use from
//! `Robots::ai_use`. Arguments are checked here (`args`), with the npm package's rules and
//! messages; results that are more than a value go back as dicts in the npm package's JSON shape
//! (`pythonize`), which `robots_eval/_results.py` turns into frozen objects.
//!
//! A `Robots` is frozen and `Sync` (the core's compiled rule sets are made once, race-free), so
//! one parsed file answers from any number of threads; long work runs without the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use robots_eval::{report, DialectId, Options, Selection, DEFAULT_MAX_BYTES};

mod args;
mod arrow;
mod policy;

use args::{text, type_error, value_error, PREFIX};

/// Bodies at least this long are parsed without the GIL (below it, releasing it costs more than
/// the parse).
const DETACH_FROM_BYTES: usize = 16 * 1024;

/// A parsed robots.txt: immutable, shareable between threads.
#[pyclass(frozen, weakref, module = "robots_eval")]
struct Robots {
    robots: robots_eval::Robots,
    /// The site's origin (`scheme://authority`) when `url=` gave it: URLs of another origin are
    /// then refused, as by the npm package.
    origin: Option<String>,
}

/// The agent that decides: a `str` as it is, or of a sequence of product tokens (most specific
/// first) the one `Robots::pick_agent` picks.
enum Agent<'py> {
    One(&'py str),
    Many(Vec<String>),
}

impl Robots {
    fn agent<'a>(&self, agent: &'a Bound<'_, PyAny>, where_: &str) -> PyResult<Agent<'a>> {
        if agent.cast::<PyString>().is_ok() {
            return Ok(Agent::One(text(agent, where_, "agent")?));
        }
        let what = "agent must be a str or a non-empty sequence of str";
        // A sequence, not any iterable: a generator would be used up, bytes are no agents.
        let Ok(seq) = agent.cast::<pyo3::types::PySequence>() else {
            return Err(type_error(where_, what, agent));
        };
        if agent.is_instance_of::<pyo3::types::PyBytes>()
            || agent.is_instance_of::<pyo3::types::PyByteArray>()
        {
            return Err(type_error(where_, what, agent));
        }
        let mut tokens = Vec::new();
        for (i, item) in seq.try_iter()?.enumerate() {
            let item = item?;
            let Ok(s) = item.cast::<PyString>() else {
                return Err(type_error(
                    where_,
                    &format!("{what}; item {i} is not a str"),
                    &item,
                ));
            };
            tokens.push(text(s.as_any(), where_, &format!("agent[{i}]"))?.to_owned());
        }
        if tokens.is_empty() {
            return Err(type_error(
                where_,
                &format!("{what} (most specific first)"),
                agent,
            ));
        }
        Ok(Agent::Many(tokens))
    }

    /// The product token to ask with.
    fn pick<'a>(&self, agent: &'a Agent<'_>) -> &'a str {
        match agent {
            Agent::One(a) => a,
            Agent::Many(tokens) => {
                let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
                let i = self.robots.pick_agent_index(&refs).unwrap_or(0);
                tokens[i].as_str()
            }
        }
    }

    /// The URL argument, checked to be on the file's site when that is known.
    fn url<'a>(&self, url: &'a Bound<'_, PyAny>, where_: &str) -> PyResult<&'a str> {
        let url = text(url, where_, "url")?;
        self.on_site(url, where_)?;
        Ok(url)
    }

    /// A `ValueError` for a URL of another site than the file's (`url=`), as the npm package's
    /// `RangeError`.
    fn on_site(&self, url: &str, where_: &str) -> PyResult<()> {
        let Some(origin) = &self.origin else {
            return Ok(());
        };
        if robots_eval::url::plainly_on_site(origin.as_bytes(), url.as_bytes()) {
            return Ok(());
        }
        // A network-path reference (//host/x) takes the site's scheme, as `new URL(url, origin)`.
        let same = url::Url::parse(origin)
            .ok()
            .and_then(|base| base.join(url).ok())
            .is_some_and(|u| u.origin().ascii_serialization() == *origin);
        if same {
            return Ok(());
        }
        let shown: String = url.chars().take(80).collect();
        let more = if url.chars().nth(80).is_some() {
            format!("... ({} characters)", url.chars().count())
        } else {
            String::new()
        };
        Err(value_error(
            where_,
            &format!(
                "{shown:?}{more} is not on {origin}, the site this robots.txt belongs to; its rules say nothing about other sites (fetch that site's robots.txt)"
            ),
        ))
    }
}

/// `robots_eval._results.<name>(value)`: the frozen result object of a dict.
fn result<'py>(
    py: Python<'py>,
    name: &str,
    value: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    static RESULTS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module =
        RESULTS.get_or_try_init(py, || py.import("robots_eval._results").map(Bound::unbind))?;
    module.bind(py).getattr(name)?.call1((value,))
}

fn to_py<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(format!("{PREFIX}{e}")))
}

#[pymethods]
impl Robots {
    /// Parses a robots.txt (`bytes` as fetched, or `str`) in a dialect.
    #[staticmethod]
    #[pyo3(
        signature = (body, *, dialect = None, url = None, max_bytes = None),
        text_signature = "(body, *, dialect='rfc9309', url=None, max_bytes=512000)"
    )]
    fn parse(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        dialect: Option<&Bound<'_, PyAny>>,
        url: Option<&Bound<'_, PyAny>>,
        max_bytes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Robots> {
        let where_ = "Robots.parse(body)";
        let options = Options {
            dialect: dialect.map_or(Ok(DialectId::default()), |d| args::dialect(d, where_))?,
            max_bytes: max_bytes.map_or(Ok(DEFAULT_MAX_BYTES), |m| args::max_bytes(m, where_))?,
        };
        let origin = match url {
            None => None,
            Some(url) if url.is_none() => None,
            Some(url) => Some(site_origin(url, where_)?),
        };
        let body = args::body(body, where_, options.max_bytes)?;
        let bytes = body.bytes();
        let robots = if bytes.len() >= DETACH_FROM_BYTES {
            py.detach(|| robots_eval::Robots::parse_with(bytes, &options))
        } else {
            robots_eval::Robots::parse_with(bytes, &options)
        };
        Ok(Robots { robots, origin })
    }

    /// The robots.txt a crawler obeys under a fetch policy that gives it no file (`allow-all`:
    /// none; `disallow-all`, `defer`: a complete disallow), as `fetch_policy(...).policy` names it.
    #[staticmethod]
    #[pyo3(signature = (policy, *, dialect = None))]
    fn for_policy(
        policy: &Bound<'_, PyAny>,
        dialect: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Robots> {
        let where_ = "Robots.for_policy(policy)";
        let rules = policy::rules_for(policy, where_)?;
        let dialect = match dialect {
            Some(d) if !d.is_none() => args::dialect(d, where_)?,
            _ => DialectId::default(),
        };
        Ok(Robots {
            robots: robots_eval::Robots::parse_with(rules, &Options::dialect(dialect)),
            origin: None,
        })
    }

    /// May `agent` fetch `url`?
    fn is_allowed(&self, url: &Bound<'_, PyAny>, agent: &Bound<'_, PyAny>) -> PyResult<bool> {
        let where_ = "Robots.is_allowed(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        Ok(self.robots.is_allowed(url, self.pick(&agent)))
    }

    /// The verdict and why (`Explanation`).
    fn explain<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let where_ = "Robots.explain(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        let e = report::explain(&self.robots, url, self.pick(&agent));
        result(py, "_explanation", to_py(py, &e)?)
    }

    /// Whether a group naming the agent itself (not `*`) disallows the URL.
    fn is_explicitly_disallowed(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let where_ = "Robots.is_explicitly_disallowed(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        Ok(self.robots.is_explicitly_disallowed(url, self.pick(&agent)))
    }

    /// Every URL against every agent: rows are URLs, columns agents (`DecisionTable`).
    fn table<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agents: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let where_ = "Robots.table(urls, agents)";
        let list = |items: &Bound<'py, PyAny>, what: &str| -> PyResult<Vec<Bound<'py, PyAny>>> {
            if items.is_instance_of::<PyString>() {
                return Err(type_error(
                    where_,
                    &format!("{what} must be a sequence, not one str"),
                    items,
                ));
            }
            let Ok(seq) = items.cast::<pyo3::types::PySequence>() else {
                return Err(type_error(
                    where_,
                    &format!("{what} must be a sequence"),
                    items,
                ));
            };
            seq.try_iter()?.collect()
        };
        let url_items = list(urls, "urls")?;
        let agent_items = list(agents, "agents")?;
        let mut url_texts = Vec::with_capacity(url_items.len());
        for (i, u) in url_items.iter().enumerate() {
            let u = args::text_item(u, where_, "urls", i)?;
            if self.origin.is_some() {
                self.on_site(u, &format!("{where_}: urls[{i}]"))?;
            }
            url_texts.push(u);
        }
        let mut picked = Vec::with_capacity(agent_items.len());
        for (i, a) in agent_items.iter().enumerate() {
            picked.push(self.agent(a, &format!("{where_}: agents[{i}]"))?);
        }
        let names: Vec<&str> = picked.iter().map(|a| self.pick(a)).collect();
        // Agents that select the same groups get the same verdicts: decided once per distinct
        // selection, each URL read once per row (as the npm package's table).
        let r = &self.robots;
        let mut distinct: Vec<Selection> = Vec::new();
        let columns: Vec<usize> = names
            .iter()
            .map(|a| {
                let s = r.selection(a);
                distinct.iter().position(|&d| d == s).unwrap_or_else(|| {
                    distinct.push(s);
                    distinct.len() - 1
                })
            })
            .collect();
        let cells: Vec<Vec<robots_eval::Verdict>> = py.detach(|| {
            url_texts
                .iter()
                .map(|u| {
                    let path = r.path(u);
                    let verdicts: Vec<_> =
                        distinct.iter().map(|&s| r.check_path(&path, s)).collect();
                    columns.iter().map(|&c| verdicts[c]).collect()
                })
                .collect()
        });
        let allowed = PyList::empty(py);
        let lines = PyList::empty(py);
        let reasons = PyList::empty(py);
        for row in &cells {
            allowed.append(PyTuple::new(py, row.iter().map(|v| v.allowed))?)?;
            lines.append(PyTuple::new(py, row.iter().map(|v| r.line_of(v)))?)?;
            reasons.append(PyTuple::new(py, row.iter().map(|v| v.reason.as_str()))?)?;
        }
        let d = PyDict::new(py);
        d.set_item("urls", PyTuple::new(py, &url_items)?)?;
        d.set_item("agents", PyTuple::new(py, &agent_items)?)?;
        d.set_item("allowed", allowed)?;
        d.set_item("lines", lines)?;
        d.set_item("reasons", reasons)?;
        result(py, "_table", d.into_any())
    }

    /// Crawl-delay in seconds for the agent, or None.
    fn crawl_delay(&self, agent: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
        let agent = self.agent(agent, "Robots.crawl_delay(agent)")?;
        Ok(self.robots.crawl_delay(self.pick(&agent)))
    }

    /// Request-rate for the agent (`RequestRate`), or None.
    fn request_rate<'py>(
        &self,
        py: Python<'py>,
        agent: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let agent = self.agent(agent, "Robots.request_rate(agent)")?;
        match self.robots.request_rate(self.pick(&agent)) {
            None => Ok(None),
            Some(rate) => {
                let d = PyDict::new(py);
                d.set_item("requests", rate.requests)?;
                d.set_item("seconds", rate.seconds)?;
                result(py, "_request_rate", d.into_any()).map(Some)
            }
        }
    }

    /// The Sitemap URLs, in file order.
    #[getter]
    fn sitemaps(&self) -> Vec<&str> {
        self.robots.sitemaps().collect()
    }

    /// The Host, or None.
    #[getter]
    fn host(&self) -> Option<&str> {
        self.robots.host()
    }

    /// Every record but Sitemap lines (`Record`s).
    #[getter]
    fn records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        result(py, "_records", to_py(py, &report::records(&self.robots))?)
    }

    /// What the parser noticed, in line order (`Diagnostic`s).
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        result(
            py,
            "_diagnostics",
            to_py(py, &report::diagnostics(&self.robots))?,
        )
    }

    /// The dialect the file was parsed with.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.robots.dialect().id.name()
    }

    /// Whether the body was longer than `max_bytes` (the rest was ignored).
    #[getter]
    fn truncated(&self) -> bool {
        self.robots.truncated()
    }

    /// The AI usage preferences for the URL and the agent (`AiPreferences`), with a
    /// Content-Usage header value when the caller has one.
    #[pyo3(signature = (url, agent, *, header = None))]
    fn ai_preferences<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
        header: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let where_ = "Robots.ai_preferences(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        let header = match header {
            Some(h) if !h.is_none() => Some(header_arg(h, where_)?),
            _ => None,
        };
        let p = report::ai_preferences(&self.robots, url, self.pick(&agent), header.as_deref());
        result(py, "_ai_preferences", to_py(py, &p)?)
    }

    /// "May this crawler use this page for AI?" per purpose, from every signal given, with the
    /// trace (`AiUse`; docs/ai-use.md).
    #[pyo3(signature = (url, agent, *, headers = None, html = None, tdmrep = None, purposes = None, policy_tokens = None, robots_status = None))]
    #[allow(clippy::too_many_arguments)]
    fn ai_use<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'py, PyAny>,
        agent: &Bound<'py, PyAny>,
        headers: Option<&Bound<'py, PyAny>>,
        html: Option<&Bound<'py, PyAny>>,
        tdmrep: Option<&Bound<'py, PyAny>>,
        purposes: Option<&Bound<'py, PyAny>>,
        policy_tokens: Option<&Bound<'py, PyAny>>,
        robots_status: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let where_ = "Robots.ai_use(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        let inputs = ai_use_inputs::read(
            where_,
            self.robots.dialect().id,
            robots_status,
            headers,
            html,
            tdmrep,
            purposes,
            policy_tokens,
        )?;
        let agent = self.pick(&agent);
        let answer = inputs.with(|i| self.robots.ai_use(url, agent, i));
        result(py, "_ai_use", to_py(py, &answer)?)
    }

    /// Reads `url` and `agent` as `is_allowed` does and answers nothing: the benchmark's
    /// measure of the call itself (bench/python/bench.py).
    fn _noop(&self, url: &Bound<'_, PyAny>, agent: &Bound<'_, PyAny>) -> PyResult<bool> {
        let where_ = "Robots._noop(url, agent)";
        let agent = self.agent(agent, where_)?;
        let url = self.url(url, where_)?;
        Ok(url.len() ^ self.pick(&agent).len() != usize::MAX)
    }

    fn __repr__(&self) -> String {
        let r = &self.robots;
        format!(
            "<robots_eval.Robots dialect={:?} groups={} rules={} bytes={}{}>",
            r.dialect().id.name(),
            r.groups().len(),
            r.rule_count(),
            r.bytes_read(),
            if r.truncated() { " truncated" } else { "" }
        )
    }
}

mod ai_use_inputs;

/// The origin of an absolute http: or https: URL given as the site of a robots.txt.
fn site_origin(url: &Bound<'_, PyAny>, where_: &str) -> PyResult<String> {
    let text = text(url, where_, "url")?;
    match url::Url::parse(text) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(u.origin().ascii_serialization()),
        _ => Err(value_error(
            where_,
            &format!("url must be an absolute http: or https: URL, got {text:?}"),
        )),
    }
}

/// A Content-Usage header: one str, or a sequence of str (its field lines).
fn header_arg(header: &Bound<'_, PyAny>, where_: &str) -> PyResult<String> {
    let what = "a Content-Usage header must be a str or a sequence of str (its field lines)";
    if header.cast::<PyString>().is_ok() {
        return Ok(text(header, where_, "header")?.to_owned());
    }
    let Ok(seq) = header.cast::<pyo3::types::PySequence>() else {
        return Err(type_error(where_, what, header));
    };
    if header.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(type_error(where_, what, header));
    }
    let mut lines = Vec::new();
    for (i, line) in seq.try_iter()?.enumerate() {
        let line = line?;
        if line.cast::<PyString>().is_err() {
            return Err(type_error(where_, what, &line));
        }
        lines.push(text(&line, where_, &format!("header[{i}]"))?.to_owned());
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    Ok(report::combine_field_lines(&refs))
}

/// A Content-Usage header alone: each category's value (`y`, `n` or None).
#[pyfunction]
fn parse_content_usage<'py>(
    py: Python<'py>,
    header: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let header = header_arg(header, "parse_content_usage(header)")?;
    to_py(py, &report::content_usage(&header))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Robots>()?;
    m.add_function(wrap_pyfunction!(parse_content_usage, m)?)?;
    let dialects: Vec<&str> = DialectId::ALL.iter().map(|d| d.name()).collect();
    m.add("DIALECTS", PyTuple::new(m.py(), dialects)?)?;
    m.add("DEFAULT_MAX_BYTES", DEFAULT_MAX_BYTES)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    arrow::register(m)?;
    policy::register(m)?;
    Ok(())
}
