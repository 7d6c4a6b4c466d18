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
mod tests;
