//! Arrows grouped for the project summary: when one participant sends the same verbs to
//! the same target for many kinds (or the API notifies it of many kinds the same way),
//! one arrow stands for them all, `create/update Deployment, Service and 4 more`, where
//! the first of them was. Its label lists as many kinds as the drawing shows uncut
//! (`MESSAGE_CHARS`), by name, or as `serving.knative.dev/v1 Service` where two kinds of
//! the diagram share a name; its tooltip (`Group::title`) and the table under the diagram
//! list every kind. An arrow of an unresolved kind is never grouped.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Group, Member, Message, MessageKind, Participant};
use crate::svg::sequence::MESSAGE_CHARS;
use crate::table::Anchors;
use model::Gvk;

/// A message before it is drawn, with its label in parts, so that arrows differing only
/// in their kind can become one.
pub(super) struct Arrow {
    pub from: usize,
    pub to: usize,
    pub kind: MessageKind,
    /// What comes before the kind: `Watch`, or the verbs (`create/update`).
    pub head: String,
    /// What follows it: ` (owned)` for a watch, else nothing.
    pub tail: String,
    /// The kind, `None` when it is unresolved.
    pub gvk: Option<Gvk>,
    /// The kind as the label names it (`apps/v1 Deployment`, `unknown kind`).
    pub shown: String,
    pub link: String,
    pub source: String,
}

impl Arrow {
    pub fn label(&self) -> String {
        format!("{} {}{}", self.head, self.shown, self.tail)
    }

    /// The arrow as a message of its own.
    pub fn message(self) -> Message {
        Message {
            from: self.from,
            to: self.to,
            kind: self.kind,
            label: self.label(),
            link: self.link,
            source: self.source,
            group: None,
        }
    }

    /// What an arrow must share with another to be grouped with it: all but the kind.
    fn key(&self) -> (usize, usize, MessageKind, String, String) {
        (
            self.from,
            self.to,
            self.kind,
            self.head.clone(),
            self.tail.clone(),
        )
    }
}

/// The arrows as messages, grouped; `row_url` gives the URL of a group's row (its anchor).
pub(super) fn messages(
    arrows: Vec<Arrow>,
    participants: &[Participant],
    row_url: &dyn Fn(&str) -> String,
) -> Vec<Message> {
    let shared = shared_names(&arrows);
    let mut anchors = Anchors::new();
    bundles(arrows)
        .into_iter()
        .map(|mut bundle| {
            if bundle.len() == 1 {
                return bundle.remove(0).message();
            }
            let label = |i: usize| participants.get(i).map(|x| x.label.as_str());
            let first = &bundle[0];
            let what = format!("{}{}", first.head, first.tail);
            let anchor = anchors.unique(&[
                "arrow",
                label(first.from).unwrap_or_default(),
                label(first.to).unwrap_or_default(),
                &what,
            ]);
            grouped(bundle, &shared, what, row_url(&anchor), anchor)
        })
        .collect()
}

/// The arrows in bundles that share `Arrow::key`, each bundle where its first arrow was,
/// its arrows in their order.
fn bundles(arrows: Vec<Arrow>) -> Vec<Vec<Arrow>> {
    let mut out: Vec<Vec<Arrow>> = Vec::new();
    let mut at: HashMap<_, usize> = HashMap::new();
    for a in arrows {
        if a.gvk.is_some() {
            if let Some(&i) = at.get(&a.key()) {
                out[i].push(a);
                continue;
            }
            at.insert(a.key(), out.len());
        }
        out.push(vec![a]);
    }
    out
}

/// The kind names that more than one API group of the diagram uses (`Service`).
fn shared_names(arrows: &[Arrow]) -> BTreeSet<String> {
    let mut groups: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for gvk in arrows.iter().filter_map(|a| a.gvk.as_ref()) {
        groups.entry(&gvk.kind).or_default().insert(&gvk.group);
    }
    groups
        .into_iter()
        .filter(|(_, g)| g.len() > 1)
        .map(|(kind, _)| kind.to_string())
        .collect()
}

/// One message for a bundle of two or more arrows.
fn grouped(
    bundle: Vec<Arrow>,
    shared: &BTreeSet<String>,
    what: String,
    link: String,
    anchor: String,
) -> Message {
    let names: Vec<String> = bundle
        .iter()
        .map(|a| match &a.gvk {
            Some(gvk) if !shared.contains(&gvk.kind) => gvk.kind.clone(),
            _ => a.shown.clone(),
        })
        .collect();
    let first = &bundle[0];
    Message {
        from: first.from,
        to: first.to,
        kind: first.kind,
        label: label(&first.head, &names, &first.tail),
        link,
        source: first.source.clone(),
        group: Some(Group {
            anchor,
            what,
            members: bundle
                .into_iter()
                .map(|a| Member {
                    text: a.shown,
                    link: a.link,
                })
                .collect(),
        }),
    }
}

/// `head a, b, ctail`, or when that is longer than `MESSAGE_CHARS`, the most names that
/// fit and `and N more` (at least one name).
fn label(head: &str, names: &[String], tail: &str) -> String {
    let with = |k: usize| {
        let listed = names[..k].join(", ");
        match names.len() - k {
            0 => format!("{head} {listed}{tail}"),
            more => format!("{head} {listed} and {more} more{tail}"),
        }
    };
    let fits = |l: &String| l.chars().count() <= MESSAGE_CHARS;
    let all = with(names.len());
    if fits(&all) {
        return all;
    }
    let mut best = with(1);
    for k in 2..names.len() {
        let longer = with(k);
        if !fits(&longer) {
            break;
        }
        best = longer;
    }
    best
}

#[cfg(test)]
mod tests;
