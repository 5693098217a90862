//! `robots_eval.arrow`: verdicts for whole Arrow columns, for engines (Spark's `mapInArrow`,
//! DuckDB, polars). Each row carries its robots.txt body (a joined row), its URL and its agent;
//! the answer is one Arrow array, one row per input row, a null row for a null in any input.
//!
//! Inputs come through the Arrow PyCapsule interface (pyo3-arrow), so any producer works and a
//! single-chunk column is read in place, without a copy. Each distinct body is parsed once per
//! call (a bounded map keyed by the bytes themselves, so equal bodies from different buffers
//! meet), and the whole batch runs without the GIL.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, StringBuilder, UInt32Builder};
use arrow_array::cast::AsArray;
use arrow_array::{AnyDictionaryArray, Array, ArrayRef, BooleanArray, StructArray};
use arrow_schema::{DataType, Field, Fields};
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3_arrow::input::AnyArray;
use pyo3_arrow::PyArray;
use robots_eval::ai_use::AiUseInputs;
use robots_eval::{DialectId, Options, Robots, Selection, DEFAULT_MAX_BYTES};

use crate::args::{self, text, type_error, value_error};

/// At most this many parsed bodies are kept during one call (a batch of more distinct bodies
/// starts the map again: rows of one site come together in a joined batch).
const MAX_PARSED: usize = 4096;
/// Nor more than this many body bytes.
const MAX_PARSED_BYTES: usize = 64 << 20;

