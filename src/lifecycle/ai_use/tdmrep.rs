//! TDMRep: the site's tdmrep.json, then the `tdm-reservation`/`tdm-policy` header fields, then
//! the META tags. A later layer that speaks supersedes; one that is silent (or invalid) keeps
//! the earlier value (TDMREP §6.7, [S-2], [S-11]). 1 denies `train-ai` and `ai-use`, 0 allows
//! them; never `search` ([S-9]).

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::answer::Effect;
use super::resolver::Resolver;
use super::trace::{Condition, Entry, Signal, Where};
use super::words::{Note, Problem};
use crate::aipref::operators::Purpose;
use crate::lifecycle::meta::HeadMeta;
use crate::lifecycle::tdmrep::{self, Reservation, TdmFile};

/// A TDMRep layer that was read: its entry, its value, its policy, its name.
struct Layer {
    entry: Entry,
    value: Option<Reservation>,
    policy: Option<String>,
    name: &'static str,
}

/// A TDMRep carrier (the header fields, or the META tags), before its values are read.
struct Carrier<'a> {
    at: Where,
    rule: &'static str,
    name: &'static str,
    raw: Vec<String>,
    policy: Option<String>,
    values: Vec<&'a str>,
}

/// The invalid carrier values an error shows as written; the rest are counted.
const SHOWN: usize = 8;

impl Resolver<'_, '_> {
    pub(super) fn tdmrep(&mut self) {
        let mut layers: Vec<Layer> = Vec::new();
        layers.extend(self.inputs.tdmrep.map(|body| self.tdm_file(body)));
        layers.extend(self.tdm_headers().map(carrier));
        let tags = &self.head.tags;
        layers.extend(tdm_tags(tags).map(carrier));
        self.layering(&mut layers);
        for layer in layers {
            self.push(layer.entry);
        }
    }

    /// tdmrep.json: the first rule whose location matches the URL decides, even when invalid
    /// (TDMREP §6.1, [S-10]).
    fn tdm_file(&self, body: &[u8]) -> Layer {
        let file = TdmFile::parse(body);
        let (mut value, mut policy) = (None, None);
        let mut e;
        if let Some(err) = &file.error {
            e = Entry::new(Signal::Tdmrep, Where::file(None))
                .rules(&["TDMREP §6.1", "S-10"])
                .note(Note::TdmNoFileValue);
            e.error = Some(Problem::TdmFile(err.clone()));
        } else {
            let pct = self.robots.dialect().percent;
            match file.matching(self.path.as_bytes(), pct) {
                Some(rule) => {
                    e = Entry::new(Signal::Tdmrep, Where::file(Some(rule.index)))
                        .raw(format!(
                            "{{\"location\": {:?}, \"tdm-reservation\": {}{}}}",
                            rule.location.as_deref().unwrap_or(""),
                            rule.raw_reservation.as_deref().unwrap_or("(absent)"),
                            rule.policy
                                .as_deref()
                                .map_or(String::new(), |p| format!(", \"tdm-policy\": {p:?}"))
                        ))
                        .rules(&["TDMREP §6.1", "TDMREP §6.1.1", "S-10"]);
                    if let Some(problem) = rule.problem {
                        e.error = Some(Problem::TdmRule(problem));
                        e = e.note(Note::TdmFirstRuleDecides);
                    }
                    value = rule.reservation;
                    policy = rule.policy.clone();
                }
                None => {
                    e = Entry::new(Signal::Tdmrep, Where::file(None))
                        .rules(&["TDMREP §6.1"])
                        .note(Note::TdmNoRuleMatches);
                }
            }
            for r in file.rules.iter().filter(|r| !r.matchable()) {
                e.notes.push(Note::TdmRuleSkipped {
                    index: r.index,
                    problem: r.problem,
                });
            }
            if file.truncated {
                e.notes.push(Note::TdmTooManyRules);
            }
        }
        Layer {
            entry: e,
            value,
            policy,
            name: "tdmrep.json",
        }
    }

