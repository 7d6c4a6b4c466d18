//! Kubebuilder markers in Go comments: `+kubebuilder:rbac` (→ `rbac` rows with origin
//! `marker`), `+kubebuilder:webhook` (→ `webhooks` rows with origin `marker`), and the
//! type-level markers `+kubebuilder:object:root`, `:resource`, `:printcolumn`,
//! `:subresource:status`/`:subresource:scale` and `:storageversion` (→ `api_types`, kept for
//! the API pages).
//!
//! Markers are found the way controller-gen finds them, so the rows match what it generates:
//! only `//` line comments whose text starts with `+` count; package-level markers (rbac,
//! webhook) count anywhere outside function and type bodies (controller-gen drops the ones
//! inside, and so do we, with a diagnostic); type-level markers belong to a `type X …`
//! declaration when they sit in its doc comment or in the one comment group right above
//! that doc comment. Marker arguments are read by a small tokenizer ([`parse_args`]) that
//! understands `"quoted"` and `` `raw` `` strings, `;`-separated lists and `{a,b}` lists, so
//! a value may hold `=`, `,` or `;` when it is quoted.
//!
//! Per file ([`extract`]) markers are recorded raw; per project ([`resolve`]) they become
//! model rows, with the API group/version of a type taken from its own package through the
//! Go index. [`check_webhook_paths`] runs once the manifests are known too, and reports a
//! webhook marker whose path disagrees with the path served in code or deployed in YAML.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::BTreeMap;

use tree_sitter::Node;

use super::facts::GoFile;
use super::facts::markers::{Arg, Marker, TypeMarkers};
use super::index::{GoIndex, GoInput, dir_of};
use super::syntax::{line_of, text, unescape_go};
use model::{
    ApiType, Crd, Diagnostic, Origin, PrinterColumn, RbacRule, SourceRef, Webhook, WebhookRule,
    WebhookType,
};

pub const RBAC: &str = "kubebuilder:rbac";
pub const WEBHOOK: &str = "kubebuilder:webhook";
pub const OBJECT_ROOT: &str = "kubebuilder:object:root";
pub const RESOURCE: &str = "kubebuilder:resource";
pub const PRINTCOLUMN: &str = "kubebuilder:printcolumn";
pub const SUBRESOURCE_STATUS: &str = "kubebuilder:subresource:status";
pub const SUBRESOURCE_SCALE: &str = "kubebuilder:subresource:scale";
pub const STORAGE_VERSION: &str = "kubebuilder:storageversion";

/// Markers that describe the package, wherever they are written.
const PACKAGE_LEVEL: [&str; 2] = [RBAC, WEBHOOK];
/// Markers that describe the type declared right below them.
const TYPE_LEVEL: [&str; 6] = [
    OBJECT_ROOT,
    RESOURCE,
    PRINTCOLUMN,
    SUBRESOURCE_STATUS,
    SUBRESOURCE_SCALE,
    STORAGE_VERSION,
];

/// Records every marker of one file: package-level ones in `file.package_markers`,
/// type-level ones in `file.type_markers`. Malformed markers become diagnostics.
pub fn extract(root: Node, source: &str, file: &mut GoFile) {
    // Most Go files have no markers; skip the walk for them.
    if !source.contains("+kubebuilder:") {
        return;
    }
    let src = source.as_bytes();
    // The comments holding a marker, found from the text: a walk of the whole tree for its
    // comments cost more than the rest of the markers' work.
    let mut comments: Vec<Node> = Vec::new();
    for (at, _) in source.match_indices("+kubebuilder:") {
        let Some(node) = root
            .descendant_for_byte_range(at, at + 1)
            .filter(|n| n.kind_name() == "comment")
        else {
            continue;
        };
        if comments.last().is_none_or(|last| last.id() != node.id()) {
            comments.push(node);
        }
    }
    for node in comments {
        let Some((name, parsed)) = marker_of(text(node, src)) else {
            continue;
        };
        if !PACKAGE_LEVEL.contains(&name) {
            continue;
        }
        let line = line_of(node);
        let args = match parsed {
            Ok(args) => args,
            Err(e) => {
                file.diagnostics.push(malformed(&file.path, line, name, &e));
                continue;
            }
        };
        match enclosing_body(node) {
            None => file.package_markers.push(Marker { name, args, line }),
            Some(body) => file.diagnostics.push(Diagnostic::new(
                &file.path,
                line,
                format!("+{name} marker inside a {body}: controller-gen ignores it there, so it is not listed"),
            )),
        }
    }
    type_markers(root, src, file);
}

fn malformed(path: &str, line: u32, name: &str, error: &str) -> Diagnostic {
    Diagnostic::new(
        path,
        line,
        format!("malformed +{name} marker: {error}; it is not listed"),
    )
}

/// The marker a comment holds, if it is one this module knows: its name and its parsed
/// arguments (or why they could not be parsed).
fn marker_of(comment: &str) -> Option<(&'static str, Result<Vec<Arg>, String>)> {
    // controller-gen reads only `//` comments whose first non-space character is `+`.
    let body = comment.strip_prefix("//")?.trim().strip_prefix('+')?;
    for name in PACKAGE_LEVEL.iter().chain(TYPE_LEVEL.iter()) {
        let Some(rest) = body.strip_prefix(name) else {
            continue;
        };
        return match rest.chars().next() {
            None => Some((name, Ok(Vec::new()))),
            Some(':') => Some((name, parse_args(&rest[1..]))),
            // `+kubebuilder:object:root=true`: one unnamed value.
            Some('=') => {
                let mut cursor = rest[1..].chars().peekable();
                let parsed = parse_value(&mut cursor).and_then(|values| {
                    skip_spaces(&mut cursor);
                    match cursor.next() {
                        None => Ok(vec![(String::new(), values)]),
                        Some(c) => Err(format!("unexpected `{c}` after the value")),
                    }
                });
                Some((name, parsed))
            }
            Some(c) if c.is_whitespace() => Some((name, Ok(Vec::new()))),
            // A longer name that merely starts like a known one.
            Some(_) => continue,
        };
    }
    None
}

