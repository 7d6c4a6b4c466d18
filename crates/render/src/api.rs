//! The CRD API reference: `/projects/P/api/` (the project's CRDs) and
//! `/projects/P/api/GROUP/KIND/` (one page per kind: versions, scope, short names, printer
//! columns, and the schema's field tree with a deep anchor per field).
//!
//! A kind shipped with different contents (KServe's full and minimal CRDs) is one page with
//! one part per distinct content, the richest schema first. Field anchors are
//! `field-PATH` for the first version shown, `field-VERSION-PATH` for other versions and
//! `variant-N-field-VERSION-PATH` for other variants; `PATH` is the field path in anchor
//! form (`spec.predictor.model` → `spec-predictor-model`). Descriptions are repository
//! text and are shown as plain, escaped text with their line breaks.

use std::collections::BTreeMap;

use serde::Serialize;

use super::example_yaml::{self, Kind};
use super::table::{Anchors, Cell, TableRow, api_page, counted, source_links};
use super::version_diff::{self, VersionDiff};
use super::views::Link;
use derive::schema::tree::type_text;
use model::{Area, CelRule, Crd, CrdSchema, CrdVersion, Project, SchemaField, StatusCondition};

/// The project header every page shows.
#[derive(Serialize)]
pub struct Header {
    pub name: String,
    pub title: String,
    pub description: String,
    pub repository: String,
    pub commit: String,
    pub error: String,
}

impl Header {
    pub fn of(p: &Project) -> Header {
        Header {
            name: p.name.clone(),
            title: p.title.clone(),
            description: p.description.clone(),
            repository: p.repository.clone(),
            commit: p.commit.clone(),
            error: p.error.clone().unwrap_or_default(),
        }
    }
}

#[derive(Serialize)]
pub struct ApiIndex {
    #[serde(flatten)]
    pub header: Header,
    /// The project's own kinds.
    pub kinds: Vec<TableRow>,
    /// Kinds of bundled CRDs (shipped for another project's API groups).
    pub bundled: Vec<TableRow>,
    /// Kinds from tests, docs and samples only.
    pub samples: Vec<TableRow>,
    pub own_groups: Vec<String>,
}

#[derive(Serialize)]
pub struct KindPage {
    #[serde(flatten)]
    pub header: Header,
    /// Site-relative folder of this page.
    #[serde(skip)]
    pub path: String,
    /// This page's URL (under the base path), for its data files and all-fields page.
    pub url: String,
    pub group: String,
    pub kind: String,
    pub plural: String,
    pub scope: String,
    pub short_names: String,
    pub bundled: bool,
    pub samples_only: bool,
    /// The Go types (with kubebuilder markers) that declare this kind, one per version.
    pub go_types: Vec<GoTypeView>,
    pub variants: Vec<Variant>,
    /// The status conditions Go code sets on objects of this kind, one row per type.
    pub conditions: Vec<TableRow>,
    /// Knative condition sets declared for it: name, happy condition, dependents.
    pub condition_sets: Vec<TableRow>,
    /// For a bundled kind in a project: the URL of the reference page its content shares
    /// with every project shipping the same content (this page then keeps only what is
    /// the project's own: where the files are, the conditions its code sets).
    pub shared_url: String,
    /// How many projects ship this content (on both pages).
    pub shared_by: usize,
    /// On a shared page: each project that ships it, linked to its page of the kind.
    pub shipped_by: Vec<Link>,
    /// On a shared page: the projects of the portal that define the kind themselves.
    pub defined_by: Vec<Link>,
}

/// A kind page as a template sees it: as a tree (the reference page) or with every field
/// in one table (its `all-fields/` page, for readers without script).
#[derive(Serialize)]
pub struct AllFields<'a> {
    #[serde(flatten)]
    pub page: &'a KindPage,
    pub all_fields: bool,
}

/// A Go API type behind a CRD version, from its kubebuilder markers.
#[derive(Serialize)]
pub struct GoTypeView {
    pub version: String,
    /// `storage version`, `subresources: status, scale`, printer columns…
    pub facts: String,
    pub sources: Vec<Link>,
}

#[derive(Serialize)]
pub struct Variant {
    pub title: String,
    pub sources: Vec<Link>,
    pub templated: bool,
    pub versions: Vec<VersionView>,
    /// The changes from each served version to the next, oldest first (with two or more).
    pub changes: Vec<VersionDiff>,
    pub changes_anchor: String,
}

