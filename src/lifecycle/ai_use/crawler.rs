//! The crawler as the operator table knows it: its token, the token whose crawl verdict gates
//! everything (a control token's crawler, [D-2]), its purposes, and per purpose the robots.txt
//! tokens that govern it (`tokens(C, P)`, §5.2, [S-5]).

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use super::answer::PerPurpose;
use super::inputs::AiUseInputs;
use crate::aipref::operators::{self, Kind, Operator, Purpose, Purposes, PURPOSES};
#[cfg(feature = "serde")]
use serde::Serialize;

/// The crawler as the resolver read it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Crawler {
    /// The agent as given.
    pub agent: String,
    /// The token of the operator table's row, or the agent's product token.
    pub token: String,
    /// Whether the operator table knows it.
    pub known: bool,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub operator: Option<&'static str>,
    /// `crawler`, `control-token`, `user-fetcher`, `link-previews`, or `unknown`.
    pub kind: &'static str,
    /// The token whose crawl verdict gates everything (a control token's crawler, [D-2]).
    pub fetch_token: String,
    /// The purposes it serves (the table's, or the caller's for a crawler the table does not know).
    pub purposes: Vec<Purpose>,
    /// Per purpose, the robots.txt tokens that govern it (`tokens(C, P)`, §5.2, [S-5]).
    pub tokens: PerPurpose<Vec<String>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub source: Option<&'static str>,
}

/// A token whose groups are read, with the purposes it speaks for here.
pub(super) struct Governing {
    pub(super) token: String,
    pub(super) purposes: Purposes,
    pub(super) dedicated: bool,
}

/// The crawler an agent names: what the answer reports of it, its row of the operator table
/// (none for a crawler the table does not know), and its governing tokens.
pub(super) struct Known {
    pub(super) crawler: Crawler,
    pub(super) row: Option<&'static Operator>,
    pub(super) governing: Vec<Governing>,
}

/// Reads `agent` against the operator table, with the caller's purposes for a crawler the table
/// does not know ([S-5]).
pub(super) fn known(agent: &str, inputs: &AiUseInputs<'_>) -> Known {
    let row = operators::crawler(agent);
    let declared = inputs.purposes.map(Purposes::of);
    let (token, purposes) = match row {
        Some(r) if r.purposes != Purposes::NONE || declared.is_none() => {
            (r.token.to_owned(), r.purposes)
        }
        Some(r) => (r.token.to_owned(), declared.unwrap_or_default()),
        None => (
            product_token(agent).to_owned(),
            declared.unwrap_or_default(),
        ),
    };
    let fetch_token = match row.and_then(|r| r.fetched_by) {
        Some(f) => f.to_owned(),
        // A crawler the table does not know is read as robots.txt reads its agent.
        None if row.is_none() => agent.to_owned(),
        None => token.clone(),
    };
    let governing = governing(row, &token, purposes, inputs.policy_tokens);
    let mut tokens = PerPurpose::<Vec<String>>::default();
    for g in &governing {
        for p in g.purposes.iter() {
            tokens.get_mut(p).push(g.token.clone());
        }
    }
    let crawler = Crawler {
        agent: agent.to_owned(),
        token,
        known: row.is_some(),
        operator: row.map(|r| r.operator),
        kind: row.map_or("unknown", |r| r.kind.as_str()),
        fetch_token,
        purposes: purposes.iter().collect(),
        tokens,
        source: row.map(|r| r.source),
    };
    Known {
        crawler,
        row,
        governing,
    }
}

/// The governing tokens, per purpose (`tokens(C, P)`, §5.2, [S-5], [D-1], [D-2], [S-22]).
fn governing(
    row: Option<&'static Operator>,
    token: &str,
    purposes: Purposes,
    policy_tokens: &[&str],
) -> Vec<Governing> {
    let mut out: Vec<Governing> = Vec::new();
    let mut add = |token: &str, p: Purpose, dedicated: bool| match out
        .iter_mut()
        .find(|g| g.token.eq_ignore_ascii_case(token))
    {
        Some(g) => g.purposes = g.purposes.and(Purposes::of(&[p])),
        None => out.push(Governing {
            token: token.to_owned(),
            purposes: Purposes::of(&[p]),
            dedicated,
        }),
    };
    for p in PURPOSES {
        // 1. The crawler's own token, for the purposes it serves.
        if purposes.contains(p) {
            add(token, p, row.is_some_and(|r| r.dedicated));
        }
        if let Some(row) = row {
            let same = |o: &&Operator| o.operator == row.operator && o.purposes.contains(p);
            // 2. The operator's control tokens for P.
            for o in operators::OPERATORS
                .iter()
                .filter(same)
                .filter(|o| o.kind == Kind::Control)
            {
                add(o.token, p, o.dedicated);
            }
            // 3. When its own token does not serve P, the operator's crawlers that do (never a
            // user-triggered fetcher: [D-1]).
            if !purposes.contains(p) && row.kind != Kind::Control {
                for o in operators::OPERATORS
                    .iter()
                    .filter(same)
                    .filter(|o| o.kind == Kind::Crawler)
                {
                    add(o.token, p, o.dedicated);
                }
            }
        }
        // 4. Policy tokens for training ([S-22]); not dedicated: what their Allow means is
        // unconfirmed.
        if p == Purpose::Train {
            for t in policy_tokens {
                add(t, p, false);
            }
        }
    }
    out
}

/// The product token of an agent: its first run of letters, digits, `-` and `_`.
fn product_token(agent: &str) -> &str {
    let a = agent.trim_start();
    let end = a
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(a.len());
    a.get(..end).unwrap_or("")
}