/// The kind of body a comment sits in, if any: markers there are not package-level.
fn enclosing_body(node: Node) -> Option<&'static str> {
    let mut n = node;
    while let Some(parent) = n.parent() {
        match parent.kind_name() {
            "block" | "func_literal" => return Some("function body"),
            "field_declaration_list" | "interface_type" => return Some("type body"),
            _ => {}
        }
        n = parent;
    }
    None
}

/// Collects the type-level markers of every type declared at top level, including each
/// spec of a parenthesized `type ( … )` group.
fn type_markers(root: Node, src: &[u8], file: &mut GoFile) {
    let mut cursor = root.walk();
    let top: Vec<Node> = root.named_children(&mut cursor).collect();
    for (i, decl) in top.iter().enumerate() {
        if decl.kind_name() != "type_declaration" {
            continue;
        }
        let mut dc = decl.walk();
        let inner: Vec<Node> = decl.named_children(&mut dc).collect();
        let parenthesized = decl.child(1).is_some_and(|c| c.kind_name() == "(");
        if parenthesized {
            // Comments above a grouped declaration describe the package, not a type;
            // each spec inside has its own doc comment.
            for (j, spec) in inner.iter().enumerate() {
                if is_type_spec(*spec) {
                    record_type(&inner, j, *spec, src, file);
                }
            }
        } else if let Some(spec) = inner.iter().find(|n| is_type_spec(**n)) {
            record_type(&top, i, *spec, src, file);
        }
    }
}

fn is_type_spec(node: Node) -> bool {
    matches!(node.kind_name(), "type_spec" | "type_alias")
}

fn record_type(siblings: &[Node], index: usize, spec: Node, src: &[u8], file: &mut GoFile) {
    let Some(name) = spec.child_by_field_id(FIELD.name) else {
        return;
    };
    let mut markers = Vec::new();
    for comment in comments_above(siblings, index) {
        let Some((marker_name, parsed)) = marker_of(text(comment, src)) else {
            continue;
        };
        if !TYPE_LEVEL.contains(&marker_name) {
            continue;
        }
        let line = line_of(comment);
        match parsed {
            Ok(args) => markers.push(Marker {
                name: marker_name,
                args,
                line,
            }),
            Err(e) => file
                .diagnostics
                .push(malformed(&file.path, line, marker_name, &e)),
        }
    }
    if !markers.is_empty() {
        file.type_markers.push(TypeMarkers {
            type_name: text(name, src).to_string(),
            line: line_of(name),
            markers,
        });
    }
}

/// The comments controller-gen associates with the declaration `siblings[index]`, in
/// document order: its doc comment (the comment group ending on the line right above it)
/// plus the comment group right above that; or, without a doc comment, the closest comment
/// group above. A comment group is a run of comments on consecutive lines.
fn comments_above<'t>(siblings: &[Node<'t>], index: usize) -> Vec<Node<'t>> {
    let Some(decl) = siblings.get(index) else {
        return Vec::new();
    };
    let decl_row = decl.start_position().row;
    let mut groups: Vec<Vec<Node<'t>>> = Vec::new();
    let mut k = index;
    while k > 0 {
        k -= 1;
        let Some(node) = siblings.get(k).copied() else {
            break;
        };
        if node.kind_name() != "comment" {
            break;
        }
        // A comment on the same line as the code before it belongs to that code.
        let trailing = k
            .checked_sub(1)
            .and_then(|p| siblings.get(p))
            .is_some_and(|prev| {
                prev.kind_name() != "comment"
                    && prev.end_position().row == node.start_position().row
            });
        if trailing {
            break;
        }
        let joins_group = groups
            .last()
            .and_then(|g| g.last())
            .is_some_and(|next| node.end_position().row + 1 == next.start_position().row);
        if joins_group {
            if let Some(group) = groups.last_mut() {
                group.push(node);
            }
        } else if groups.len() == 2 {
            break;
        } else {
            groups.push(vec![node]);
        }
    }
    let has_doc = groups
        .first()
        .and_then(|g| g.first())
        .is_some_and(|last| last.end_position().row + 1 == decl_row);
    let keep = if has_doc { 2 } else { 1 };
    let mut out: Vec<Node<'t>> = groups.into_iter().take(keep).flatten().collect();
    out.sort_by_key(|n| n.start_byte());
    out
}

// ---- the argument tokenizer --------------------------------------------------------

type Cursor<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// Parses marker arguments: `key=value` pairs separated by `,`. A value is a list of items
/// separated by `;`, or a `{a,b}` list; an item is bare text, a Go `"quoted"` string or a
/// `` `raw` `` string. A key without `=` is a flag whose value is `true`.
pub fn parse_args(s: &str) -> Result<Vec<Arg>, String> {
    let mut cursor = s.chars().peekable();
    let mut out = Vec::new();
    loop {
        skip_spaces(&mut cursor);
        if cursor.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(&c) = cursor.peek() {
            if c == '=' || c == ',' {
                break;
            }
            key.push(c);
            cursor.next();
        }
        let key = key.trim().to_string();
        if key.is_empty() {
            return Err("an argument without a name".into());
        }
        if cursor.next() == Some('=') {
            let values = parse_value(&mut cursor)?;
            skip_spaces(&mut cursor);
            match cursor.next() {
                None | Some(',') => {}
                Some(c) => return Err(format!("unexpected `{c}` after the value of `{key}`")),
            }
            out.push((key, values));
        } else {
            out.push((key, vec!["true".into()]));
        }
    }
}