#[derive(Serialize)]
pub struct VersionView {
    pub anchor: String,
    pub name: String,
    pub flags: String,
    pub description: String,
    pub columns: Vec<TableRow>,
    /// Every field in schema order, for the all-fields page (which the tree's script
    /// reads its deeper fields from).
    pub fields: Vec<FieldView>,
    /// The tree's first two levels, `spec` and `status` first: what the page shows before
    /// a reader opens a field (deeper ones come from the all-fields page).
    pub tree: Vec<FieldView>,
    pub truncated: bool,
    pub has_schema: bool,
    /// An example manifest for a served version with a schema (YAML), else "".
    pub example: String,
    pub example_anchor: String,
    /// The Go type the fields were matched with, if any.
    pub go_type: Option<GoOriginView>,
    /// Every CEL validation rule of the version: the root's, then each field's in tree order.
    pub rules: Vec<RuleRow>,
    pub rules_anchor: String,
    /// A version shown earlier on the page (of this variant or an earlier one) whose
    /// fields read exactly as this one's (its fields, tree, rules and example are then not
    /// repeated here), as `[label, anchor]`.
    pub same_as: Option<[String; 2]>,
}

/// One CEL rule as the field that carries it shows it.
#[derive(Serialize, Clone)]
pub struct RuleView {
    pub rule: String,
    pub message: String,
    /// Where it applies and where it comes from: `each item`, `reason: …`, `Go marker`.
    pub note: String,
}

/// One row of a version's "Validation rules" list.
#[derive(Serialize)]
pub struct RuleRow {
    /// The field path, or "" for the object itself.
    pub path: String,
    /// The field's anchor, or "" for the object.
    pub anchor: String,
    /// The field is drawn on the page; a deeper one is linked on the all-fields page
    /// (with script, `schema.js` opens it in the tree instead).
    pub drawn: bool,
    #[serde(flatten)]
    pub rule: RuleView,
}

/// Where a version's field order and Go-side descriptions come from.
#[derive(Serialize)]
pub struct GoOriginView {
    pub name: String,
    pub package: String,
    pub sources: Vec<Link>,
    /// Fields whose description is a Go doc comment (the CRD has none for them).
    pub described: usize,
}

#[derive(Serialize, Clone)]
pub struct FieldView {
    pub anchor: String,
    pub path: String,
    /// The last segment of the path, shown indented by depth.
    pub name: String,
    pub depth: u32,
    pub type_text: String,
    pub required: bool,
    pub default: String,
    pub enum_text: String,
    pub constraints: String,
    pub description: String,
    /// For a repeated subtree: the path and anchor of the first copy.
    pub same_as: String,
    pub same_as_anchor: String,
    /// Fields under this one (its own, or the first copy's for a repeated subtree).
    pub children: usize,
    /// Its CEL validation rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleView>,
}

/// A rule as shown: its message (or message expression), and a note saying where it applies.
fn rule_view(r: &CelRule) -> RuleView {
    let mut note = Vec::new();
    if r.each {
        note.push("checks each item".to_string());
    }
    if !r.field_path.is_empty() {
        note.push(format!("reported at {}", r.field_path));
    }
    if !r.reason.is_empty() {
        note.push(format!("reason {}", r.reason));
    }
    if r.from_marker {
        note.push(
            "from a Go XValidation marker; the CRD in the repository has no rule here".into(),
        );
    }
    RuleView {
        rule: r.rule.clone(),
        message: if r.message.is_empty() && !r.message_expression.is_empty() {
            format!("message expression: {}", r.message_expression)
        } else {
            r.message.clone()
        },
        note: note.join("; "),
    }
}

/// The number of CEL validation rules of a CRD: its version with the most.
pub fn rule_count(c: &Crd) -> usize {
    c.schema.iter().map(schema_rules).max().unwrap_or(0)
}

/// The rules the API server checks on one version: the root's and every field's, a
/// repeated subtree's (`same_as`) counted again for each copy, as the CRD spells them out.
fn schema_rules(s: &CrdSchema) -> usize {
    let fields = &s.fields;
    let parents = kubernetes::schema_tree::parents_by_depth(fields.iter().map(|f| f.depth));
    let index: BTreeMap<&str, usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let first: Vec<Option<usize>> = fields
        .iter()
        .map(|f| f.same_as.as_deref().and_then(|p| index.get(p).copied()))
        .collect();
    // `under[i]`: the rules below field i. A copy's count needs its first copy's, which
    // may need another's: each pass settles one more level of copies (bounded by depth).
    let mut under = vec![0usize; fields.len()];
    for _ in 0..kubernetes::schema_tree::MAX_DEPTH + 1 {
        let mut next = vec![0usize; fields.len()];
        for i in (0..fields.len()).rev() {
            let copied = first[i].filter(|&j| j != i).map_or(0, |j| under[j]);
            next[i] += copied;
            if let Some(p) = parents[i] {
                next[p] += next[i] + fields[i].rules.len();
            }
        }
        if next == under {
            break;
        }
        under = next;
    }
    let top: usize = (0..fields.len())
        .filter(|&i| parents[i].is_none())
        .map(|i| under[i] + fields[i].rules.len())
        .sum();
    s.rules.len() + top
}

