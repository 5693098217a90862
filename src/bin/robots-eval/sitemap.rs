//! The `<loc>` URLs of a sitemap or sitemap index (sitemaps.org protocol), read with quick-xml
//! (namespaces, CDATA, comments, entities and character references as XML says). The npm command
//! reads the same way with saxes (js/sitemap.js): what counts is written there, and
//! tests/data/cli-cases.json holds the cases both follow.

use std::io::Read;

use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::Event;
use quick_xml::name::ResolveResult;
use quick_xml::NsReader;

/// The sitemap protocol's limit: 50 MB (52,428,800 bytes), uncompressed. Larger sitemaps (and gzip
/// bombs) are an input error.
pub const SITEMAP_MAX: usize = 52_428_800;

/// The namespaces of sitemaps: sitemaps.org's, Google's earlier ones (and none, below).
const SITEMAP_NAMESPACES: &[&str] = &[
    "http://www.sitemaps.org/schemas/sitemap/0.9",
    "http://www.google.com/schemas/sitemap/0.84",
    "http://www.google.com/schemas/sitemap/0.9",
];

/// The `<loc>` values of a sitemap or sitemap index (XML, gzipped or not), and whether it is an
/// index; an error names `at`.
pub fn locs(mut bytes: Vec<u8>, at: &str) -> Result<(bool, Vec<String>), String> {
    let too_large =
        || format!("--sitemap: {at}: larger than 52,428,800 bytes, the sitemap protocol's limit");
    if bytes.len() > SITEMAP_MAX {
        return Err(too_large());
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .take(SITEMAP_MAX as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| format!("--sitemap: {at}: not valid gzip ({e})"))?;
        if out.len() > SITEMAP_MAX {
            return Err(too_large());
        }
        bytes = out;
    }
    let xml = String::from_utf8_lossy(&bytes);
    read(&xml).map_err(|e| format!("--sitemap: {at}: {e}"))
}

/// A namespace as the rules compare it: its URI, empty for none; None for an unbound prefix.
fn namespace(ns: &ResolveResult) -> Option<String> {
    match ns {
        ResolveResult::Bound(n) => Some(n.as_ref().to_string()),
        ResolveResult::Unbound => Some(String::new()),
        ResolveResult::Unknown(_) => None,
    }
}

fn read(xml: &str) -> Result<(bool, Vec<String>), String> {
    let mut reader = NsReader::from_str(xml);
    // The open elements, as (namespace, local name).
    let mut stack: Vec<(String, String)> = Vec::new();
    let mut root: Option<(bool, String)> = None;
    let mut text: Option<String> = None;
    let mut locs = Vec::new();
    let line = |pos: u64| {
        xml.as_bytes()[..(pos as usize).min(xml.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let not_well_formed =
        |pos: u64, why: String| format!("not well-formed XML (line {}: {why})", line(pos));
    loop {
        let event = reader.read_resolved_event();
        let (ns, event) = match event {
            Ok(got) => got,
            Err(e) => {
                if root.is_none() {
                    break;
                }
                return Err(not_well_formed(reader.error_position(), e.to_string()));
            }
        };
        let Some(ns) = namespace(&ns) else {
            let why = match &event {
                Event::Start(e) | Event::Empty(e) => format!(
                    "unbound namespace prefix {:?}",
                    e.name().prefix().map_or("", |p| p.into_inner())
                ),
                _ => "unbound namespace prefix".to_string(),
            };
            if root.is_none() {
                break;
            }
            return Err(not_well_formed(reader.buffer_position(), why));
        };
        match event {
            Event::Start(e) => open(
                ns,
                e.local_name().as_ref(),
                &mut stack,
                &mut root,
                &mut text,
            ),
            Event::Empty(e) => {
                open(
                    ns,
                    e.local_name().as_ref(),
                    &mut stack,
                    &mut root,
                    &mut text,
                );
                end(&mut stack, &mut text, &mut locs);
            }
            Event::Text(t) => {
                if let Some(s) = text.as_mut() {
                    s.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if let Some(s) = text.as_mut() {
                    s.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => match resolve_predefined_entity(&name) {
                        Some(s) => s.to_string(),
                        None => {
                            return Err(not_well_formed(
                                reader.buffer_position(),
                                format!("undefined entity &{name};"),
                            ))
                        }
                    },
                    Err(e) => return Err(not_well_formed(reader.buffer_position(), e.to_string())),
                };
                if let Some(s) = text.as_mut() {
                    s.push_str(&c);
                }
            }
            Event::End(_) => end(&mut stack, &mut text, &mut locs),
            // quick-xml stops at the end without checking that every element was closed.
            Event::Eof if root.is_some() && !stack.is_empty() => {
                let open = stack.last().map_or("", |(_, local)| local.as_str());
                return Err(not_well_formed(
                    xml.len() as u64,
                    format!("unclosed tag <{open}> at the end"),
                ));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let (index, _) = root.ok_or("not a sitemap (no <urlset> or <sitemapindex>)".to_string())?;
    Ok((index, locs))
}

/// The start of an element: the root, if it is the first and a sitemap's; a `<loc>` of a `<url>` (or
/// of a `<sitemap>` of an index) in the root's namespace starts a URL's text.
fn open(
    ns: String,
    local: &str,
    stack: &mut Vec<(String, String)>,
    root: &mut Option<(bool, String)>,
    text: &mut Option<String>,
) {
    if stack.is_empty()
        && root.is_none()
        && (ns.is_empty() || SITEMAP_NAMESPACES.contains(&ns.as_str()))
        && (local == "urlset" || local == "sitemapindex")
    {
        *root = Some((local == "sitemapindex", ns.clone()));
    }
    stack.push((ns, local.to_string()));
    if let Some((index, root_ns)) = root {
        let entry = if *index { "sitemap" } else { "url" };
        if stack.len() == 3
            && stack[2].1 == "loc"
            && stack[2].0 == *root_ns
            && stack[1].0 == *root_ns
            && stack[1].1 == entry
        {
            *text = Some(String::new());
        }
    }
}

/// The end of an element: a `<loc>`'s text, trimmed of XML white space, is a URL (unless empty).
fn end(stack: &mut Vec<(String, String)>, text: &mut Option<String>, locs: &mut Vec<String>) {
    if stack.len() == 3 {
        if let Some(t) = text.take() {
            let t = t.trim_matches([' ', '\t', '\r', '\n']);
            if !t.is_empty() {
                locs.push(t.to_string());
            }
        }
    }
    stack.pop();
}
