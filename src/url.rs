//! Floor 1 (a leaf; uses `dialect`, and `pattern`'s octet classes): URL -> the string that
//! rules are matched against.

use crate::dialect::PercentEncoding;
use crate::pattern::{URL_AUTHORITY_END, URL_CLASS, URL_NON_ASCII};

/// The path, `;params` and query of `url`, without the fragment, exactly as google/robotstxt's
/// `GetPathParamsQuery` computes it (semantics I.9): a leading `//` is skipped, `://` counts only
/// before any `/`, `?` or `;`, the path starts at the first of those after the authority, a path
/// starting with `?` or `;` gets a `/` in front (the caller adds it), and no path is `/`.
///
/// Returns the slice and whether a `/` must be put in front of it.
pub fn path_params_query(url: &str) -> (&str, bool) {
    let bytes = url.as_bytes();
    let mut search_start = 0;
    if bytes.starts_with(b"//") {
        search_start = 2;
    }
    let early_path = find_from(bytes, search_start, b"/?;");
    if let Some(proto) = find_str(bytes, search_start, b"://") {
        if early_path.is_none_or(|p| proto < p) {
            search_start = proto + 3;
        }
    }
    let Some(path_start) = find_from(bytes, search_start, b"/?;") else {
        return ("/", false);
    };
    let hash = find_from(bytes, search_start, b"#");
    if hash.is_some_and(|h| h < path_start) {
        return ("/", false);
    }
    let path_end = hash.unwrap_or(bytes.len());
    let path = url.get(path_start..path_end).unwrap_or("/");
    (path, bytes.get(path_start) != Some(&b'/'))
}

/// The path and query of `url` for the dialects that parse URLs per RFC 3986: absolute URLs
/// (`scheme://authority/path?query#fragment`, userinfo and ports included), network-path
/// references (`//host/path`) and paths (`/a?b`). The fragment is dropped; an empty path is `/`.
/// Text that is none of these (`a/b`) is read as a path relative to the root.
pub fn rfc3986_path_query(url: &str) -> (&str, bool) {
    let bytes = url.as_bytes();
    // The common case for a crawler's queue: already a path.
    if let [b'/', second, ..] = bytes {
        if *second != b'/' {
            let end = url.find('#').unwrap_or(url.len());
            return (url.get(..end).unwrap_or(url), false);
        }
    }
    let mut start = 0;
    let scheme_len = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .filter(|&i| i > 0 && bytes[i] == b':' && bytes[0].is_ascii_alphabetic());
    if let Some(colon) = scheme_len {
        start = colon + 1;
    }
    if bytes.get(start..start + 2) == Some(b"//") {
        // The authority runs to the first `/`, `?` or `#`.
        start = find_from(bytes, start + 2, b"/?#").unwrap_or(bytes.len());
    }
    let end = find_from(bytes, start, b"#").unwrap_or(bytes.len());
    let path = url.get(start..end).unwrap_or("");
    if path.is_empty() {
        return ("/", false);
    }
    (path, !path.starts_with('/'))
}

/// Where the path of `url` starts when every dialect reads it alike, in one short pass: 0 for a
/// path (`/...`, but not a network-path reference `//host`), or the `/` that ends the authority
/// of `scheme://authority/...` (an RFC 3986 scheme, and an authority free of `?`, `;`, `#`,
/// NUL and non-ASCII, so that `Robots::ascii_path` knows what precedes the path is ASCII). What a crawler's queue holds is one of these. `None` for anything else, which each
/// dialect reads its own way (`matched_part`): RFC 3986 ends an authority at `?` or `#`,
/// google/robotstxt at `?` or `;` and reads a `#` before the path as no path, and both end the
/// URL at a NUL.
pub(crate) fn path_start(url: &[u8]) -> Option<usize> {
    match url {
        [b'/', b'/', ..] => return None,
        [b'/', ..] => return Some(0),
        [first, ..] if first.is_ascii_alphabetic() => {}
        _ => return None,
    }
    // Google's reading agrees: a scheme holds no `/`, `?`, `;` or `:`, so its `://` is the first.
    // (A crawler's schemes, without the scan.)
    let authority = if url.starts_with(b"https://") {
        8
    } else if url.starts_with(b"http://") {
        7
    } else {
        let colon = url
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
        if url.get(colon..colon + 3) != Some(b"://") {
            return None;
        }
        colon + 3
    };
    let class = |b: u8| URL_CLASS[usize::from(b)] & (URL_AUTHORITY_END | URL_NON_ASCII);
    let mut end = authority;
    // Two octets per iteration while neither ends the authority (as `pattern::scan_path`).
    while let Some(&[a, b]) = url.get(end..end + 2) {
        if class(a) | class(b) != 0 {
            break;
        }
        end += 2;
    }
    end += url.get(end..)?.iter().position(|&b| class(b) != 0)?;
    (url.get(end) == Some(&b'/')).then_some(end)
}

