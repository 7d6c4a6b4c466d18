//! Reconciliation-flow sequence diagrams as data: participants, messages and notes built
//! from the model (never from strings of other diagrams), one per controller and one
//! summary per project. `mermaid` writes a diagram as mermaid text and `svg::sequence`
//! draws it, both from this one structure, so the two never disagree.
//!
//! Messages are deduplicated: a kind watched twice the same way is one arrow, all reads
//! of one kind are one arrow (`get/list v1 ConfigMap`), and all writes of one kind are one
//! arrow listing their verbs (`create/update/delete apps/v1 Deployment`). In the project
//! summary, the arrows of one participant with the same verbs for many kinds are one
//! (`group`).

mod group;

use std::collections::BTreeSet;

use group::Arrow;

use super::table::{KindPages, api_page};
use super::views::anchor;
use model::{Gvk, Project, Relation, SourceRef, UNRESOLVED, Verb};
use source::line_url;

#[derive(Debug, Clone, PartialEq)]
pub struct Diagram {
    /// What the diagram shows, for its accessible name.
    pub title: String,
    pub participants: Vec<Participant>,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    /// The mermaid identifier (`api`, `c0`, `p0`): ours, never repository text.
    pub id: String,
    pub label: String,
    pub link: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// A watch that triggers a reconcile (`For`, `Owns`, `Watches`): a solid arrow.
    Watch,
    /// An informer watch started outside the builder: a dashed arrow.
    Informer,
    /// Reads (get, list, watch through a client) of one kind, with their verbs.
    Read,
    /// Writes of one kind, with their verbs.
    Write,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Indexes into `participants`.
    pub from: usize,
    pub to: usize,
    pub kind: MessageKind,
    pub label: String,
    /// The kind's page when it has one, else the message's source line, else its row.
    pub link: String,
    /// The first place in the code the message comes from, as `file:line`.
    pub source: String,
    /// The kinds the arrow stands for, when it stands for several (the project summary).
    pub group: Option<Group>,
}

/// The kinds one arrow stands for: its sender sends the same verbs to the same target
/// for each of them (or the API notifies it of each the same way).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The id of the arrow's row in the table under the diagram, where the arrow links.
    pub anchor: String,
    /// What the arrow does for each kind: its verbs (`create/update`), or `Watch (owned)`.
    pub what: String,
    pub members: Vec<Member>,
}

/// One kind of a grouped arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The kind as its own arrow would name it (`apps/v1 Deployment`).
    pub text: String,
    /// Where its own arrow would link: its kind page, else its source line, else its row.
    pub link: String,
}

impl Group {
    /// Every kind in full, for the arrow's tooltip.
    pub fn title(&self) -> String {
        let kinds: Vec<&str> = self.members.iter().map(|m| m.text.as_str()).collect();
        format!("{}, {} kinds: {}", self.what, kinds.len(), kinds.join(", "))
    }
}

impl Message {
    pub fn dashed(&self) -> bool {
        self.kind == MessageKind::Informer
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// The first and last participant the note spans.
    pub over: (usize, usize),
    pub heading: String,
    pub items: Vec<NoteItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NoteItem {
    pub text: String,
    pub link: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Message(Message),
    Note(Note),
}

/// Where diagram links go: the site's base path, the project's pages and the kind pages.
pub struct Links<'a> {
    pub root: &'a str,
    pub kinds: &'a KindPages,
}

impl Links<'_> {
    fn dataflow(&self, p: &Project, fragment: &str) -> String {
        format!("{}projects/{}/dataflow/#{fragment}", self.root, p.name)
    }

    /// A row of a controller's own page (the dataflow page for a controller without one).
    fn controller(&self, p: &Project, c: &model::Controller, fragment: &str) -> String {
        match super::views::controller_page(p, c) {
            Some(page) => format!("{}{page}#{fragment}", self.root),
            None => super::views::controller_url(self.root, p, c),
        }
    }
}

fn source_url(p: &Project, sources: &[SourceRef]) -> Option<String> {
    let s = sources.first()?;
    line_url(&p.source_url, &p.commit, &s.file, s.line)
}

fn source_label(sources: &[SourceRef]) -> String {
    sources
        .first()
        .map(|s| format!("{}:{}", s.file, s.line))
        .unwrap_or_default()
}

fn kind_text(group: &str, version: &str, kind: &str) -> String {
    if group == UNRESOLVED {
        return "unknown kind".into();
    }
    gvk(group, version, kind).display()
}

fn gvk(group: &str, version: &str, kind: &str) -> Gvk {
    Gvk {
        group: group.into(),
        version: version.into(),
        kind: kind.into(),
    }
}