    /// The `tdm-reservation` and `tdm-policy` header fields (TDMREP §6.2).
    fn tdm_headers(&self) -> Option<Carrier<'_>> {
        let reservations = self.header("tdm-reservation");
        let policies = self.header("tdm-policy");
        if reservations.is_empty() && policies.is_empty() {
            return None;
        }
        let mut raw: Vec<String> = (reservations.iter())
            .map(|v| format!("tdm-reservation: {v}"))
            .collect();
        raw.extend(policies.iter().map(|v| format!("tdm-policy: {v}")));
        let name = match reservations.is_empty() {
            true => "tdm-policy",
            false => "tdm-reservation",
        };
        Some(Carrier {
            at: Where::header(name, None),
            rule: "TDMREP §6.2",
            name: "header",
            raw,
            policy: policies.first().map(|p| p.trim().to_owned()),
            values: reservations,
        })
    }

    /// Layering (TDMREP §6.7): the last layer with a value decides; the others are superseded.
    fn layering(&mut self, layers: &mut [Layer]) {
        let decider = (layers.iter().enumerate().rev())
            .find_map(|(i, l)| l.value.map(|value| (i, value, l.name)));
        let Some((decider, value, by)) = decider else {
            for l in layers.iter_mut() {
                if let Some(policy) = l.policy.clone() {
                    l.entry.notes.push(Note::TdmPolicyUnreserved { policy });
                }
            }
            return;
        };
        for (i, l) in layers.iter_mut().enumerate() {
            if i == decider {
                let effect = match value {
                    Reservation::Reserved => Effect::Deny,
                    Reservation::NotReserved => Effect::Allow,
                };
                l.entry.set(Purpose::Train, effect);
                l.entry.set(Purpose::Input, effect);
                (l.entry.rules).extend_from_slice(&["TDMREP §6.7", "S-2", "S-9"]);
                l.entry.notes.push(Note::TdmInForce { value });
            } else if let Some(v) = l.value {
                let by = (i < decider).then_some(by);
                l.entry.notes.push(Note::TdmSuperseded { value: v, by });
            }
        }
        let Some(with_policy) = layers.iter_mut().rev().find(|l| l.policy.is_some()) else {
            return;
        };
        let policy = with_policy.policy.clone().unwrap_or_default();
        match value {
            Reservation::Reserved => self.conditions.push(Condition {
                condition: "tdm-policy",
                value: policy,
                signal: Signal::Tdmrep,
                at: with_policy.entry.at.clone(),
                purposes: [Purpose::Train, Purpose::Input].to_vec(),
                note: "how to obtain TDM authorisation (TDMREP §5.2); never fetched here",
            }),
            Reservation::NotReserved => {
                (with_policy.entry.notes).push(Note::TdmPolicyNotProcessed { policy })
            }
        }
    }
}

/// The `tdm-reservation` and `tdm-policy` META tags of the head (TDMREP §6.3).
fn tdm_tags(tags: &[HeadMeta]) -> Option<Carrier<'_>> {
    let named = |name: &str| -> Vec<&HeadMeta> {
        tags.iter()
            .filter(|t| t.name.eq_ignore_ascii_case(name))
            .collect()
    };
    let (reservations, policies) = (named("tdm-reservation"), named("tdm-policy"));
    let first = reservations.first().or(policies.first())?;
    fn content(t: &HeadMeta) -> &str {
        t.content.as_deref().unwrap_or("")
    }
    let raw = (reservations.iter().chain(&policies))
        .map(|t| format!("<meta name=\"{}\" content=\"{}\">", t.name, content(t)))
        .collect();
    Some(Carrier {
        at: Where::tag(first.index),
        rule: "TDMREP §6.3",
        name: "META tag",
        raw,
        policy: policies.first().map(|t| content(t).trim().to_owned()),
        values: reservations.iter().map(|t| content(t)).collect(),
    })
}

/// One TDMRep carrier's layer ([S-11]): any 1 gives 1, else any 0 gives 0; other values are a
/// protocol error, treated as absent (TDMREP §5.1).
fn carrier(c: Carrier<'_>) -> Layer {
    let (value, invalid) = tdmrep::carrier(c.values.iter().copied());
    let mut entry = Entry::new(Signal::Tdmrep, c.at)
        .raw(c.raw.join("\n"))
        .rules(&[c.rule, "S-11"]);
    if !invalid.is_empty() {
        entry.error = Some(Problem::TdmCarrier {
            shown: invalid.iter().take(SHOWN).map(|v| v.to_string()).collect(),
            more: invalid.len().saturating_sub(SHOWN),
        });
    }
    Layer {
        entry,
        value,
        policy: c.policy,
        name: c.name,
    }
}