/// Whether `path_start` reads `site` (a `scheme://authority`, such as a URL parser's origin)
/// followed by a path as ending where `site` ends: then, for every URL that is `site` followed by
/// `/`, the path starts at `site.len()`, and `Robots::ascii_path_from` can skip the search (an
/// authority with `;`, which google/robotstxt ends there, is not one).
pub fn path_starts_after(site: &[u8]) -> bool {
    // (No site is no authority: `//` would start a network-path reference.)
    if site.is_empty() {
        return false;
    }
    let mut url = alloc::vec::Vec::with_capacity(site.len() + 1);
    url.extend_from_slice(site);
    url.push(b'/');
    path_start(&url) == Some(site.len())
}

/// Whether `url` is plainly on the site `origin` (a `scheme://authority`, as a URL parser's
/// origin writes it) without parsing it: the origin followed by `/`, `?`, `#` or nothing, a path
/// (`/x`, not `//host`), or any other reference without a scheme or `//` (relative, so on the
/// site). `false` is "not plainly": a URL parser settles it (the npm package's `new URL`, the
/// Python package's `url` crate), with the equivalences of RFC 3986 section 6.2.2-6.2.3 and the
/// WHATWG URL standard (scheme and host in any case, a default port, IDNA hosts...). A file's
/// rules say nothing about other sites (RFC 9309 section 2.3: robots.txt sits at the top of the
/// service it covers), so the packages refuse a URL that is not on it.
pub fn plainly_on_site(origin: &[u8], url: &[u8]) -> bool {
    if let Some(rest) = url.strip_prefix(origin) {
        if matches!(rest.first(), None | Some(b'/' | b'?' | b'#')) {
            return true;
        }
    }
    match url {
        [b'/', b'/', ..] => false,
        [b'/', ..] => true,
        // A scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:`.
        [first, rest @ ..] if first.is_ascii_alphabetic() => {
            let scheme = 1 + rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
                .count();
            url.get(scheme) != Some(&b':')
        }
        _ => true,
    }
}

/// Splits off the query (`?...`) when the dialect matches paths only.
pub(crate) fn without_query(path: &str) -> &str {
    match path.find('?') {
        Some(i) => path.get(..i).unwrap_or(path),
        None => path,
    }
}

/// The part of a URL the dialect matches, before percent normalisation.
pub(crate) fn matched_part(url: &str, pct: PercentEncoding) -> (&str, bool) {
    // A NUL ends the URL for the reference library (C strings); every dialect agrees, so that no
    // dialect sees bytes another ignores.
    let url = match url.find('\0') {
        Some(i) => url.get(..i).unwrap_or(url),
        None => url,
    };
    match pct {
        PercentEncoding::Google => path_params_query(url),
        _ => rfc3986_path_query(url),
    }
}

fn find_from(bytes: &[u8], from: usize, any_of: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|b| any_of.contains(b))
        .map(|i| i + from)
}