/// Adds arrows, skipping one equal to an earlier one in direction, kind and label, and
/// notes, which follow every arrow.
struct Builder<'a> {
    p: &'a Project,
    links: &'a Links<'a>,
    diagram: Diagram,
    arrows: Vec<Arrow>,
    notes: Vec<Note>,
    seen: BTreeSet<(usize, usize, String)>,
}

impl<'a> Builder<'a> {
    fn new(p: &'a Project, links: &'a Links<'a>, title: String) -> Builder<'a> {
        let api = Participant {
            id: "api".into(),
            label: "Kubernetes API".into(),
            link: links.dataflow(p, "controllers"),
        };
        Builder {
            p,
            links,
            diagram: Diagram {
                title,
                participants: vec![api],
                steps: Vec::new(),
            },
            arrows: Vec::new(),
            notes: Vec::new(),
            seen: BTreeSet::new(),
        }
    }

    /// The diagram: its arrows, grouped (`group`) when `grouped`, then its notes.
    fn finish(self, grouped: bool) -> Diagram {
        let Builder {
            p,
            links,
            mut diagram,
            arrows,
            notes,
            ..
        } = self;
        let messages = if grouped {
            group::messages(arrows, &diagram.participants, &|row| links.dataflow(p, row))
        } else {
            arrows.into_iter().map(Arrow::message).collect()
        };
        diagram.steps = messages
            .into_iter()
            .map(Step::Message)
            .chain(notes.into_iter().map(Step::Note))
            .collect();
        diagram
    }

    fn participant(&mut self, prefix: &str, label: String, link: String) -> usize {
        let n = self
            .diagram
            .participants
            .iter()
            .filter(|x| x.id.starts_with(prefix))
            .count();
        self.diagram.participants.push(Participant {
            id: format!("{prefix}{n}"),
            label,
            link,
        });
        self.diagram.participants.len() - 1
    }

    fn arrow(&mut self, a: Arrow) {
        if self.seen.insert((a.from, a.to, a.label())) {
            self.arrows.push(a);
        }
    }

    /// The kind's page, else the source line, else the row (`row`, a URL).
    fn link(&self, group: &str, kind: &str, sources: &[SourceRef], row: &str) -> String {
        self.links
            .kinds
            .url(group, kind)
            .or_else(|| source_url(self.p, sources))
            .unwrap_or_else(|| row.to_string())
    }

    fn watch(
        &mut self,
        at: usize,
        relation: Relation,
        (group, version, kind): (&str, &str, &str),
        unresolved_path: Option<&str>,
        sources: &[SourceRef],
        row: &str,
    ) {
        let what = match relation {
            Relation::For => "reconcile",
            Relation::Owns => "owned",
            Relation::Watches => "watch",
            Relation::Informer => "informer",
        };
        let shown = match unresolved_path {
            Some(path) => format!("{path}.{kind} (unresolved)"),
            None => kind_text(group, version, kind),
        };
        let link = if unresolved_path.is_some() {
            source_url(self.p, sources).unwrap_or_else(|| row.to_string())
        } else {
            self.link(group, kind, sources, row)
        };
        self.arrow(Arrow {
            from: 0,
            to: at,
            kind: if relation == Relation::Informer {
                MessageKind::Informer
            } else {
                MessageKind::Watch
            },
            head: "Watch".into(),
            tail: format!(" ({what})"),
            gvk: unresolved_path.is_none().then(|| gvk(group, version, kind)),
            shown,
            link,
            source: source_label(sources),
        });
    }

    /// One arrow per kind read or written (`message`), its verbs in a fixed order (reads,
    /// then creates, updates, patches, deletes), so every arrow reads the same way.
    fn calls<'o>(
        &mut self,
        at: usize,
        message: MessageKind,
        ops: impl Iterator<Item = (Verb, (&'o str, &'o str, &'o str), &'o [SourceRef])>,
        row: &str,
    ) {
        // Each kind once, with its verbs in order and the sources of its first operation.
        type KindVerbs<'k> = ((&'k str, &'k str, &'k str), Vec<Verb>, &'k [SourceRef]);
        let mut kinds: Vec<KindVerbs> = Vec::new();
        for (verb, gvk, sources) in ops {
            match kinds.iter_mut().find(|(k, _, _)| *k == gvk) {
                Some((_, verbs, _)) => {
                    if !verbs.contains(&verb) {
                        verbs.push(verb);
                    }
                }
                None => kinds.push((gvk, vec![verb], sources)),
            }
        }
        for ((group, version, kind), mut verbs, sources) in kinds {
            verbs.sort_by_key(|v| verb_rank(*v));
            let link = if group == UNRESOLVED {
                source_url(self.p, sources).unwrap_or_else(|| row.to_string())
            } else {
                self.link(group, kind, sources, row)
            };
            self.arrow(Arrow {
                from: at,
                to: 0,
                kind: message,
                head: verbs
                    .iter()
                    .map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join("/"),
                tail: String::new(),
                gvk: (group != UNRESOLVED).then(|| gvk(group, version, kind)),
                shown: kind_text(group, version, kind),
                link,
                source: source_label(sources),
            });
        }
    }

