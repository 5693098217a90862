"""robots_eval.arrow on real producers (pyarrow, polars, DuckDB): every layout, nulls, lengths,
and the same answers as the per-call API, row for row."""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa
import pytest

from robots_eval import Robots, arrow

A = b"User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n"
B = b"User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n"
BODIES = [A, A, B, A, B, None, A]
URLS = ["/x", "/private/1", "/private/1", "https://e.com/a", "/z", "/x", None]
AGENTS = ["Bot", "Bot", "Bot", "GPTBot", "GPTBot", "Bot", "Bot"]


def expected_allowed() -> list[bool | None]:
    out: list[bool | None] = []
    for body, url, agent in zip(BODIES, URLS, AGENTS):
        out.append(None if body is None or url is None else Robots.parse(body).is_allowed(url, agent))
    return out


def layouts() -> list[tuple[str, pa.Array]]:
    text = [None if b is None else b.decode() for b in BODIES]
    return [
        ("binary", pa.array(BODIES, pa.binary())),
        ("large_binary", pa.array(BODIES, pa.large_binary())),
        ("binary_view", pa.array(BODIES, pa.binary_view())),
        ("string", pa.array(text, pa.string())),
        ("large_string", pa.array(text, pa.large_string())),
        ("string_view", pa.array(text, pa.string_view())),
    ]


@pytest.mark.parametrize("name,bodies", layouts())
@pytest.mark.parametrize("url_type", [pa.string(), pa.large_string(), pa.string_view()])
def test_allowed_every_layout(name: str, bodies: pa.Array, url_type: pa.DataType) -> None:
    got = pa.array(arrow.allowed(bodies, pa.array(URLS, url_type), pa.array(AGENTS, url_type)))
    assert got.type == pa.bool_()
    assert got.to_pylist() == expected_allowed(), name


def test_dictionary_encoded_columns() -> None:
    bodies = pa.array(BODIES).dictionary_encode()
    urls = pa.array(URLS).dictionary_encode()
    agents = pa.array(AGENTS).dictionary_encode()
    assert pa.types.is_dictionary(bodies.type)
    assert pa.array(arrow.allowed(bodies, urls, agents)).to_pylist() == expected_allowed()
    cat = pl.Series(AGENTS, dtype=pl.Categorical)
    assert pl.Series(arrow.allowed(pl.Series(BODIES), pl.Series(URLS), cat)).to_list() == expected_allowed()
    empty = pa.DictionaryArray.from_arrays(pa.array([None, None], pa.int32()), pa.array([], pa.binary()))
    assert pa.array(arrow.allowed(empty, pa.array(["/", "/"]), "x")).to_pylist() == [None, None]


def test_verdicts_struct() -> None:
    got = pa.array(arrow.verdicts(pa.array(BODIES), pa.array(URLS), pa.array(AGENTS)))
    assert got.type == pa.struct(
        [("allowed", pa.bool_()), ("reason", pa.string()), ("line", pa.uint32()), ("pattern", pa.string())]
    )
    rows = got.to_pylist()
    for row, body, url, agent in zip(rows, BODIES, URLS, AGENTS):
        if body is None or url is None:
            assert row is None
            continue
        e = Robots.parse(body).explain(url, agent)
        assert row == {
            "allowed": e.allowed,
            "reason": e.reason,
            "line": e.line,
            "pattern": None if e.rule is None else e.rule.pattern,
        }


def test_ai_use_struct() -> None:
    got = pa.array(arrow.ai_use(pa.array(BODIES), pa.array(URLS), "GPTBot")).to_pylist()
    for row, body, url in zip(got, BODIES, URLS):
        if body is None or url is None:
            assert row is None
            continue
        a = Robots.parse(body).ai_use(url, "GPTBot")
        assert row == {"train-ai": a.train_ai.answer, "ai-use": a.ai_use.answer, "search": a.search.answer}


def test_one_agent_for_every_row_and_null_agents() -> None:
    got = pa.array(arrow.allowed(pa.array([A, A]), pa.array(["/private", "/x"]), "Bot")).to_pylist()
    assert got == [False, True]
    got = pa.array(arrow.allowed(pa.array([A, A]), pa.array(["/private", "/x"]), pa.array([None, "Bot"]))).to_pylist()
    assert got == [None, True]


def test_polars_in_and_out() -> None:
    bodies = pl.Series("robots", BODIES, dtype=pl.Binary)
    urls = pl.Series("url", URLS, dtype=pl.Utf8)
    agents = pl.Series("agent", AGENTS, dtype=pl.Utf8)
    result = arrow.allowed(bodies, urls, agents)
    assert pl.Series(result).to_list() == expected_allowed()
    # Several chunks (a stream) are read as one column.
    chunked = pl.concat([bodies[:3], bodies[3:]], rechunk=False)
    assert chunked.n_chunks() == 2
    assert pl.Series(arrow.allowed(chunked, urls, agents)).to_list() == expected_allowed()