fn find_str(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plainly_on_site_or_not() {
        let site = b"https://a.example";
        for url in [
            "https://a.example",
            "https://a.example/x",
            "https://a.example?q",
            "https://a.example#f",
            "/x",
            "x/y",
            "",
            "?q",
            "1http://b.example/",
        ] {
            assert!(plainly_on_site(site, url.as_bytes()), "{url}");
        }
        for url in [
            "https://a.example.evil/x",
            "https://a.example:443/x",
            "HTTPS://a.example/x",
            "http://a.example/x",
            "//b.example/x",
            "mailto:x",
            "a+b-c.d:x",
        ] {
            assert!(!plainly_on_site(site, url.as_bytes()), "{url}");
        }
    }

    #[test]
    fn google_paths() {
        assert_eq!(path_params_query(""), ("/", false));
        assert_eq!(path_params_query("http://www.example.com"), ("/", false));
        assert_eq!(path_params_query("http://a.b/x?y#z"), ("/x?y", false));
        assert_eq!(path_params_query("a.b?q"), ("?q", true));
        assert_eq!(path_params_query("//a.b/c"), ("/c", false));
        assert_eq!(path_params_query("http://a#frag/x"), ("/", false));
    }

    /// `path_start`'s authority search (two octets at a time) agrees with the plain one: every
    /// length, and every octet that ends the authority at every position.
    #[test]
    fn authority_search_agrees_with_one_octet_at_a_time() {
        let plain = |url: &[u8]| {
            let end = 8 + url[8..]
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b';' | b'#' | 0) || !b.is_ascii())?;
            (url[end] == b'/').then_some(end)
        };
        for len in 0..10 {
            let host: alloc::vec::Vec<u8> = (0..len).map(|i| b"h.ex:8@u-"[i % 9]).collect();
            for tail in [&b""[..], b"/", b"/p", b"?q/"] {
                let url = [&b"https://"[..], &host, tail].concat();
                assert_eq!(path_start(&url), plain(&url), "{url:?}");
                for at in 0..len {
                    for b in [b'/', b'?', b';', b'#', 0, 0x80, 0xff] {
                        let mut url = url.clone();
                        url[8 + at] = b;
                        assert_eq!(path_start(&url), plain(&url), "{url:?}");
                    }
                }
            }
        }
    }

    /// Wherever `path_start` answers, both dialects' full readings give the same path.
    #[test]
    fn path_start_agrees() {
        for url in [
            "/",
            "/a?b#c",
            "/a\0b",
            "https://h/",
            "HTTPS://u:p@h.example:8080/a/b?c=d#e",
            "http://a://b/c",
            "svn+ssh://h/x;y",
            "http://h/a?u=http://x/y",
            "http://h/\0",
        ] {
            let start = path_start(url.as_bytes()).unwrap();
            let rest = &url[start..];
            let end = rest.find(['#', '\0']).unwrap_or(rest.len());
            for pct in [PercentEncoding::Google, PercentEncoding::Rfc9309] {
                assert_eq!(matched_part(url, pct), (&rest[..end], false), "{url}");
            }
        }
        for url in [
            "",
            "//h/a",
            "a/b",
            "1http://h/a",
            "http:/h/a",
            "http://h",
            "http://h?x/",
            "http://h;x/",
            "http://h#x/",
            "http://h\0/",
        ] {
            assert_eq!(path_start(url.as_bytes()), None, "{url}");
        }
    }

    #[test]
    fn path_starts_after_sites() {
        for site in [
            "https://example.com",
            "http://h:8080",
            "http://[::1]:80",
            "svn+ssh://u@h",
        ] {
            assert!(path_starts_after(site.as_bytes()), "{site}");
        }
        for site in [
            "",
            "/",
            "https://a;b.example",
            "http://h?x",
            "http://h#x",
            "https://h/",
            "//h",
            "https://h\u{e9}",
        ] {
            assert!(!path_starts_after(site.as_bytes()), "{site}");
        }
    }

    #[test]
    fn rfc_paths() {
        assert_eq!(
            rfc3986_path_query("https://u:p@h.example:8080/a/b?c=d#e"),
            ("/a/b?c=d", false)
        );
        assert_eq!(rfc3986_path_query("http://h"), ("/", false));
        assert_eq!(rfc3986_path_query("http://h?x"), ("?x", true));
        assert_eq!(rfc3986_path_query("/p?q"), ("/p?q", false));
        assert_eq!(rfc3986_path_query("//h/p"), ("/p", false));
        assert_eq!(rfc3986_path_query("a/b"), ("a/b", true));
        assert_eq!(rfc3986_path_query("#x"), ("/", false));
    }
}