    fn note(&mut self, heading: &str, items: Vec<NoteItem>) {
        if items.is_empty() {
            return;
        }
        let last = self.diagram.participants.len() - 1;
        self.notes.push(Note {
            over: (0, last),
            heading: heading.into(),
            items,
        });
    }

    /// The project's own CRDs (not bundled, not samples), once per kind, that `keep` selects.
    fn crd_note(&mut self, keep: impl Fn(&str, &str) -> bool) {
        let mut seen = BTreeSet::new();
        let items = self
            .p
            .findings
            .crds
            .iter()
            .filter(|c| c.area.is_component() && !c.bundled && keep(&c.group, &c.kind))
            .filter(|c| seen.insert((c.group.clone(), c.kind.clone())))
            .map(|c| NoteItem {
                text: format!("{} ({})", c.kind, c.group),
                link: self.links.kinds.url(&c.group, &c.kind).unwrap_or_else(|| {
                    format!(
                        "{}{}",
                        self.links.root,
                        api_page(&self.p.name, &c.group, &c.kind)
                    )
                }),
            })
            .collect();
        self.note("Defines", items);
    }
}

/// The diagram of one controller: the API server notifies it of every watched kind, and
/// it writes kinds back; a note names the project's CRDs it watches.
pub fn controller(p: &Project, c: &model::Controller, links: &Links) -> Diagram {
    let mut b = Builder::new(
        p,
        links,
        format!("Reconciliation flow of the {} controller", c.name),
    );
    let at = b.participant(
        "c",
        format!("{} controller", c.name),
        source_url(p, &c.sources).unwrap_or_else(|| links.controller(p, c, "watches")),
    );
    add_controller(&mut b, c, at);
    b.crd_note(|group, kind| c.watches.iter().any(|w| w.group == group && w.kind == kind));
    b.finish(false)
}

/// A controller's watches, reads and writes; an arrow that has neither a kind page nor a
/// source line links to the row on the controller's page.
fn add_controller(b: &mut Builder, c: &model::Controller, at: usize) {
    for w in &c.watches {
        let unresolved = (!w.is_resolved()).then(|| w.import_path.as_deref().unwrap_or("?"));
        let row = b.links.controller(
            b.p,
            c,
            &anchor(&["watch", &c.name, w.relation.label(), &w.group, &w.kind]),
        );
        b.watch(
            at,
            w.relation,
            (&w.group, &w.version, &w.kind),
            unresolved,
            &w.sources,
            &row,
        );
    }
    b.calls(
        at,
        MessageKind::Read,
        c.reads.iter().map(|o| {
            (
                o.verb,
                (o.group.as_str(), o.version.as_str(), o.kind.as_str()),
                o.sources.as_slice(),
            )
        }),
        &b.links.controller(b.p, c, "reads"),
    );
    b.calls(
        at,
        MessageKind::Write,
        c.operations.iter().map(|o| {
            (
                o.verb,
                (o.group.as_str(), o.version.as_str(), o.kind.as_str()),
                o.sources.as_slice(),
            )
        }),
        &b.links.controller(b.p, c, "writes"),
    );
}

/// Where a verb goes in an arrow's label: reads, creates, updates, patches, status writes,
/// deletes.
fn verb_rank(verb: Verb) -> u8 {
    match verb {
        Verb::Get => 0,
        Verb::List => 1,
        Verb::Watch => 2,
        Verb::Create => 3,
        Verb::CreateOrUpdate => 4,
        Verb::CreateOrPatch => 5,
        Verb::Update => 6,
        Verb::Patch => 7,
        Verb::Apply => 8,
        Verb::StatusUpdate => 9,
        Verb::StatusPatch => 10,
        Verb::Delete => 11,
        Verb::DeleteAllOf => 12,
    }
}