/// The levels of the schema tree a kind page shows before a reader opens a field.
const SHOWN_DEPTH: u32 = 1;

/// Top-level fields in the order a reader looks for them: `spec`, `status`, then the
/// rest (`apiVersion`, `kind`, `metadata`) in schema order. Fields keep their place
/// under their top-level field.
fn reader_order(fields: &mut [FieldView]) {
    let rank = |path: &str| match path.split(['.', '[']).next().unwrap_or("") {
        "spec" => 0,
        "status" => 1,
        _ => 2,
    };
    // A stable sort keeps each subtree in schema order under its top-level field.
    fields.sort_by_key(|f| rank(&f.path));
}

/// Counts each field's children: the fields one level deeper under its path, or, for a
/// repeated subtree, those under the first copy.
fn count_children(fields: &mut [FieldView]) {
    let mut under: BTreeMap<String, usize> = BTreeMap::new();
    for f in fields.iter() {
        if f.depth == 0 {
            continue;
        }
        if let Some(parent) = parent_path(&f.path) {
            *under.entry(parent.to_string()).or_insert(0) += 1;
        }
    }
    for f in fields.iter_mut() {
        let own = under.get(&f.path).copied().unwrap_or(0);
        f.children = if own == 0 && !f.same_as.is_empty() {
            under.get(&f.same_as).copied().unwrap_or(0)
        } else {
            own
        };
    }
}

/// `spec.predictor` for `spec.predictor.model`, `spec.containers[]` for
/// `spec.containers[].name`; `None` at the top.
fn parent_path(path: &str) -> Option<&str> {
    path.rfind('.').map(|at| &path[..at])
}

/// The CRDs of one project grouped by page: (group, kind) → variants, richest first.
fn by_kind(p: &Project) -> BTreeMap<String, Vec<&Crd>> {
    let mut pages: BTreeMap<String, Vec<&Crd>> = BTreeMap::new();
    for c in &p.findings.crds {
        pages
            .entry(api_page(&p.name, &c.group, &c.kind))
            .or_default()
            .push(c);
    }
    for variants in pages.values_mut() {
        variants.sort_by_key(|c| richest_first(c));
    }
    pages
}

/// The order of a kind's variants (a full and a minimal CRD): the richest schema first,
/// then by first source. The API reference and the dataflow page's Defined CRDs share it.
pub fn richest_first(c: &Crd) -> (std::cmp::Reverse<usize>, Option<model::SourceRef>) {
    (
        std::cmp::Reverse(c.schema.iter().map(|s| s.fields.len()).sum::<usize>()),
        c.sources.first().cloned(),
    )
}

/// The number of fields of a CRD's largest version schema.
pub fn field_count(c: &Crd) -> usize {
    c.schema.iter().map(|s| s.fields.len()).max().unwrap_or(0)
}