def test_pyarrow_chunked_and_duckdb() -> None:
    chunked = pa.chunked_array([pa.array(BODIES[:2]), pa.array(BODIES[2:])])
    assert pa.array(arrow.allowed(chunked, pa.array(URLS), pa.array(AGENTS))).to_pylist() == expected_allowed()
    con = duckdb.connect()
    table = pa.table({"robots": pa.array(BODIES), "url": pa.array(URLS), "agent": pa.array(AGENTS)})
    con.register("t", table)
    rel = con.sql("SELECT robots, url, agent FROM t")
    # A relation of one column is that column (its stream's rows are structs of one field).
    got = arrow.allowed(rel.select("robots"), rel.select("url"), rel.select("agent"))
    assert pa.array(got).to_pylist() == expected_allowed()
    # A polars DataFrame of one column, likewise.
    frame = pl.DataFrame({"robots": BODIES})
    assert pa.array(arrow.allowed(frame, pa.array(URLS), pa.array(AGENTS))).to_pylist() == expected_allowed()


def test_parsed_once_per_distinct_body_and_many_bodies() -> None:
    """More distinct bodies than the map keeps: the answers stay right as it starts again."""
    n = 5000
    bodies = [f"User-agent: *\nDisallow: /d{i}\n".encode() for i in range(n)]
    urls = [f"/d{i}" for i in range(n)]
    got = pa.array(arrow.allowed(pa.array(bodies), pa.array(urls), "x")).to_pylist()
    assert got == [False] * n
    urls = [f"/d{(i + 1) % n}" for i in range(n)]
    assert pa.array(arrow.allowed(pa.array(bodies), pa.array(urls), "x")).to_pylist() == [True] * n


def test_dialect() -> None:
    body = pa.array([b"User-agent: *\nAllow: /a\nDisallow: /\n"])
    assert pa.array(arrow.allowed(body, pa.array(["/a"]), "x")).to_pylist() == [True]
    assert pa.array(arrow.allowed(body, pa.array(["/a"]), "x", dialect="original1994")).to_pylist() == [False]
    with pytest.raises(ValueError, match="unknown dialect"):
        arrow.allowed(body, pa.array(["/a"]), "x", dialect="nope")


def test_mismatched_lengths_are_value_errors() -> None:
    with pytest.raises(ValueError, match="robots has 2 rows but urls has 1"):
        arrow.allowed(pa.array([A, A]), pa.array(["/x"]), "Bot")
    with pytest.raises(ValueError, match="robots has 2 rows but agents has 3"):
        arrow.verdicts(pa.array([A, A]), pa.array(["/x", "/y"]), pa.array(["a", "b", "c"]))


def test_wrong_types_are_type_errors() -> None:
    for bad in ([A], A, 5, None):
        with pytest.raises(TypeError, match="robots must be an Arrow array"):
            arrow.allowed(bad, pa.array(["/x"]), "Bot")
    with pytest.raises(TypeError, match="robots must be a binary or string array"):
        arrow.allowed(pa.array([1]), pa.array(["/x"]), "Bot")
    with pytest.raises(TypeError, match="urls must be a string array"):
        arrow.allowed(pa.array([A]), pa.array([b"/x"]), "Bot")
    with pytest.raises(TypeError, match="agents must be a string array or one str"):
        arrow.allowed(pa.array([A]), pa.array(["/x"]), pa.array([1]))
    with pytest.raises(TypeError):
        arrow.allowed(pa.array([A]), pa.array(["/x"]), 5)


def test_empty_and_sliced_inputs() -> None:
    assert len(pa.array(arrow.allowed(pa.array([], pa.binary()), pa.array([], pa.string()), "x"))) == 0
    bodies = pa.array(BODIES)[2:5]
    urls = pa.array(URLS)[2:5]
    agents = pa.array(AGENTS)[2:5]
    assert pa.array(arrow.allowed(bodies, urls, agents)).to_pylist() == expected_allowed()[2:5]


def test_non_utf8_and_huge_bodies() -> None:
    big = b"User-agent: *\n" + b"#" * 600_000 + b"\nDisallow: /\n"
    got = pa.array(arrow.allowed(pa.array([b"\xff\xfe\x00Disallow: /", big]), pa.array(["/", "/"]), "x")).to_pylist()
    # Past the default cap the rest is ignored, as Robots.parse does.
    assert got == [Robots.parse(b"\xff\xfe\x00Disallow: /").is_allowed("/", "x"), True]


def test_batches_from_many_threads() -> None:
    """The batch runs without the GIL: threads calling it at once get the same answers."""
    import threading

    bodies = pa.array(BODIES * 500)
    urls = pa.array(URLS * 500)
    agents = pa.array(AGENTS * 500)
    want = expected_allowed() * 500
    got: list[list[bool | None]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                got.append(pa.array(arrow.allowed(bodies, urls, agents)).to_pylist())
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert got == [want] * 20