/// One column of text or bytes in any of Arrow's layouts, read row by row in place.
enum Column<'a> {
    Utf8(&'a arrow_array::StringArray),
    LargeUtf8(&'a arrow_array::LargeStringArray),
    Utf8View(&'a arrow_array::StringViewArray),
    Binary(&'a arrow_array::BinaryArray),
    LargeBinary(&'a arrow_array::LargeBinaryArray),
    BinaryView(&'a arrow_array::BinaryViewArray),
    /// Dictionary-encoded (pyarrow's `dictionary_encode`, polars' categoricals): each row a key
    /// into a column of distinct values, so rows of one value share its bytes in place and the
    /// file parsed for it is found without comparing them.
    Dictionary {
        dictionary: &'a dyn AnyDictionaryArray,
        keys: Vec<usize>,
        values: Box<Column<'a>>,
    },
}

impl<'a> Column<'a> {
    fn new(array: &'a ArrayRef, binary: bool) -> Option<Column<'a>> {
        if let Some(dictionary) = array.as_any_dictionary_opt() {
            let values = Column::new(dictionary.values(), binary)?;
            // (`normalized_keys` needs values: with none, every row is null.)
            let keys = if dictionary.values().is_empty() {
                Vec::new()
            } else {
                dictionary.normalized_keys()
            };
            return Some(Column::Dictionary {
                dictionary,
                keys,
                values: Box::new(values),
            });
        }
        Some(match array.data_type() {
            DataType::Utf8 => Column::Utf8(array.as_string()),
            DataType::LargeUtf8 => Column::LargeUtf8(array.as_string()),
            DataType::Utf8View => Column::Utf8View(array.as_string_view()),
            DataType::Binary if binary => Column::Binary(array.as_binary()),
            DataType::LargeBinary if binary => Column::LargeBinary(array.as_binary()),
            DataType::BinaryView if binary => Column::BinaryView(array.as_binary_view()),
            _ => return None,
        })
    }

    /// The column and row that hold row `i`'s value: itself, or a dictionary's values at the
    /// row's key; None for a null row of a dictionary.
    #[inline]
    fn resolve(&self, i: usize) -> Option<(&Column<'a>, usize)> {
        match self {
            Column::Dictionary {
                dictionary,
                keys,
                values,
            } => (!dictionary.is_null(i)).then(|| keys.get(i).map(|&k| (&**values, k)))?,
            _ => Some((self, i)),
        }
    }

    /// Row `i`'s bytes; None for a null.
    #[inline]
    fn bytes(&self, i: usize) -> Option<&'a [u8]> {
        macro_rules! get {
            ($a:expr, $i:expr, $v:ident) => {
                (!$a.is_null($i)).then(|| $a.value($i).$v())
            };
        }
        let (column, i) = self.resolve(i)?;
        match column {
            Column::Utf8(a) => get!(a, i, as_bytes),
            Column::LargeUtf8(a) => get!(a, i, as_bytes),
            Column::Utf8View(a) => get!(a, i, as_bytes),
            Column::Binary(a) => get!(a, i, as_ref),
            Column::LargeBinary(a) => get!(a, i, as_ref),
            Column::BinaryView(a) => get!(a, i, as_ref),
            // (A dictionary's values are never a dictionary: `new` reads them as plain.)
            Column::Dictionary { .. } => None,
        }
    }

    /// Row `i`'s text (a string column's values are UTF-8 by Arrow's contract).
    #[inline]
    fn text(&self, i: usize) -> Option<&'a str> {
        let (column, i) = self.resolve(i)?;
        match column {
            Column::Utf8(a) => (!a.is_null(i)).then(|| a.value(i)),
            Column::LargeUtf8(a) => (!a.is_null(i)).then(|| a.value(i)),
            Column::Utf8View(a) => (!a.is_null(i)).then(|| a.value(i)),
            _ => None,
        }
    }
}

/// An input column as one array: a single chunk as it is, several concatenated.
fn column(value: &Bound<'_, PyAny>, where_: &str, name: &str) -> PyResult<ArrayRef> {
    let py = value.py();
    if !value.hasattr(pyo3::intern!(py, "__arrow_c_array__"))?
        && !value.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))?
    {
        return Err(type_error(
            where_,
            &format!("{name} must be an Arrow array (any object with __arrow_c_array__ or __arrow_c_stream__: pyarrow, polars, DuckDB...)"),
            value,
        ));
    }
    let any: AnyArray = value.extract()?;
    let chunked = any.into_chunked_array()?;
    let (mut chunks, field) = chunked.into_inner();
    // A table of one column (a DuckDB relation or a polars DataFrame `select`ed to it, a pyarrow
    // Table) exports its rows as a struct of that column: the column is meant.
    let field = match field.data_type() {
        DataType::Struct(children) if children.len() == 1 => {
            for chunk in &mut chunks {
                let s: &StructArray = chunk.as_struct();
                *chunk = s.column(0).clone();
            }
            children[0].clone()
        }
        _ => field,
    };
    match chunks.len() {
        1 => Ok(chunks.into_iter().next().expect("one chunk")),
        0 => Ok(arrow_array::new_empty_array(field.data_type())),
        _ => {
            let refs: Vec<&dyn Array> = chunks.iter().map(|c| c.as_ref()).collect();
            arrow_select::concat::concat(&refs)
                .map_err(|e| value_error(where_, &format!("{name}: {e}")))
        }
    }
}

/// The agents: a column, or one str for every row.
enum Agents {
    Column(ArrayRef),
    One(String),
}

/// Reads and checks the three inputs of a batch call.
fn inputs(
    where_: &str,
    robots: &Bound<'_, PyAny>,
    urls: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
) -> PyResult<(ArrayRef, ArrayRef, Agents)> {
    let bodies = column(robots, where_, "robots")?;
    if Column::new(&bodies, true).is_none() {
        return Err(args::type_error_text(
            where_,
            &format!(
                "robots must be a binary or string array (each row's robots.txt body), got an array of {}",
                bodies.data_type()
            ),
        ));
    }
    let url_column = column(urls, where_, "urls")?;
    if Column::new(&url_column, false).is_none() {
        return Err(args::type_error_text(
            where_,
            &format!(
                "urls must be a string array, got an array of {}",
                url_column.data_type()
            ),
        ));
    }
    let agents = if agents.cast::<PyString>().is_ok() {
        Agents::One(text(agents, where_, "agents")?.to_owned())
    } else {
        let a = column(agents, where_, "agents")?;
        if Column::new(&a, false).is_none() {
            return Err(args::type_error_text(
                where_,
                &format!(
                    "agents must be a string array or one str, got an array of {}",
                    a.data_type()
                ),
            ));
        }
        Agents::Column(a)
    };
    let n = bodies.len();
    let mismatch = |what: &str, len: usize| {
        value_error(
            where_,
            &format!("robots has {n} rows but {what} has {len}; give one row of each per question"),
        )
    };
    if url_column.len() != n {
        return Err(mismatch("urls", url_column.len()));
    }
    if let Agents::Column(a) = &agents {
        if a.len() != n {
            return Err(mismatch("agents", a.len()));
        }
    }
    Ok((bodies, url_column, agents))
}

/// Each distinct body parsed once (bounded: `MAX_PARSED`, `MAX_PARSED_BYTES`).
struct Parsed<'a> {
    options: Options,
    files: Vec<Robots>,
    /// Each file's number: how many parses this call had made when it was parsed.
    numbers: Vec<usize>,
    parses: usize,
    by_body: HashMap<&'a [u8], usize, ahash::RandomState>,
    bytes: usize,
    /// The previous row's body and file: rows of one site come together.
    last: Option<(&'a [u8], usize)>,
}

impl<'a> Parsed<'a> {
    fn new(dialect: DialectId) -> Self {
        Parsed {
            options: Options {
                dialect,
                max_bytes: DEFAULT_MAX_BYTES,
            },
            files: Vec::new(),
            numbers: Vec::new(),
            parses: 0,
            by_body: HashMap::default(),
            bytes: 0,
            last: None,
        }
    }

    /// The file parsed from `body`, and its number (which no other parse of this call has).
    fn get(&mut self, body: &'a [u8]) -> (usize, &Robots) {
        if let Some((last, i)) = self.last {
            // The same bytes in place (a view, a dictionary or a repeated value), or equal ones.
            if (last.as_ptr() == body.as_ptr() && last.len() == body.len()) || last == body {
                return (self.numbers[i], &self.files[i]);
            }
        }
        let i = match self.by_body.get(body) {
            Some(&i) => i,
            None => {
                if self.files.len() >= MAX_PARSED || self.bytes >= MAX_PARSED_BYTES {
                    self.files.clear();
                    self.numbers.clear();
                    self.by_body.clear();
                    self.bytes = 0;
                }
                self.files.push(Robots::parse_with(body, &self.options));
                self.parses += 1;
                self.numbers.push(self.parses);
                self.bytes += body.len().min(self.options.max_bytes);
                let i = self.files.len() - 1;
                self.by_body.insert(body, i);
                i
            }
        };
        self.last = Some((body, i));
        (self.numbers[i], &self.files[i])
    }
}

/// Runs `row` for every row whose inputs are all present (`None` for the others), without the
/// GIL, with the row's file, URL, agent and the groups the agent obeys in that file (worked out
/// once for a run of rows with the same file and agent).
fn each_row<T: Send>(
    py: Python<'_>,
    dialect: DialectId,
    bodies: &ArrayRef,
    urls: &ArrayRef,
    agents: &Agents,
    row: impl Fn(&Robots, &str, &str, Selection) -> T + Sync,
    mut out: impl FnMut(Option<T>) + Send,
) {
    let n = bodies.len();
    py.detach(|| {
        let bodies = Column::new(bodies, true).expect("checked by inputs");
        let urls = Column::new(urls, false).expect("checked by inputs");
        let agent_column = match agents {
            Agents::Column(a) => Some(Column::new(a, false).expect("checked by inputs")),
            Agents::One(_) => None,
        };
        let mut parsed = Parsed::new(dialect);
        let mut last: Option<(usize, &str, Selection)> = None;
        for i in 0..n {
            let agent = match (&agent_column, agents) {
                (Some(c), _) => c.text(i),
                (None, Agents::One(a)) => Some(a.as_str()),
                (None, Agents::Column(_)) => None,
            };
            match (bodies.bytes(i), urls.text(i), agent) {
                (Some(body), Some(url), Some(agent)) => {
                    let (number, robots) = parsed.get(body);
                    let selection = match last {
                        Some((n, a, s)) if n == number && a == agent => s,
                        _ => robots.selection(agent),
                    };
                    last = Some((number, agent, selection));
                    out(Some(row(robots, url, agent, selection)))
                }
                _ => out(None),
            }
        }
    });
}

fn dialect_arg(dialect: Option<&Bound<'_, PyAny>>, where_: &str) -> PyResult<DialectId> {
    match dialect {
        Some(d) if !d.is_none() => args::dialect(d, where_),
        _ => Ok(DialectId::default()),
    }
}

/// A struct array of named columns (every field nullable), null where `valid` is false.
fn struct_array(
    where_: &str,
    columns: Vec<(&str, ArrayRef)>,
    valid: Vec<bool>,
) -> PyResult<PyArray> {
    let fields: Fields = columns
        .iter()
        .map(|(name, c)| Field::new(*name, c.data_type().clone(), true))
        .collect();
    let arrays = columns.into_iter().map(|(_, c)| c).collect();
    let out = StructArray::try_new(fields, arrays, Some(valid.into()))
        .map_err(|e| value_error(where_, &e.to_string()))?;
    Ok(PyArray::from_array_ref(Arc::new(out)))
}

/// May each row's agent fetch its URL under its robots.txt? A boolean array.
#[pyfunction]
#[pyo3(name = "arrow_allowed", signature = (robots, urls, agents, *, dialect = None))]
fn allowed(
    py: Python<'_>,
    robots: &Bound<'_, PyAny>,
    urls: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
    dialect: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyArray> {
    let where_ = "robots_eval.arrow.allowed(robots, urls, agents)";
    let dialect = dialect_arg(dialect, where_)?;
    let (bodies, url_column, agents) = inputs(where_, robots, urls, agents)?;
    let mut b = BooleanBuilder::with_capacity(bodies.len());
    each_row(
        py,
        dialect,
        &bodies,
        &url_column,
        &agents,
        |r, url, _, selection| r.check_path(&r.path(url), selection).allowed,
        |v| b.append_option(v),
    );
    let out: BooleanArray = b.finish();
    Ok(PyArray::from_array_ref(Arc::new(out)))
}

/// Each row's verdict and why: a struct array {allowed, reason, line, pattern} (`pattern`: the
/// deciding rule's, as written; null when no rule decided).
#[pyfunction]
#[pyo3(name = "arrow_verdicts", signature = (robots, urls, agents, *, dialect = None))]
fn verdicts(
    py: Python<'_>,
    robots: &Bound<'_, PyAny>,
    urls: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
    dialect: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyArray> {
    let where_ = "robots_eval.arrow.verdicts(robots, urls, agents)";
    let dialect = dialect_arg(dialect, where_)?;
    let (bodies, url_column, agents) = inputs(where_, robots, urls, agents)?;
    let n = bodies.len();
    let mut allowed = BooleanBuilder::with_capacity(n);
    let mut reason = StringBuilder::with_capacity(n, n * 8);
    let mut line = UInt32Builder::with_capacity(n);
    let mut pattern = StringBuilder::with_capacity(n, n * 8);
    let mut valid = Vec::with_capacity(n);
    each_row(
        py,
        dialect,
        &bodies,
        &url_column,
        &agents,
        |r, url, _, selection| {
            let v = r.check_path(&r.path(url), selection);
            let rule = r.deciding_rule(&v);
            (
                v.allowed,
                v.reason.as_str(),
                rule.map_or(0, |rule| rule.line),
                rule.map(|rule| String::from(rule.pattern)),
            )
        },
        |v| match v {
            Some((a, why, l, p)) => {
                allowed.append_value(a);
                reason.append_value(why);
                line.append_value(l);
                pattern.append_option(p);
                valid.push(true);
            }
            None => {
                allowed.append_null();
                reason.append_null();
                line.append_null();
                pattern.append_null();
                valid.push(false);
            }
        },
    );
    struct_array(
        where_,
        vec![
            ("allowed", Arc::new(allowed.finish())),
            ("reason", Arc::new(reason.finish())),
            ("line", Arc::new(line.finish())),
            ("pattern", Arc::new(pattern.finish())),
        ],
        valid,
    )
}

/// AI use per purpose from each row's robots.txt (its crawl verdict, the operator table, its
/// Content-Usage and Content-Signal lines): a struct array {train-ai, ai-use, search}, each
/// "allow", "deny" or "unknown" (`Robots::ai_use` with no page-level input).
#[pyfunction]
#[pyo3(name = "arrow_ai_use", signature = (robots, urls, agents, *, dialect = None))]
fn ai_use(
    py: Python<'_>,
    robots: &Bound<'_, PyAny>,
    urls: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
    dialect: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyArray> {
    let where_ = "robots_eval.arrow.ai_use(robots, urls, agents)";
    let dialect = dialect_arg(dialect, where_)?;
    let (bodies, url_column, agents) = inputs(where_, robots, urls, agents)?;
    let n = bodies.len();
    let mut train = StringBuilder::with_capacity(n, n * 5);
    let mut input = StringBuilder::with_capacity(n, n * 5);
    let mut search = StringBuilder::with_capacity(n, n * 5);
    let mut valid = Vec::with_capacity(n);
    let none = AiUseInputs {
        headers: &[],
        html: None,
        tdmrep: None,
        purposes: None,
        policy_tokens: &[],
        robots_fetch: None,
    };
    each_row(
        py,
        dialect,
        &bodies,
        &url_column,
        &agents,
        |r, url, agent, _| {
            let a = r.ai_use(url, agent, &none);
            (
                a.train.answer.as_str(),
                a.input.answer.as_str(),
                a.search.answer.as_str(),
            )
        },
        |v| match v {
            Some((t, i, s)) => {
                train.append_value(t);
                input.append_value(i);
                search.append_value(s);
                valid.push(true);
            }
            None => {
                train.append_null();
                input.append_null();
                search.append_null();
                valid.push(false);
            }
        },
    );
    struct_array(
        where_,
        vec![
            ("train-ai", Arc::new(train.finish())),
            ("ai-use", Arc::new(input.finish())),
            ("search", Arc::new(search.finish())),
        ],
        valid,
    )
}

/// A no-op batch call: reads the three inputs as `allowed` does and returns an all-true array,
/// for the benchmark's split of the time between the boundary and the verdicts.
#[pyfunction]
#[pyo3(name = "_arrow_noop", signature = (robots, urls, agents, *, dialect = None))]
fn _noop(
    robots: &Bound<'_, PyAny>,
    urls: &Bound<'_, PyAny>,
    agents: &Bound<'_, PyAny>,
    dialect: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyArray> {
    let where_ = "robots_eval.arrow._noop(robots, urls, agents)";
    dialect_arg(dialect, where_)?;
    let (bodies, _, _) = inputs(where_, robots, urls, agents)?;
    let out = BooleanArray::from(vec![true; bodies.len()]);
    Ok(PyArray::from_array_ref(Arc::new(out)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(allowed, m)?)?;
    m.add_function(wrap_pyfunction!(verdicts, m)?)?;
    m.add_function(wrap_pyfunction!(ai_use, m)?)?;
    m.add_function(wrap_pyfunction!(_noop, m)?)?;
    Ok(())
}