fn parse_value(cursor: &mut Cursor) -> Result<Vec<String>, String> {
    skip_spaces(cursor);
    if cursor.peek() == Some(&'{') {
        cursor.next();
        let mut items = Vec::new();
        loop {
            skip_spaces(cursor);
            if cursor.peek() == Some(&'}') {
                cursor.next();
                return Ok(items);
            }
            items.push(parse_item(cursor, &[',', '}'])?);
            skip_spaces(cursor);
            match cursor.next() {
                Some(',') => {}
                Some('}') => return Ok(items),
                None => return Err("unterminated `{` list".into()),
                Some(c) => return Err(format!("unexpected `{c}` in a `{{…}}` list")),
            }
        }
    }
    let mut items = vec![parse_item(cursor, &[',', ';'])?];
    while cursor.peek() == Some(&';') {
        cursor.next();
        items.push(parse_item(cursor, &[',', ';'])?);
    }
    Ok(items)
}

fn parse_item(cursor: &mut Cursor, stops: &[char]) -> Result<String, String> {
    skip_spaces(cursor);
    match cursor.peek() {
        Some('"') => {
            cursor.next();
            let mut raw = String::new();
            loop {
                match cursor.next() {
                    None => return Err("unterminated quoted string".into()),
                    Some('\\') => {
                        raw.push('\\');
                        if let Some(escaped) = cursor.next() {
                            raw.push(escaped);
                        }
                    }
                    Some('"') => break,
                    Some(c) => raw.push(c),
                }
            }
            skip_spaces(cursor);
            Ok(unescape_go(&raw))
        }
        Some('`') => {
            cursor.next();
            let mut raw = String::new();
            loop {
                match cursor.next() {
                    None => return Err("unterminated backquoted string".into()),
                    Some('`') => break,
                    Some(c) => raw.push(c),
                }
            }
            skip_spaces(cursor);
            Ok(raw)
        }
        _ => {
            let mut bare = String::new();
            while let Some(&c) = cursor.peek() {
                if stops.contains(&c) {
                    break;
                }
                bare.push(c);
                cursor.next();
            }
            Ok(bare.trim().to_string())
        }
    }
}

fn skip_spaces(cursor: &mut Cursor) {
    while cursor.peek().is_some_and(|c| c.is_whitespace()) {
        cursor.next();
    }
}

// ---- per project ---------------------------------------------------------------------

/// What the markers of one project yield.
#[derive(Debug, Default)]
pub struct MarkerFindings {
    pub rbac: Vec<RbacRule>,
    pub webhooks: Vec<Webhook>,
    pub api_types: Vec<ApiType>,
}

/// Turns the raw markers of every file into model rows.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    diagnostics: &mut Vec<Diagnostic>,
) -> MarkerFindings {
    let mut out = MarkerFindings::default();
    for input in files {
        let file = &input.facts;
        for marker in &file.package_markers {
            match marker.name {
                RBAC => {
                    if let Some(rule) = rbac_rule(file, marker, diagnostics) {
                        out.rbac.push(RbacRule {
                            area: input.area,
                            ..rule
                        });
                    }
                }
                WEBHOOK => {
                    if let Some(webhook) = marker_webhook(file, marker, diagnostics) {
                        out.webhooks.push(Webhook {
                            area: input.area,
                            ..webhook
                        });
                    }
                }
                _ => {}
            }
        }
        for ty in &file.type_markers {
            if let Some(api_type) = api_type(file, ty, index, diagnostics) {
                out.api_types.push(ApiType {
                    area: input.area,
                    ..api_type
                });
            }
        }
    }
    out
}

/// The values of an argument (names match case-insensitively, the last one written wins).
fn arg<'m>(marker: &'m Marker, key: &str) -> Option<&'m [String]> {
    marker
        .args
        .iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v.as_slice())
}

/// A scalar argument: a value written with `;` in it is kept whole.
fn scalar(marker: &Marker, key: &str) -> Option<String> {
    arg(marker, key).map(|v| v.join(";"))
}

fn list(marker: &Marker, key: &str) -> Vec<String> {
    arg(marker, key).map(<[String]>::to_vec).unwrap_or_default()
}

/// API groups as written, with `core` meaning the core group `""` (as controller-gen reads it).
fn groups(marker: &Marker) -> Vec<String> {
    list(marker, "groups")
        .into_iter()
        .map(|g| if g == "core" { String::new() } else { g })
        .collect()
}

const RBAC_ARGS: [&str; 7] = [
    "groups",
    "resources",
    "resourceNames",
    "verbs",
    "urls",
    "namespace",
    "roleName",
];

/// The role a marker rule is granted through. controller-gen names the role it writes
/// marker rules into from its own command line (`rbac:roleName=…`, usually in a Makefile),
/// which portolan does not read; so unless the marker names its role with `roleName=`, the
/// row's role says where the markers are: `markers:<package folder>`, inside
/// `Role/<namespace>/…` for a namespaced rule.
fn marker_role(dir: &str, namespace: Option<&str>, role_name: Option<&str>) -> String {
    let name = match role_name {
        Some(r) => r.to_string(),
        None => format!("markers:{}", if dir.is_empty() { "." } else { dir }),
    };
    match namespace {
        Some(ns) => format!("Role/{ns}/{name}"),
        None if role_name.is_some() => format!("ClusterRole/{name}"),
        None => name,
    }
}