/// `v1 (storage), v1beta1 (not served, deprecated)`.
pub fn versions_text(c: &Crd) -> String {
    c.versions
        .iter()
        .map(|v| {
            let mut flags = Vec::new();
            if v.storage {
                flags.push("storage");
            }
            if !v.served {
                flags.push("not served");
            }
            if v.deprecated {
                flags.push("deprecated");
            }
            if flags.is_empty() {
                v.name.clone()
            } else {
                format!("{} ({})", v.name, flags.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn index(p: &Project, root: &str, shared: &SharedKinds) -> ApiIndex {
    let mut kinds = Vec::new();
    let mut bundled = Vec::new();
    let mut samples = Vec::new();
    for (page, variants) in by_kind(p) {
        let Some(first) = variants.first() else {
            continue;
        };
        // A bundled kind links straight to its shared reference.
        let page = shared
            .folder(&p.name, &first.group, &first.kind)
            .map_or(page, str::to_string);
        let row = TableRow {
            anchor: super::views::anchor(&["kind", &first.group, &first.kind]),
            cells: vec![
                Cell::link(first.kind.clone(), format!("{root}{page}")),
                Cell::text(first.group.clone()),
                Cell::text(versions_text(first)),
                Cell::text(first.scope.clone()),
                Cell::text(first.short_names.join(", ")),
                Cell::text(if variants.len() > 1 {
                    format!(
                        "{} variants: {} fields",
                        variants.len(),
                        variants
                            .iter()
                            .map(|c| field_count(c).to_string())
                            .collect::<Vec<_>>()
                            .join(" / ")
                    )
                } else {
                    counted(field_count(first), "field", "fields")
                }),
                Cell::text(match rule_count(first) {
                    0 => String::new(),
                    n => n.to_string(),
                }),
            ],
            sources: variants
                .iter()
                .flat_map(|c| source_links(p, &c.sources))
                .collect(),
        };
        if variants.iter().all(|c| c.bundled) {
            bundled.push(row);
        } else if variants.iter().all(|c| c.area == Area::Samples) {
            samples.push(row);
        } else {
            kinds.push(row);
        }
    }
    let mut own_groups: Vec<String> = p
        .findings
        .api_packages
        .iter()
        .map(|a| a.group.clone())
        .collect();
    own_groups.sort();
    own_groups.dedup();
    ApiIndex {
        header: Header::of(p),
        kinds,
        bundled,
        samples,
        own_groups,
    }
}

/// One page per kind of the project.
/// The project's Go types for a kind: where a CRD and the Go code that generates it meet.
fn go_types(p: &Project, group: &str, kind: &str) -> Vec<GoTypeView> {
    let mut out: Vec<GoTypeView> = p
        .findings
        .api_types
        .iter()
        .filter(|t| t.group == group && t.kind == kind)
        .map(|t| {
            let mut facts = Vec::new();
            if t.storage_version {
                facts.push("storage version".to_string());
            }
            if !t.subresources.is_empty() {
                facts.push(format!("subresources: {}", t.subresources.join(", ")));
            }
            if !t.printer_columns.is_empty() {
                let names: Vec<&str> = t.printer_columns.iter().map(|c| c.name.as_str()).collect();
                facts.push(format!("printer columns: {}", names.join(", ")));
            }
            GoTypeView {
                version: t.version.clone(),
                facts: facts.join("; "),
                sources: source_links(p, &t.sources),
            }
        })
        .collect();
    out.sort_by(|a, b| a.version.cmp(&b.version));
    out
}

/// The status conditions set on a kind, one row per condition type: the statuses and
/// reasons set anywhere, the controllers that set them (or the functions no controller
/// reaches), every place.
fn conditions(p: &Project, root: &str, group: &str, kind: &str) -> Vec<TableRow> {
    use std::collections::BTreeSet;
    #[derive(Default)]
    struct Type<'a> {
        status: BTreeSet<&'a str>,
        reasons: BTreeSet<&'a str>,
        setters: BTreeSet<(String, String)>,
        sources: Vec<model::SourceRef>,
    }
    let mut by_type: BTreeMap<&str, Type> = BTreeMap::new();
    let of_kind = |s: &&StatusCondition| s.group == group && s.kind == kind;
    let rows = p
        .findings
        .controllers
        .iter()
        .flat_map(|c| {
            c.conditions.iter().filter(of_kind).map(move |s| {
                (
                    s,
                    (c.name.clone(), super::views::controller_url(root, p, c)),
                )
            })
        })
        .chain(
            p.findings
                .conditions
                .iter()
                .filter(of_kind)
                .map(|s| (s, (s.function.clone(), String::new()))),
        );
    for (s, setter) in rows {
        let t = by_type.entry(&s.condition_type).or_default();
        t.status.extend(s.status.iter().map(String::as_str));
        t.reasons.extend(s.reasons.iter().map(String::as_str));
        t.setters.insert(setter);
        for src in &s.sources {
            if !t.sources.contains(src) {
                t.sources.push(src.clone());
            }
        }
    }
    by_type
        .into_iter()
        .map(|(name, mut t)| {
            t.sources.sort();
            TableRow {
                anchor: super::views::anchor(&["condition", name]),
                cells: vec![
                    Cell::text(name),
                    Cell::text(t.status.into_iter().collect::<Vec<_>>().join(", ")),
                    Cell::text(t.reasons.into_iter().collect::<Vec<_>>().join(", ")),
                    Cell::list(
                        t.setters
                            .into_iter()
                            .map(|(name, url)| {
                                if url.is_empty() {
                                    Cell::text(name)
                                } else {
                                    Cell::link(name, url)
                                }
                            })
                            .collect(),
                    ),
                ],
                sources: source_links(p, &t.sources),
            }
        })
        .collect()
}

/// The Knative condition sets declared for a kind.
fn condition_sets(p: &Project, group: &str, kind: &str) -> Vec<TableRow> {
    p.findings
        .condition_sets
        .iter()
        .filter(|s| s.group == group && s.kind == kind)
        .map(|s| TableRow {
            anchor: super::views::anchor(&["condition-set", &s.name]),
            cells: vec![
                Cell::text(s.name.clone()),
                Cell::text(s.happy.clone()),
                Cell::text(s.dependents.join(", ")),
            ],
            sources: source_links(p, &s.sources),
        })
        .collect()
}

/// The project's own CRD kinds (neither bundled nor only in samples), with the
/// site-relative folder of each one's page, by kind.
pub fn own_kinds(p: &Project) -> Vec<(String, String)> {
    let mut kinds: Vec<(String, String)> = by_kind(p)
        .into_iter()
        .filter(|(_, variants)| {
            variants
                .iter()
                .any(|c| !c.bundled && c.area == Area::Component)
        })
        .filter_map(|(path, variants)| Some((variants.first()?.kind.clone(), path)))
        .collect();
    kinds.sort();
    kinds
}

pub fn kind_pages(p: &Project, root: &str) -> Vec<KindPage> {
    by_kind(p)
        .into_iter()
        .filter_map(|(path, variants)| {
            let first = *variants.first()?;
            let mut anchors = Anchors::new();
            let mut views: Vec<Variant> = variants
                .iter()
                .enumerate()
                .map(|(n, c)| variant(p, c, n, variants.len(), &mut anchors))
                .collect();
            point_to_earlier_versions(&variants, &mut views);
            Some(KindPage {
                header: Header::of(p),
                url: format!("{root}{path}"),
                path,
                group: first.group.clone(),
                kind: first.kind.clone(),
                plural: first.plural.clone(),
                scope: first.scope.clone(),
                short_names: first.short_names.join(", "),
                bundled: variants.iter().all(|c| c.bundled),
                samples_only: variants.iter().all(|c| c.area == Area::Samples),
                go_types: go_types(p, &first.group, &first.kind),
                conditions: conditions(p, root, &first.group, &first.kind),
                condition_sets: condition_sets(p, &first.group, &first.kind),
                variants: views,
                shared_url: String::new(),
                shared_by: 0,
                shipped_by: Vec::new(),
                defined_by: Vec::new(),
            })
        })
        .collect()
}

/// Bundled kinds (another project's CRDs shipped for installation: Istio's, the Gateway
/// API's) get one reference page per kind and content for the whole portal, under
/// `/kinds/GROUP/KIND/CONTENT/`, instead of a full page in every project that ships them:
/// a platform whose projects bundle the same CRDs would otherwise repeat their schemas.
/// A project keeps a short page per bundled kind (its files, the conditions its code
/// sets) that links to the shared one.
pub struct SharedKinds {
    /// (project, group, kind) → the shared page's folder.
    folders: BTreeMap<(String, String, String), String>,
    /// Shared page folder → the indexes of the projects that ship that content.
    shippers: BTreeMap<String, Vec<usize>>,
}

impl SharedKinds {
    pub fn of(projects: &[Project]) -> SharedKinds {
        let mut shared = SharedKinds {
            folders: BTreeMap::new(),
            shippers: BTreeMap::new(),
        };
        for (i, p) in projects.iter().enumerate() {
            for variants in by_kind(p).values() {
                let Some(first) = variants.first() else {
                    continue;
                };
                if !variants.iter().all(|c| c.bundled) {
                    continue;
                }
                let folder = format!(
                    "{}{}/",
                    super::kinds::kind_page(&first.group, &first.kind),
                    content_key(variants)
                );
                shared.folders.insert(
                    (p.name.clone(), first.group.clone(), first.kind.clone()),
                    folder.clone(),
                );
                shared.shippers.entry(folder).or_default().push(i);
            }
        }
        shared
    }

    /// The shared page's folder for a project's bundled kind.
    pub fn folder(&self, project: &str, group: &str, kind: &str) -> Option<&str> {
        self.folders
            .get(&(project.to_string(), group.to_string(), kind.to_string()))
            .map(String::as_str)
    }

    /// How many projects ship the content of a shared page.
    pub fn count(&self, folder: &str) -> usize {
        self.shippers.get(folder).map_or(0, Vec::len)
    }

    /// The shared pages: each one's folder and full reference, made from the first project
    /// that ships it, with what is that project's own (its files, Go types, conditions)
    /// left to the projects' pages.
    pub fn pages(&self, projects: &[Project], root: &str) -> Vec<KindPage> {
        let mut out = Vec::new();
        // Each first shipper's kind pages, made once however many shared pages it gives.
        let mut made: BTreeMap<usize, Vec<KindPage>> = BTreeMap::new();
        for (folder, shippers) in &self.shippers {
            let Some((&at, first)) = shippers
                .first()
                .and_then(|i| projects.get(*i).map(|p| (i, p)))
            else {
                continue;
            };
            let pages = made.entry(at).or_insert_with(|| kind_pages(first, root));
            let Some(n) = pages
                .iter()
                .position(|k| self.folder(&first.name, &k.group, &k.kind) == Some(folder))
            else {
                continue;
            };
            let mut page = pages.swap_remove(n);
            page.header = Header {
                name: String::new(),
                title: format!("{} (bundled)", page.kind),
                description: String::new(),
                repository: String::new(),
                commit: String::new(),
                error: String::new(),
            };
            page.shipped_by = shippers
                .iter()
                .filter_map(|&i| projects.get(i))
                .map(|p| Link {
                    label: p.title.clone(),
                    url: format!("{root}{}", api_page(&p.name, &page.group, &page.kind)),
                    note: false,
                })
                .collect();
            page.defined_by = projects
                .iter()
                .filter(|p| {
                    p.findings.crds.iter().any(|c| {
                        c.group == page.group
                            && c.kind == page.kind
                            && !c.bundled
                            && c.area == Area::Component
                    })
                })
                .map(|p| Link {
                    label: p.title.clone(),
                    url: format!("{root}{}", api_page(&p.name, &page.group, &page.kind)),
                    note: false,
                })
                .collect();
            page.shared_by = shippers.len();
            page.go_types.clear();
            page.conditions.clear();
            page.condition_sets.clear();
            for v in &mut page.variants {
                v.sources.clear();
            }
            page.url = format!("{root}{folder}");
            page.path = folder.clone();
            out.push(page);
        }
        out
    }
}

/// A short, stable key of a bundled kind's content: its variants without where they are.
fn content_key(variants: &[&Crd]) -> String {
    let mut bytes = Vec::new();
    for c in variants {
        let mut c = (*c).clone();
        c.sources.clear();
        // Serializing plain data cannot fail; a failure would only merge two keys' pages.
        bytes.extend(serde_json::to_vec(&c).unwrap_or_default());
        bytes.push(b'\n');
    }
    files::digest::hex(&files::digest::hash_bytes(&bytes))[..12].to_string()
}

fn variant(p: &Project, c: &Crd, n: usize, of: usize, anchors: &mut Anchors) -> Variant {
    // The storage version first: it is what the cluster keeps.
    let mut versions: Vec<&CrdVersion> = c.versions.iter().collect();
    versions.sort_by_key(|v| !v.storage);
    let views: Vec<VersionView> = versions
        .iter()
        .enumerate()
        .map(|(i, v)| version_view(p, c, v, n, i, anchors))
        .collect();
    let changes_anchor = if n == 0 {
        anchors.unique(&["changes"])
    } else {
        anchors.unique(&["variant", &(n + 1).to_string(), "changes"])
    };
    Variant {
        title: variant_title(c, n, of),
        sources: source_links(p, &c.sources),
        templated: c.templated,
        changes: changes(c, &views, &changes_anchor, anchors),
        changes_anchor,
        versions: views,
    }
}

/// "Variant N of M: K fields" when a kind has several variants; empty otherwise.
fn variant_title(c: &Crd, n: usize, of: usize) -> String {
    let fields = field_count(c);
    if of > 1 {
        format!(
            "Variant {} of {of}: {}",
            n + 1,
            if fields <= 5
                && c.schema.iter().any(|s| {
                    s.preserve_unknown_fields || s.fields.iter().any(|f| f.preserve_unknown_fields)
                })
            {
                format!("{fields} fields, the rest accepted unchecked (a minimal schema)")
            } else {
                format!("{fields} fields")
            }
        )
    } else {
        String::new()
    }
}

/// One version of variant `n` (its `i`th shown): fields, tree, rules, example, columns.
fn version_view(
    p: &Project,
    c: &Crd,
    v: &CrdVersion,
    n: usize,
    i: usize,
    anchors: &mut Anchors,
) -> VersionView {
    let prefix: Vec<String> = match (n, i) {
        (0, 0) => vec!["field".into()],
        (0, _) => vec!["field".into(), v.name.clone()],
        _ => vec![
            "variant".into(),
            (n + 1).to_string(),
            "field".into(),
            v.name.clone(),
        ],
    };
    let schema = c.schema.iter().find(|s| s.version == v.name);
    let mut fields = field_views(schema, &prefix, anchors);
    reader_order(&mut fields);
    count_children(&mut fields);
    let version_anchor = anchors.unique(&[
        if n == 0 { "version" } else { "variant" },
        &if n == 0 {
            String::new()
        } else {
            (n + 1).to_string()
        },
        &v.name,
    ]);
    let rules = version_rules(schema, &fields);
    VersionView {
        same_as: None,
        rules_anchor: anchors.unique(&[&version_anchor, "rules"]),
        rules,
        example_anchor: anchors.unique(&[&version_anchor, "example"]),
        example: example(c, v, schema),
        anchor: version_anchor,
        name: v.name.clone(),
        flags: version_flags(v),
        description: schema.map(|s| s.description.clone()).unwrap_or_default(),
        columns: printer_columns(v),
        truncated: schema.is_some_and(|s| s.truncated),
        has_schema: schema.is_some(),
        go_type: schema.and_then(|s| {
            let t = s.go_type.as_ref()?;
            Some(GoOriginView {
                name: t.name.clone(),
                package: t.package.clone(),
                sources: source_links(p, std::slice::from_ref(&t.source)),
                described: s.fields.iter().filter(|f| f.go_doc).count(),
            })
        }),
        tree: fields
            .iter()
            .filter(|f| f.depth <= SHOWN_DEPTH)
            .cloned()
            .collect(),
        fields,
    }
}

/// The fields of a version's schema, anchored under `prefix`, in schema order.
fn field_views(
    schema: Option<&CrdSchema>,
    prefix: &[String],
    anchors: &mut Anchors,
) -> Vec<FieldView> {
    let mut by_path: BTreeMap<&str, String> = BTreeMap::new();
    let mut fields = Vec::new();
    for f in schema.map(|s| s.fields.as_slice()).unwrap_or(&[]) {
        let mut parts: Vec<&str> = prefix.iter().map(String::as_str).collect();
        parts.push(&f.path);
        let anchor = anchors.unique(&parts);
        by_path.insert(&f.path, anchor.clone());
        let same_as_anchor = f
            .same_as
            .as_deref()
            .and_then(|s| by_path.get(s))
            .cloned()
            .unwrap_or_default();
        fields.push(FieldView {
            anchor,
            name: f.path.rsplit('.').next().unwrap_or(&f.path).to_string(),
            path: f.path.clone(),
            depth: f.depth.min(24),
            type_text: type_text(f),
            required: f.required,
            default: f.default.clone().unwrap_or_default(),
            enum_text: f.enum_values.join(", "),
            constraints: constraints(f),
            description: f.description.clone(),
            same_as: f.same_as.clone().unwrap_or_default(),
            same_as_anchor,
            children: 0,
            rules: f.rules.iter().map(rule_view).collect(),
        });
    }
    fields
}

/// A field's format, pattern, limits and other checks, as one line.
fn constraints(f: &SchemaField) -> String {
    let mut constraints = Vec::new();
    if !f.format.is_empty() {
        constraints.push(format!("format: {}", f.format));
    }
    if !f.pattern.is_empty() {
        constraints.push(format!("pattern: {}", f.pattern));
    }
    // The schema's limits (`minimum=0`, `maxItems=8`), as `minimum: 0`.
    constraints.extend(f.limits.iter().map(|l| l.replacen('=', ": ", 1)));
    if f.nullable {
        constraints.push("nullable".into());
    }
    if f.preserve_unknown_fields {
        constraints.push("any fields accepted".into());
    }
    constraints.extend(f.validation.iter().map(|m| format!("Go marker: {m}")));
    constraints.join("; ")
}

/// storage, served or not, deprecated.
fn version_flags(v: &CrdVersion) -> String {
    let mut flags = Vec::new();
    if v.storage {
        flags.push("storage");
    }
    flags.push(if v.served { "served" } else { "not served" });
    if v.deprecated {
        flags.push("deprecated");
    }
    flags.join(", ")
}

/// The version's `additionalPrinterColumns`.
fn printer_columns(v: &CrdVersion) -> Vec<TableRow> {
    v.printer_columns
        .iter()
        .map(|col| TableRow {
            anchor: String::new(),
            cells: vec![
                Cell::text(col.name.clone()),
                Cell::text(col.column_type.clone()),
                Cell::text(col.json_path.clone()),
                Cell::text(if col.priority == 0 {
                    String::new()
                } else {
                    col.priority.to_string()
                }),
                Cell::text(col.description.clone()),
            ],
            sources: Vec::new(),
        })
        .collect()
}

/// A version whose schema reads exactly as one shown earlier on the page points to that
/// one instead of repeating every field: an earlier version of the same variant (Istio and
/// Gateway API serve two or three versions with one schema), or a version of an earlier
/// variant (a repository shipping the same CRD once with descriptions and once without,
/// whose missing descriptions the Go doc comments then fill). Its `same_as` is set, its
/// fields, tree, rules and example are cleared, and the version changes that named its
/// fields link the fields where they are listed.
fn point_to_earlier_versions(crds: &[&Crd], views: &mut [Variant]) {
    let schema_of = |n: usize, name: &str| crds.get(n)?.schema.iter().find(|s| s.version == name);
    // (variant, version) of each version, in page order, and the one it reads like.
    let mut shown: Vec<(usize, usize)> = Vec::new();
    let mut points: Vec<((usize, usize), (usize, usize))> = Vec::new();
    for (n, view) in views.iter().enumerate() {
        for (i, version) in view.versions.iter().enumerate() {
            let Some(schema) = schema_of(n, &version.name) else {
                continue;
            };
            let like = shown.iter().copied().find(|&(m, j)| {
                schema_of(m, &views[m].versions[j].name)
                    .is_some_and(|other| reads_alike(schema, other))
            });
            match like {
                Some(target) => points.push(((n, i), target)),
                None => shown.push((n, i)),
            }
        }
    }
    // Field anchors of a cleared version, to the listed version's (anchors are unique on
    // the page, so one map serves every variant).
    let mut moved: BTreeMap<String, String> = BTreeMap::new();
    for &((n, i), (m, j)) in &points {
        let target = &views[m].versions[j];
        let label = if m == n {
            format!("version {}", target.name)
        } else {
            format!("variant {}'s version {}", m + 1, target.name)
        };
        let same_as = [label, target.anchor.clone()];
        let at: BTreeMap<&str, &str> = target
            .fields
            .iter()
            .map(|f| (f.path.as_str(), f.anchor.as_str()))
            .collect();
        for f in &views[n].versions[i].fields {
            if let Some(anchor) = at.get(f.path.as_str()) {
                moved.insert(f.anchor.clone(), anchor.to_string());
            }
        }
        let version = &mut views[n].versions[i];
        version.same_as = Some(same_as);
        version.fields.clear();
        version.tree.clear();
        version.rules.clear();
        version.example.clear();
    }
    for (n, view) in views.iter_mut().enumerate() {
        let cleared: Vec<String> = points
            .iter()
            .filter(|((v, _), _)| *v == n)
            .map(|&((_, i), _)| view.versions[i].name.clone())
            .collect();
        for diff in &mut view.changes {
            for change in &mut diff.changes {
                let version = if change.change == "removed" {
                    &diff.from
                } else {
                    &diff.to
                };
                if cleared.contains(version) {
                    change.anchor = moved.get(&change.anchor).cloned().unwrap_or_default();
                }
            }
        }
    }
}

/// Whether two schemas show the same: equal but for their version's name, the order of
/// their fields (a version matched to its Go type lists them in the struct's order, an
/// unmatched one in the CRD's, as Gateway API's own `v1beta1` kinds) and where
/// descriptions came from (the CRD or a Go doc comment).
fn reads_alike(a: &CrdSchema, b: &CrdSchema) -> bool {
    let plain = |s: &CrdSchema| {
        let mut fields: Vec<model::SchemaField> = s
            .fields
            .iter()
            .map(|f| model::SchemaField {
                go_doc: false,
                ..f.clone()
            })
            .collect();
        fields.sort_by(|x, y| x.path.cmp(&y.path));
        fields
    };
    a.description == b.description
        && a.rules == b.rules
        && a.preserve_unknown_fields == b.preserve_unknown_fields
        && a.truncated == b.truncated
        && a.fields.len() == b.fields.len()
        && plain(a) == plain(b)
}

/// A version's rules: the object's own, then each field's in the tree's order.
fn version_rules(schema: Option<&CrdSchema>, fields: &[FieldView]) -> Vec<RuleRow> {
    let root = schema.map(|s| s.rules.as_slice()).unwrap_or(&[]);
    let mut out: Vec<RuleRow> = root
        .iter()
        .map(|r| RuleRow {
            path: String::new(),
            anchor: String::new(),
            drawn: true,
            rule: rule_view(r),
        })
        .collect();
    for f in fields {
        out.extend(f.rules.iter().map(|r| RuleRow {
            path: f.path.clone(),
            anchor: f.anchor.clone(),
            drawn: f.depth <= SHOWN_DEPTH,
            rule: r.clone(),
        }));
    }
    out
}

/// The example manifest of a served version with a schema.
fn example(c: &Crd, v: &CrdVersion, schema: Option<&CrdSchema>) -> String {
    let Some(schema) = schema.filter(|_| v.served) else {
        return String::new();
    };
    let kind = Kind {
        group: &c.group,
        version: &v.name,
        kind: &c.kind,
        namespaced: c.scope == "Namespaced",
    };
    example_yaml::example(&kind, schema)
}

/// The changes between a CRD's served versions, each field linked to its anchor when the
/// version lists it at that path (drawn on the page, or deeper in the tree).
fn changes(
    c: &Crd,
    versions: &[VersionView],
    section: &str,
    anchors: &mut Anchors,
) -> Vec<VersionDiff> {
    let fields: BTreeMap<(&str, &str), &FieldView> = versions
        .iter()
        .flat_map(|v| {
            v.fields
                .iter()
                .map(|f| ((v.name.as_str(), f.path.as_str()), f))
        })
        .collect();
    let mut diffs = version_diff::served_versions(c);
    for d in &mut diffs {
        d.anchor = anchors.unique(&[section, &d.from, &d.to]);
        for change in &mut d.changes {
            let version = if change.change == "removed" {
                &d.from
            } else {
                &d.to
            };
            if let Some(f) = fields.get(&(version.as_str(), change.path.as_str())) {
                change.anchor = f.anchor.clone();
                change.drawn = f.depth <= SHOWN_DEPTH;
            }
        }
    }
    diffs
}

#[cfg(test)]
mod tests;