/// The project summary: every component controller, then the packages that watch or
/// write outside any controller, with notes for the project's CRDs and Services. The
/// arrows of one participant that differ only by kind are one arrow (`group`); it links to
/// its row in the table under the diagram on the dataflow page.
pub fn summary(p: &Project, links: &Links) -> Diagram {
    let mut b = Builder::new(p, links, format!("Reconciliation flow of {}", p.title));
    // Main controllers first, as everywhere: their lifelines lead the diagram.
    for c in super::main_first::ordered(p).0 {
        let at = b.participant(
            "c",
            format!("{} controller", c.name),
            links.controller(p, c, "sequence"),
        );
        add_controller(&mut b, c, at);
    }
    let packages = outside_packages(p);
    let labels = short_packages(&packages);
    for (package, label) in packages.into_iter().zip(labels) {
        add_package(&mut b, p, links, package, &label);
    }
    b.crd_note(|_, _| true);
    b.note("Exposes", service_items(p, links));
    b.finish(true)
}

/// The packages of the project's own code that watch or write outside any controller,
/// sorted.
fn outside_packages(p: &Project) -> Vec<&str> {
    let mut packages: Vec<&str> = p
        .findings
        .informers
        .iter()
        .filter(|i| i.area.is_component())
        .map(|i| i.package.as_str())
        .chain(
            p.findings
                .package_operations
                .iter()
                .filter(|o| o.area.is_component())
                .map(|o| o.package.as_str()),
        )
        .collect();
    packages.sort();
    packages.dedup();
    packages
}

/// A package's lifeline (labelled `label`) with its informers' watches and its writes.
fn add_package(b: &mut Builder, p: &Project, links: &Links, package: &str, label: &str) {
    let first = p
        .findings
        .informers
        .iter()
        .filter(|i| i.package == package)
        .map(|i| &i.sources)
        .chain(
            p.findings
                .package_operations
                .iter()
                .filter(|o| o.package == package)
                .map(|o| &o.sources),
        )
        .next()
        .cloned()
        .unwrap_or_default();
    let has_informers = p
        .findings
        .informers
        .iter()
        .any(|i| i.package == package && i.area.is_component());
    let table = if has_informers {
        "informers"
    } else {
        "package-operations"
    };
    let at = b.participant(
        "p",
        format!("package {label}"),
        source_url(p, &first).unwrap_or_else(|| links.dataflow(p, table)),
    );
    for i in p
        .findings
        .informers
        .iter()
        .filter(|i| i.package == package && i.area.is_component())
    {
        let unresolved = (i.group == UNRESOLVED).then_some(i.package.as_str());
        b.watch(
            at,
            Relation::Informer,
            (&i.group, &i.version, &i.kind),
            unresolved,
            &i.sources,
            &links.dataflow(p, "informers"),
        );
    }
    b.calls(
        at,
        MessageKind::Write,
        p.findings
            .package_operations
            .iter()
            .filter(|o| o.package == package && o.area.is_component())
            .map(|o| {
                (
                    o.verb,
                    (o.group.as_str(), o.version.as_str(), o.kind.as_str()),
                    o.sources.as_slice(),
                )
            }),
        &links.dataflow(p, "package-operations"),
    );
}

/// The project's own Services with their ports, for the "Exposes" note.
fn service_items(p: &Project, links: &Links) -> Vec<NoteItem> {
    p.findings
        .services
        .iter()
        .filter(|s| s.area.is_component() && !s.bundled)
        .map(|s| NoteItem {
            text: if s.ports.is_empty() {
                s.name.clone()
            } else {
                format!(
                    "{} ({})",
                    s.name,
                    s.ports
                        .iter()
                        .map(|port| match (port.port.as_str(), port.name.as_str()) {
                            ("", "") => "no port number".to_string(),
                            ("", name) => format!("{name}: no port number"),
                            (number, _) => number.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            link: links.dataflow(p, &anchor(&["service", &s.namespace, &s.name])),
        })
        .collect()
}

/// Each import path shortened to its last two segments (`…/reconcilers/deployment`), or
/// more where another path of `paths` has the same tail: packages of one module share
/// their long prefix, so the tail is what tells them apart in a box, and two boxes named
/// `…/reconcilers/modelconfig` would not.
fn short_packages(paths: &[&str]) -> Vec<String> {
    let split: Vec<Vec<&str>> = paths.iter().map(|p| p.split('/').collect()).collect();
    let tail = |parts: &[&str], k: usize| parts[parts.len().saturating_sub(k)..].join("/");
    split
        .iter()
        .enumerate()
        .map(|(i, parts)| {
            let mut k = 2;
            while k + 1 < parts.len()
                && split
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && tail(other, k) == tail(parts, k))
            {
                k += 1;
            }
            if k + 1 < parts.len() {
                format!("…/{}", tail(parts, k))
            } else {
                paths[i].to_string()
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