fn rbac_rule(
    file: &GoFile,
    marker: &Marker,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<RbacRule> {
    for (key, _) in &marker.args {
        if !RBAC_ARGS.iter().any(|k| k.eq_ignore_ascii_case(key)) {
            diagnostics.push(Diagnostic::new(
                &file.path,
                marker.line,
                format!("unknown argument `{key}` in a +{RBAC} marker; it is ignored"),
            ));
        }
    }
    let verbs = list(marker, "verbs");
    if verbs.is_empty() {
        diagnostics.push(Diagnostic::new(
            &file.path,
            marker.line,
            format!("+{RBAC} marker without verbs; it grants nothing and is not listed"),
        ));
        return None;
    }
    let namespace = scalar(marker, "namespace").filter(|n| !n.is_empty());
    let role_name = scalar(marker, "roleName").filter(|n| !n.is_empty());
    // Like the manifest rows, non-resource URLs are listed with the resources.
    let mut resources = list(marker, "resources");
    resources.extend(list(marker, "urls"));
    Some(RbacRule {
        role: marker_role(
            dir_of(&file.path),
            namespace.as_deref(),
            role_name.as_deref(),
        ),
        groups: groups(marker),
        resources,
        resource_names: list(marker, "resourceNames"),
        verbs,
        origin: Origin::Marker,
        templated: false,
        bundled: false,
        area: Default::default(),
        sources: vec![SourceRef::new(&file.path, marker.line)],
    })
}

fn marker_webhook(
    file: &GoFile,
    marker: &Marker,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Webhook> {
    let name = scalar(marker, "name").unwrap_or_default();
    let kind = match scalar(marker, "mutating").as_deref() {
        Some("true") => WebhookType::Mutating,
        Some("false") => WebhookType::Validating,
        other => {
            diagnostics.push(Diagnostic::new(
                &file.path,
                marker.line,
                format!(
                    "+{WEBHOOK} marker `{name}` has {}: mutating or validating is unknown, so it is not listed",
                    match other {
                        Some(v) => format!("mutating={v}"),
                        None => "no mutating argument".to_string(),
                    }
                ),
            ));
            return None;
        }
    };
    let failure_policy = match scalar(marker, "failurePolicy") {
        Some(p) if p.eq_ignore_ascii_case("fail") => "Fail".to_string(),
        Some(p) if p.eq_ignore_ascii_case("ignore") => "Ignore".to_string(),
        Some(p) => p,
        None => String::new(),
    };
    let operations = list(marker, "verbs")
        .into_iter()
        .map(|v| if v == "*" { v } else { v.to_ascii_uppercase() })
        .collect();
    Some(Webhook {
        name,
        kind,
        path: scalar(marker, "path").unwrap_or_default(),
        failure_policy,
        // The Service is chosen when the configuration is deployed; a marker names only a URL.
        service: scalar(marker, "url").unwrap_or_default(),
        configuration: String::new(),
        resolved_service: String::new(),
        substitutions: Vec::new(),
        templated: false,
        bundled: false,
        origin: Origin::Marker,
        object: None,
        rules: vec![WebhookRule {
            groups: groups(marker),
            versions: list(marker, "versions"),
            resources: list(marker, "resources"),
            scope: String::new(),
            operations,
        }],
        area: Default::default(),
        sources: vec![SourceRef::new(&file.path, marker.line)],
    })
}

fn api_type(
    file: &GoFile,
    ty: &TypeMarkers,
    index: &GoIndex,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ApiType> {
    let has = |name: &str| ty.markers.iter().any(|m| m.name == name);
    let root = ty
        .markers
        .iter()
        .rev()
        .find(|m| m.name == OBJECT_ROOT)
        .is_some_and(|m| scalar(m, "").is_none_or(|v| v == "true"));
    let describes_kind = [
        RESOURCE,
        PRINTCOLUMN,
        SUBRESOURCE_STATUS,
        SUBRESOURCE_SCALE,
        STORAGE_VERSION,
    ]
    .iter()
    .any(|n| has(n));
    // `XList` wrappers carry `object:root` too, but they are lists of a kind, not kinds.
    if !describes_kind && (!root || ty.type_name.ends_with("List")) {
        return None;
    }
    let package = index.package_of(file).map(str::to_string);
    let Some((group, version)) = package.as_deref().and_then(|p| index.group_version(p)) else {
        diagnostics.push(Diagnostic::new(
            &file.path,
            ty.line,
            format!(
                "kubebuilder markers on type {} but the API group/version of its package {} is unknown (no GroupVersion or +groupName= found); map it under [groups] in projects.toml",
                ty.type_name,
                package.as_deref().unwrap_or(dir_of(&file.path))
            ),
        ));
        return None;
    };
    let resource = ty.markers.iter().rev().find(|m| m.name == RESOURCE);
    let from_resource = |key: &str| resource.and_then(|m| scalar(m, key)).unwrap_or_default();
    let scope = from_resource("scope");
    let mut printer_columns = Vec::new();
    for m in ty.markers.iter().filter(|m| m.name == PRINTCOLUMN) {
        let priority = match scalar(m, "priority") {
            None => 0,
            Some(p) => match p.parse::<i32>() {
                Ok(v) => v,
                Err(_) => {
                    diagnostics.push(Diagnostic::new(
                        &file.path,
                        m.line,
                        format!("printcolumn priority `{p}` is not a number; 0 is shown"),
                    ));
                    0
                }
            },
        };
        printer_columns.push(PrinterColumn {
            name: scalar(m, "name").unwrap_or_default(),
            kind: scalar(m, "type").unwrap_or_default(),
            json_path: scalar(m, "JSONPath").unwrap_or_default(),
            description: scalar(m, "description").unwrap_or_default(),
            format: scalar(m, "format").unwrap_or_default(),
            priority,
        });
    }
    let mut subresources = Vec::new();
    if has(SUBRESOURCE_STATUS) {
        subresources.push("status".to_string());
    }
    if has(SUBRESOURCE_SCALE) {
        subresources.push("scale".to_string());
    }
    Some(ApiType {
        group,
        version,
        kind: ty.type_name.clone(),
        root,
        // controller-gen makes a kind namespaced unless its resource marker says otherwise.
        scope: if scope.is_empty() {
            "Namespaced".into()
        } else {
            scope
        },
        plural: from_resource("path"),
        singular: from_resource("singular"),
        short_names: resource.map(|m| list(m, "shortName")).unwrap_or_default(),
        categories: resource.map(|m| list(m, "categories")).unwrap_or_default(),
        printer_columns,
        subresources,
        storage_version: has(STORAGE_VERSION),
        area: Default::default(),
        sources: vec![SourceRef::new(&file.path, ty.line)],
    })
}

// ---- cross-checks ---------------------------------------------------------------------

/// Diagnostics for webhook markers whose path disagrees with what is actually served or
/// deployed: the path controller-runtime serves for the same kind and type (a webhook built
/// in code, matched through the marker's groups, versions and resources, with the plural
/// taken from the project's CRDs or resource markers), and the path of the manifest webhook
/// with the same name. Called per project once manifests and Go are both analyzed.
pub fn check_webhook_paths(
    webhooks: &[Webhook],
    crds: &[Crd],
    api_types: &[ApiType],
) -> Vec<Diagnostic> {
    let mut plurals: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for t in api_types.iter().filter(|t| !t.plural.is_empty()) {
        plurals.insert((&t.group, &t.kind), &t.plural);
    }
    // A CRD states its plural for sure; it wins over a marker.
    for c in crds.iter().filter(|c| !c.plural.is_empty()) {
        plurals.insert((&c.group, &c.kind), &c.plural);
    }
    let matches = |values: &[String], want: &str| values.iter().any(|v| v == want || v == "*");
    let mut out = Vec::new();
    for marker in webhooks.iter().filter(|w| w.origin == Origin::Marker) {
        let Some(at) = marker.sources.first() else {
            continue;
        };
        let served: Vec<&Webhook> = webhooks
            .iter()
            .filter(|w| w.origin == Origin::Code && w.kind == marker.kind)
            .filter(|w| {
                let Some(o) = &w.object else {
                    return false;
                };
                let Some(plural) = plurals.get(&(o.group.as_str(), o.kind.as_str())) else {
                    return false;
                };
                marker.rules.iter().any(|r| {
                    matches(&r.groups, &o.group)
                        && matches(&r.versions, &o.version)
                        && matches(&r.resources, plural)
                })
            })
            .collect();
        if !served.is_empty() && !served.iter().any(|w| w.path == marker.path) {
            for w in &served {
                let (Some(o), Some(src)) = (&w.object, w.sources.first()) else {
                    continue;
                };
                out.push(Diagnostic::new(
                    &at.file,
                    at.line,
                    format!(
                        "webhook marker `{}` has path {}, but controller-runtime serves the {} webhook of {} on {} ({}:{})",
                        marker.name,
                        marker.path,
                        w.kind.label(),
                        o.display(),
                        w.path,
                        src.file,
                        src.line
                    ),
                ));
            }
        }
        let deployed: Vec<&Webhook> = webhooks
            .iter()
            .filter(|w| {
                w.origin == Origin::Manifest
                    && !marker.name.is_empty()
                    && w.name == marker.name
                    && !w.path.is_empty()
            })
            .collect();
        if !deployed.iter().any(|w| w.path == marker.path) {
            for w in &deployed {
                let Some(src) = w.sources.first() else {
                    continue;
                };
                out.push(Diagnostic::new(
                    &at.file,
                    at.line,
                    format!(
                        "webhook marker `{}` has path {}, but the webhook of that name in {} ({}:{}) has path {}",
                        marker.name, marker.path, w.configuration, src.file, src.line, w.path
                    ),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::extract as extract_file;
    use model::{Area, Gvk};

    fn args(s: &str) -> Vec<(String, Vec<String>)> {
        parse_args(s).unwrap()
    }

    fn a(k: &str, v: &[&str]) -> (String, Vec<String>) {
        (k.to_string(), v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn tokenizer_lists_quotes_and_braces() {
        assert_eq!(
            args("groups=apps;batch,resources=deployments,verbs=get;list;watch"),
            vec![
                a("groups", &["apps", "batch"]),
                a("resources", &["deployments"]),
                a("verbs", &["get", "list", "watch"]),
            ]
        );
        assert_eq!(
            args(r#"groups="",resources=pods,verbs={get, "list"}"#),
            vec![
                a("groups", &[""]),
                a("resources", &["pods"]),
                a("verbs", &["get", "list"])
            ]
        );
        // `=`, `,` and `;` inside quotes belong to the value; backquotes are raw.
        assert_eq!(
            args(
                r#"name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status",description="a, b; c""#
            ),
            vec![
                a("name", &["Ready"]),
                a("type", &["string"]),
                a(
                    "JSONPath",
                    &[".status.conditions[?(@.type=='Ready')].status"]
                ),
                a("description", &["a, b; c"]),
            ]
        );
        assert_eq!(
            args(r"JSONPath=`.spec.x`,priority=1"),
            vec![a("JSONPath", &[".spec.x"]), a("priority", &["1"])]
        );
        // An unquoted value may hold `=` (it ends only at `,` or `;`).
        assert_eq!(
            args("JSONPath=.status.conditions[?(@.type=='Ready')].reason"),
            vec![a(
                "JSONPath",
                &[".status.conditions[?(@.type=='Ready')].reason"]
            )]
        );
        assert_eq!(args("status"), vec![a("status", &["true"])]);
        assert_eq!(args(r#"name="a \"q\"""#), vec![a("name", &["a \"q\""])]);
    }

    #[test]
    fn tokenizer_reports_malformed_values() {
        assert_eq!(
            parse_args(r#"name="open"#),
            Err("unterminated quoted string".into())
        );
        assert_eq!(
            parse_args("verbs={get,list"),
            Err("unterminated `{` list".into())
        );
        assert_eq!(
            parse_args(r#"name="a"b"#),
            Err("unexpected `b` after the value of `name`".into())
        );
        assert_eq!(parse_args("=x"), Err("an argument without a name".into()));
        assert_eq!(
            parse_args("name=`raw"),
            Err("unterminated backquoted string".into())
        );
    }

    #[test]
    fn marker_names_and_spellings() {
        let names = |c: &str| marker_of(c).map(|(n, p)| (n, p.unwrap()));
        assert_eq!(
            names("// +kubebuilder:rbac:groups=apps,verbs=get"),
            Some((RBAC, vec![a("groups", &["apps"]), a("verbs", &["get"])]))
        );
        assert_eq!(
            names("//+kubebuilder:rbac:verbs=get"),
            Some((RBAC, vec![a("verbs", &["get"])]))
        );
        assert_eq!(
            names("//\t+kubebuilder:object:root=true"),
            Some((OBJECT_ROOT, vec![a("", &["true"])]))
        );
        assert_eq!(
            names("// +kubebuilder:subresource:status"),
            Some((SUBRESOURCE_STATUS, vec![]))
        );
        assert_eq!(
            names("// +kubebuilder:storageversion"),
            Some((STORAGE_VERSION, vec![]))
        );
        // Not markers: block comments, prose before the `+`, other marker names.
        assert_eq!(names("/* +kubebuilder:rbac:verbs=get */"), None);
        assert_eq!(names("// see +kubebuilder:rbac:verbs=get"), None);
        assert_eq!(names("// +kubebuilder:validation:Minimum=0"), None);
        assert_eq!(names("// +kubebuilder:rbacx:verbs=get"), None);
        assert_eq!(names("// +kubebuilder:object:generate=true"), None);
    }

    fn input(path: &str, src: &str) -> GoInput {
        GoInput {
            facts: extract_file(path, src),
            area: if path.starts_with("test/") {
                Area::Samples
            } else {
                Area::Component
            },
        }
    }

    fn project(files: &[(&str, &str)]) -> (MarkerFindings, Vec<Diagnostic>) {
        let inputs: Vec<GoInput> = files.iter().map(|(p, s)| input(p, s)).collect();
        let mut diags: Vec<Diagnostic> = inputs
            .iter()
            .flat_map(|i| i.facts.diagnostics.clone())
            .collect();
        let index = crate::test_support::index(&inputs, "example.com/op", &mut diags);
        let found = resolve(&inputs, &index, &mut diags);
        (found, diags)
    }

    #[allow(clippy::too_many_arguments)]
    fn rule(
        role: &str,
        groups: &[&str],
        resources: &[&str],
        names: &[&str],
        verbs: &[&str],
        area: Area,
        file: &str,
        line: u32,
    ) -> RbacRule {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        RbacRule {
            role: role.into(),
            groups: v(groups),
            resources: v(resources),
            resource_names: v(names),
            verbs: v(verbs),
            origin: Origin::Marker,
            templated: false,
            bundled: false,
            area,
            sources: vec![SourceRef::new(file, line)],
        }
    }

    #[test]
    fn rbac_markers_in_every_spelling() {
        let src = r#"package controller

//+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods;services,verbs=get
// +kubebuilder:rbac:groups=core,resources=configmaps,resourceNames=cfg;other,verbs=get;update
// +kubebuilder:rbac:groups=apps;batch,resources=deployments;jobs,verbs=*
// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get
// +kubebuilder:rbac:groups="",namespace=system,resources=secrets,verbs=get
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get,roleName=leader
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,namespace=ops,roleName=ops-reader
// +kubebuilder:rbac:groups=apps,resources=deployments,verb=get

// Reconcile is documented, and markers in its doc comment count too.
// +kubebuilder:rbac:groups=example.io,resources=widgets/status,verbs={get,update,patch}
func (r *R) Reconcile() {
	// +kubebuilder:rbac:groups=apps,resources=daemonsets,verbs=get
}

type T struct {
	// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get
	F int
}
"#;
        let sample = "package e2e\n// +kubebuilder:rbac:groups=\"\",resources=pods,verbs=list\n";
        let (found, diags) =
            project(&[("internal/controller/r.go", src), ("test/e2e/e.go", sample)]);
        let f = "internal/controller/r.go";
        let c = Area::Component;
        let m = "markers:internal/controller";
        assert_eq!(
            found.rbac,
            vec![
                rule(
                    m,
                    &["apps"],
                    &["deployments"],
                    &[],
                    &["get", "list", "watch"],
                    c,
                    f,
                    3
                ),
                rule(m, &[""], &["pods", "services"], &[], &["get"], c, f, 4),
                rule(
                    m,
                    &[""],
                    &["configmaps"],
                    &["cfg", "other"],
                    &["get", "update"],
                    c,
                    f,
                    5
                ),
                rule(
                    m,
                    &["apps", "batch"],
                    &["deployments", "jobs"],
                    &[],
                    &["*"],
                    c,
                    f,
                    6
                ),
                rule(m, &[], &["/metrics", "/healthz"], &[], &["get"], c, f, 7),
                rule(
                    "Role/system/markers:internal/controller",
                    &[""],
                    &["secrets"],
                    &[],
                    &["get"],
                    c,
                    f,
                    8
                ),
                rule(
                    "ClusterRole/leader",
                    &["coordination.k8s.io"],
                    &["leases"],
                    &[],
                    &["get"],
                    c,
                    f,
                    9
                ),
                rule(
                    "Role/ops/ops-reader",
                    &["apps"],
                    &["deployments"],
                    &[],
                    &["get"],
                    c,
                    f,
                    10
                ),
                rule(
                    m,
                    &["example.io"],
                    &["widgets/status"],
                    &[],
                    &["get", "update", "patch"],
                    c,
                    f,
                    14
                ),
                rule(
                    "markers:test/e2e",
                    &[""],
                    &["pods"],
                    &[],
                    &["list"],
                    Area::Samples,
                    "test/e2e/e.go",
                    2
                ),
            ]
        );
        let messages: Vec<(u32, &str)> =
            diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            messages,
            vec![
                (
                    16,
                    "+kubebuilder:rbac marker inside a function body: controller-gen ignores it there, so it is not listed"
                ),
                (
                    20,
                    "+kubebuilder:rbac marker inside a type body: controller-gen ignores it there, so it is not listed"
                ),
                (
                    11,
                    "unknown argument `verb` in a +kubebuilder:rbac marker; it is ignored"
                ),
                (
                    11,
                    "+kubebuilder:rbac marker without verbs; it grants nothing and is not listed"
                ),
            ]
        );
    }

    #[test]
    fn webhook_markers_become_rows_with_rules() {
        let src = r#"package webhook

// +kubebuilder:webhook:path=/mutate-example-io-v1-widget,mutating=true,failurePolicy=fail,sideEffects=None,groups=example.io,resources=widgets,verbs=create;update,versions=v1,name=mwidget.example.io,admissionReviewVersions=v1
//+kubebuilder:webhook:verbs=create;delete,path=/validate-pods,mutating=false,failurePolicy=Ignore,groups=core,resources=pods,versions=v1,name="vpod.example.io"
// +kubebuilder:webhook:path=/x,groups=apps,resources=deployments,verbs=create,versions=v1,name=broken.example.io
// +kubebuilder:webhook:path="/unterminated,mutating=true
"#;
        let (found, diags) = project(&[("internal/webhook/w.go", src)]);
        let f = "internal/webhook/w.go";
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            found.webhooks,
            vec![
                Webhook {
                    name: "mwidget.example.io".into(),
                    kind: WebhookType::Mutating,
                    path: "/mutate-example-io-v1-widget".into(),
                    failure_policy: "Fail".into(),
                    service: String::new(),
                    configuration: String::new(),
                    resolved_service: String::new(),
                    substitutions: Vec::new(),
                    templated: false,
                    bundled: false,
                    origin: Origin::Marker,
                    object: None,
                    rules: vec![WebhookRule {
                        groups: s(&["example.io"]),
                        versions: s(&["v1"]),
                        resources: s(&["widgets"]),
                        scope: String::new(),
                        operations: s(&["CREATE", "UPDATE"]),
                    }],
                    area: Area::Component,
                    sources: vec![SourceRef::new(f, 3)],
                },
                Webhook {
                    name: "vpod.example.io".into(),
                    kind: WebhookType::Validating,
                    path: "/validate-pods".into(),
                    failure_policy: "Ignore".into(),
                    service: String::new(),
                    configuration: String::new(),
                    resolved_service: String::new(),
                    substitutions: Vec::new(),
                    templated: false,
                    bundled: false,
                    origin: Origin::Marker,
                    object: None,
                    rules: vec![WebhookRule {
                        groups: s(&[""]),
                        versions: s(&["v1"]),
                        resources: s(&["pods"]),
                        scope: String::new(),
                        operations: s(&["CREATE", "DELETE"]),
                    }],
                    area: Area::Component,
                    sources: vec![SourceRef::new(f, 4)],
                },
            ]
        );
        let messages: Vec<(u32, &str)> =
            diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            messages,
            vec![
                (
                    6,
                    "malformed +kubebuilder:webhook marker: unterminated quoted string; it is not listed"
                ),
                (
                    5,
                    "+kubebuilder:webhook marker `broken.example.io` has no mutating argument: mutating or validating is unknown, so it is not listed"
                ),
            ]
        );
    }

    const GROUP_VERSION: &str = "package v1\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\nvar GroupVersion = schema.GroupVersion{Group: \"example.io\", Version: \"v1\"}\n";

    /// API types with every spelling of the type-level markers, and their mistakes.
    const WIDGET_TYPES: &str = r#"package v1

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=widgets,scope="Cluster",shortName=wd;wdg,categories={all,example},singular=widget
// +kubebuilder:printcolumn:name="Ready",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`,priority=1,description="Time, since creation"
// +kubebuilder:storageversion

// Widget is a kind; markers sit in the group above its doc comment.
type Widget struct{}

// +kubebuilder:object:root=true

// WidgetList is a list wrapper, not a kind.
type WidgetList struct{}

// Gadget has its marker in its doc comment, next to other markers.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas
// +kubebuilder:validation:XValidation:rule="self.a == self.b"
type Gadget struct {
	// +kubebuilder:printcolumn:name=Inner,type=string,JSONPath=.x
	F int
}

// +kubebuilder:object:root=true

// +kubebuilder:printcolumn:name=Far,type=string,JSONPath=.far

// Gizmo gets the group above its doc comment, not the one above that.
type Gizmo struct{}

var x = 1

// +kubebuilder:object:root=true
type (
	// +kubebuilder:object:root=true
	// +kubebuilder:printcolumn:name=P,type=integer,JSONPath=.p,priority=high
	Grouped struct{}
	Plain struct{}
)

// +kubebuilder:object:root=false
type NotRoot struct{}
"#;

    /// The widget types next to their group/version, and a marked type in a package whose
    /// group is unknown.
    fn widget_project() -> (MarkerFindings, Vec<Diagnostic>) {
        project(&[
            ("api/v1/groupversion_info.go", GROUP_VERSION),
            ("api/v1/types.go", WIDGET_TYPES),
            (
                "internal/config/c.go",
                "package config\n// +kubebuilder:object:root=true\ntype Settings struct{}\n",
            ),
        ])
    }

    #[test]
    fn type_markers_become_api_types() {
        let (found, _) = widget_project();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let f = "api/v1/types.go";
        let base = |kind: &str, line: u32| ApiType {
            group: "example.io".into(),
            version: "v1".into(),
            kind: kind.into(),
            root: true,
            scope: "Namespaced".into(),
            plural: String::new(),
            singular: String::new(),
            short_names: vec![],
            categories: vec![],
            printer_columns: vec![],
            subresources: vec![],
            storage_version: false,
            area: Area::Component,
            sources: vec![SourceRef::new(f, line)],
        };
        let col =
            |name: &str, kind: &str, path: &str, description: &str, priority: i32| PrinterColumn {
                name: name.into(),
                kind: kind.into(),
                json_path: path.into(),
                description: description.into(),
                format: String::new(),
                priority,
            };
        assert_eq!(
            found.api_types,
            vec![
                ApiType {
                    scope: "Cluster".into(),
                    plural: "widgets".into(),
                    singular: "widget".into(),
                    short_names: s(&["wd", "wdg"]),
                    categories: s(&["all", "example"]),
                    printer_columns: vec![
                        col(
                            "Ready",
                            "string",
                            ".status.conditions[?(@.type=='Ready')].status",
                            "",
                            0
                        ),
                        col(
                            "Age",
                            "date",
                            ".metadata.creationTimestamp",
                            "Time, since creation",
                            1
                        ),
                    ],
                    subresources: s(&["status"]),
                    storage_version: true,
                    ..base("Widget", 11)
                },
                ApiType {
                    subresources: s(&["scale"]),
                    ..base("Gadget", 22)
                },
                ApiType {
                    root: false,
                    printer_columns: vec![col("Far", "string", ".far", "", 0)],
                    ..base("Gizmo", 32)
                },
                ApiType {
                    printer_columns: vec![col("P", "integer", ".p", "", 0)],
                    ..base("Grouped", 40)
                },
            ]
        );
    }

    #[test]
    fn type_marker_mistakes_and_unknown_groups_are_diagnostics() {
        let (_, diags) = widget_project();
        let f = "api/v1/types.go";
        let messages: Vec<(&str, u32, &str)> = diags
            .iter()
            .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            vec![
                (
                    f,
                    39,
                    "printcolumn priority `high` is not a number; 0 is shown"
                ),
                (
                    "internal/config/c.go",
                    3,
                    "kubebuilder markers on type Settings but the API group/version of its package example.com/op/internal/config is unknown (no GroupVersion or +groupName= found); map it under [groups] in projects.toml"
                ),
            ]
        );
    }

    fn served(kind: WebhookType, path: &str, gvk: (&str, &str, &str), line: u32) -> Webhook {
        Webhook {
            name: String::new(),
            kind,
            path: path.into(),
            failure_policy: String::new(),
            service: String::new(),
            configuration: String::new(),
            resolved_service: String::new(),
            substitutions: Vec::new(),
            templated: false,
            bundled: false,
            origin: Origin::Code,
            object: Some(Gvk {
                group: gvk.0.into(),
                version: gvk.1.into(),
                kind: gvk.2.into(),
            }),
            rules: vec![],
            area: Area::Component,
            sources: vec![SourceRef::new("cmd/main.go", line)],
        }
    }

    #[test]
    fn marker_paths_are_checked_against_served_and_deployed_paths() {
        let src = r#"package v1
// +kubebuilder:webhook:path=/mutate-widgets,mutating=true,failurePolicy=fail,groups=example.io,resources=widgets,verbs=create,versions=v1,name=w.example.io
// +kubebuilder:webhook:path=/validate-example-io-v1-widget,mutating=false,failurePolicy=fail,groups=example.io,resources=widgets,verbs=create,versions=v1,name=vw.example.io
// +kubebuilder:webhook:path=/validate-gizmos,mutating=false,failurePolicy=fail,groups=example.io,resources=gizmos,verbs=create,versions=v1,name=g.example.io
"#;
        let (found, _) = project(&[("api/v1/webhook.go", src)]);
        let mut webhooks = found.webhooks;
        webhooks.push(served(
            WebhookType::Mutating,
            "/mutate-example-io-v1-widget",
            ("example.io", "v1", "Widget"),
            30,
        ));
        webhooks.push(served(
            WebhookType::Validating,
            "/validate-example-io-v1-widget",
            ("example.io", "v1", "Widget"),
            31,
        ));
        // Gizmo's plural is unknown (no CRD, no resource marker): no comparison, no guess.
        webhooks.push(served(
            WebhookType::Validating,
            "/validate-example-io-v1-gizmo",
            ("example.io", "v1", "Gizmo"),
            32,
        ));
        let mut manifest = served(
            WebhookType::Mutating,
            "/mutate-example-io-v1-widget",
            ("", "", ""),
            12,
        );
        manifest.origin = Origin::Manifest;
        manifest.object = None;
        manifest.name = "w.example.io".into();
        manifest.configuration = "mutating-webhook-configuration".into();
        manifest.sources = vec![SourceRef::new("config/webhook/manifests.yaml", 12)];
        webhooks.push(manifest);
        let crds = vec![Crd {
            group: "example.io".into(),
            kind: "Widget".into(),
            plural: "widgets".into(),
            scope: "Namespaced".into(),
            versions: vec![],
            area: Area::Component,
            sources: vec![],
            ..Default::default()
        }];
        let diags = check_webhook_paths(&webhooks, &crds, &[]);
        let messages: Vec<(&str, u32, &str)> = diags
            .iter()
            .map(|d| (d.file.as_str(), d.line, d.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            vec![
                (
                    "api/v1/webhook.go",
                    2,
                    "webhook marker `w.example.io` has path /mutate-widgets, but controller-runtime serves the mutating webhook of example.io/v1 Widget on /mutate-example-io-v1-widget (cmd/main.go:30)"
                ),
                (
                    "api/v1/webhook.go",
                    2,
                    "webhook marker `w.example.io` has path /mutate-widgets, but the webhook of that name in mutating-webhook-configuration (config/webhook/manifests.yaml:12) has path /mutate-example-io-v1-widget"
                ),
            ]
        );
    }
}
