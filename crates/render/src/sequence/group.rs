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
mod tests {
    use super::super::tests::{op, project};
    use super::super::{Links, Step, summary};
    use super::*;
    use crate::table::KindPages;
    use model::Project;

    /// `demo`'s summary with its one controller writing these operations and nothing else.
    fn summary_of(operations: Vec<model::Operation>) -> Vec<Message> {
        let mut p: Project = project();
        let c = &mut p.findings.controllers[0];
        c.operations = operations;
        c.watches.clear();
        c.reads.clear();
        p.findings.crds.clear();
        let kinds = KindPages::none("/");
        let links = Links {
            root: "/",
            kinds: &kinds,
        };
        summary(&p, &links)
            .steps
            .into_iter()
            .filter_map(|s| match s {
                Step::Message(m) => Some(m),
                Step::Note(_) => None,
            })
            .collect()
    }

    const KINDS: [(&str, &str); 8] = [
        ("apps", "Deployment"),
        ("", "Service"),
        ("autoscaling", "HorizontalPodAutoscaler"),
        ("", "ConfigMap"),
        ("", "Secret"),
        ("networking.k8s.io", "Ingress"),
        ("keda.sh", "ScaledObject"),
        ("", "ServiceAccount"),
    ];

    #[test]
    fn eight_kinds_written_with_the_same_verbs_are_one_arrow() {
        let ops = KINDS
            .iter()
            .enumerate()
            .flat_map(|(i, (group, kind))| {
                let line = 10 * i as u32;
                [
                    op("update", group, kind, line),
                    op("create", group, kind, line + 1),
                ]
            })
            .collect();
        let messages = summary_of(ops);
        assert_eq!(messages.len(), 1, "{messages:#?}");
        let m = &messages[0];
        assert_eq!((m.from, m.to, m.kind), (1, 0, MessageKind::Write));
        assert_eq!(
            m.label,
            "create/update Deployment, Service, HorizontalPodAutoscaler and 5 more"
        );
        assert!(m.label.chars().count() <= MESSAGE_CHARS);
        // The first kind's first call, and a link to the group's row on the dataflow page.
        assert_eq!(m.source, "r.go:0");
        assert_eq!(
            m.link,
            "/projects/demo/dataflow/#arrow-widget-controller-kubernetes-api-create-update"
        );
        let group = m.group.as_ref().expect("grouped");
        assert_eq!(group.what, "create/update");
        let texts: Vec<&str> = group.members.iter().map(|k| k.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "apps/v1 Deployment",
                "v1 Service",
                "autoscaling/v1 HorizontalPodAutoscaler",
                "v1 ConfigMap",
                "v1 Secret",
                "networking.k8s.io/v1 Ingress",
                "keda.sh/v1 ScaledObject",
                "v1 ServiceAccount",
            ]
        );
        // Each kind links where its own arrow would: here (no kind pages) its source line.
        assert_eq!(
            group.members[1].link,
            "https://github.com/o/demo/blob/abc/r.go#L10"
        );
        assert_eq!(
            group.title(),
            format!("create/update, 8 kinds: {}", texts.join(", "))
        );
    }

    #[test]
    fn different_verbs_are_different_arrows_in_order_of_first_appearance() {
        let ops = KINDS
            .iter()
            .enumerate()
            .map(|(i, (group, kind))| {
                let verb = if i % 3 == 2 { "delete" } else { "patch" };
                op(verb, group, kind, i as u32)
            })
            .collect();
        let labels: Vec<String> = summary_of(ops).into_iter().map(|m| m.label).collect();
        assert_eq!(
            labels,
            [
                "patch Deployment, Service, ConfigMap, Secret, ScaledObject and 1 more",
                "delete HorizontalPodAutoscaler, Ingress",
            ]
        );
    }

    #[test]
    fn one_kind_keeps_its_own_arrow_and_a_shared_name_its_group() {
        let messages = summary_of(vec![
            op("create", "", "Service", 1),
            op("create", "serving.knative.dev", "Service", 2),
            op("delete", "apps", "Deployment", 3),
        ]);
        let labels: Vec<&str> = messages.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "create v1 Service, serving.knative.dev/v1 Service",
                "delete apps/v1 Deployment",
            ]
        );
        assert_eq!(messages[1].group, None);
        assert_eq!(
            messages[1].link,
            "https://github.com/o/demo/blob/abc/r.go#L3"
        );
    }

    #[test]
    fn unresolved_kinds_are_never_grouped() {
        let unknown = |line| op("create", model::UNRESOLVED, "", line);
        let messages = summary_of(vec![unknown(1), op("create", "", "Secret", 2), unknown(3)]);
        let labels: Vec<&str> = messages.iter().map(|m| m.label.as_str()).collect();
        // The two calls of an unknown kind are one arrow already; it is not grouped with the
        // Secret's, which has the same verb.
        assert_eq!(labels, ["create unknown kind", "create v1 Secret"]);
        assert!(messages.iter().all(|m| m.group.is_none()));
    }

    #[test]
    fn a_label_lists_what_fits_and_counts_the_rest() {
        let names: Vec<String> = (0..30).map(|i| format!("Kind{i:02}")).collect();
        let l = label("get", &names, "");
        assert_eq!(
            l,
            "get Kind00, Kind01, Kind02, Kind03, Kind04, Kind05, Kind06 and 23 more"
        );
        assert!(l.chars().count() <= MESSAGE_CHARS);
        // A single name longer than the cut is still named (the drawing cuts it).
        let long = ["X".repeat(100), "Y".into()];
        assert_eq!(
            label("Watch", &long, " (owned)"),
            format!("Watch {} and 1 more (owned)", long[0])
        );
    }
}
