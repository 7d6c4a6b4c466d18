//! Container image references: where a project's deployment files name an image, each
//! split into registry, repository, tag and digest (`kubernetes::image_reference`).
//!
//! Sources: a workload container's `image:` and an environment variable whose name says it
//! holds an image (`RELATED_IMAGE_X`, `…_IMAGE`) with a value that is a full reference
//! (`containers`, per object); a kustomization's `images:` overrides (`kustomize_override`);
//! and a chart's values.yaml defaults (`helm_values`, per project): an image block
//! (`registry`/`repository`/`tag`/`digest` under a key naming an image) or a string key
//! naming an image. A value with a template action or variable is not an image reference
//! and gives no row.

use serde_json::Value;

use super::yaml::value::plain_value;
use kubernetes::image_reference::{Parts, split};
use model::{Area, HelmChart, ImageOrigin, ImageRef, SourceRef};

fn image(
    reference: String,
    parts: Parts,
    origin: ImageOrigin,
    context: String,
    area: Area,
    sources: Vec<SourceRef>,
) -> ImageRef {
    ImageRef {
        reference,
        registry: parts.registry,
        repository: parts.repository,
        tag: parts.tag,
        digest: parts.digest,
        origin,
        context,
        bundled: false,
        area,
        sources,
    }
}

/// The line at or after `from` in a document starting at `first_line` that reads
/// `key: value` (as a list item or not); None when the value is written another way.
fn line_of(doc: &str, first_line: u32, from: u32, key: &str, value: &str) -> Option<u32> {
    doc.lines().enumerate().find_map(|(i, line)| {
        let n = first_line.saturating_add(u32::try_from(i).ok()?);
        if n < from {
            return None;
        }
        let t = line.trim_start();
        let t = t.strip_prefix("- ").map(str::trim_start).unwrap_or(t);
        let rest = t.strip_prefix(key)?.strip_prefix(':')?;
        (plain_value(rest) == value).then_some(n)
    })
}

/// The `image: reference` line of the list item whose `name:` is on line `at`: the item
/// runs from its `- ` line (at or above `at`) to the next line as little indented.
fn item_image_line(doc: &str, first_line: u32, at: u32, reference: &str) -> Option<u32> {
    let lines: Vec<&str> = doc.lines().collect();
    let at = usize::try_from(at.checked_sub(first_line)?).ok()?;
    let indent = |l: &str| l.len() - l.trim_start().len();
    let start = (0..=at.min(lines.len().checked_sub(1)?))
        .rev()
        .find(|&i| lines[i].trim_start().starts_with("- "))?;
    let dash = indent(lines[start]);
    let end = (start + 1..lines.len())
        .find(|&i| {
            let t = lines[i].trim_start();
            !t.is_empty() && !t.starts_with('#') && indent(lines[i]) <= dash
        })
        .unwrap_or(lines.len());
    (start..end).find_map(|i| {
        let t = lines[i].trim_start();
        let t = t.strip_prefix("- ").map(str::trim_start).unwrap_or(t);
        let rest = t.strip_prefix("image")?.strip_prefix(':')?;
        let n = first_line.saturating_add(u32::try_from(i).ok()?);
        (plain_value(rest) == reference).then_some(n)
    })
}

/// The first line of a document whose text is `key:` (a mapping key opening a block).
fn key_line(doc: &str, first_line: u32, key: &str) -> Option<u32> {
    doc.lines().enumerate().find_map(|(i, line)| {
        let rest = line.trim_start().strip_prefix(key)?.strip_prefix(':')?;
        let n = first_line.saturating_add(u32::try_from(i).ok()?);
        rest.trim().is_empty().then_some(n)
    })
}

/// Whether an environment variable's name says it holds an image.
fn names_an_image(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("RELATED_IMAGE_")
        || upper.ends_with("_IMAGE")
        || upper == "IMAGE"
        || upper.contains("_IMAGE_")
}

/// The images of one workload's containers (`pod` is its pod spec): each container's
/// `image:`, and environment variables named for an image whose value is a reference
/// with a registry, tag or digest. Lines are found in the document's text.
/// In a templated document an image whose `image:` line is not found was rendered from
/// the chart's values: the values row has it, so it gets no row of its own here.
/// `used` holds the `name:` lines taken by earlier pod specs of the same object.
pub fn containers(
    pod: &Value,
    used: &mut Vec<(String, u32)>,
    doc: &str,
    (first_line, kind_line, templated): (u32, u32, bool),
    what: &str,
    path: &str,
    area: Area,
) -> Vec<ImageRef> {
    let mut out = Vec::new();
    // The line each reference was last found on: the same image twice is two lines; init
    // containers, read first, may be written after the containers.
    let mut last: Vec<(&str, u32)> = Vec::new();
    for (list, init) in [("initContainers", true), ("containers", false)] {
        let Some(Value::Array(cs)) = pod.get(list) else {
            continue;
        };
        for c in cs {
            let name = c.get("name").and_then(Value::as_str).unwrap_or_default();
            let container = format!(
                "{what}, {}container {name}",
                if init { "init " } else { "" }
            );
            if let Some(reference) = c.get("image").and_then(Value::as_str)
                && let Some(parts) = split(reference)
            {
                // From the container's `name:` under its list, else after the same
                // reference's last line.
                let list_line = key_line(doc, first_line, list).unwrap_or(first_line);
                // A second pod spec of the object repeats names: after the last one used.
                let name_from = used
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .map_or(list_line, |(_, l)| l + 1);
                let named = super::yaml::value::line_of_name(doc, first_line, name_from, name);
                if let Some(l) = named {
                    used.push((name.to_string(), l));
                }
                let after_last = last
                    .iter()
                    .rev()
                    .find(|(r, _)| *r == reference)
                    .map_or(first_line, |(_, l)| l + 1);
                let line = named
                    .and_then(|at| item_image_line(doc, first_line, at, reference))
                    .or_else(|| line_of(doc, first_line, after_last, "image", reference));
                if let Some(l) = line {
                    last.push((reference, l));
                }
                if line.is_none() && templated {
                    continue;
                }
                out.push(image(
                    reference.to_string(),
                    parts,
                    ImageOrigin::Manifest,
                    container.clone(),
                    area,
                    vec![SourceRef::new(path, line.unwrap_or(kind_line))],
                ));
            }
            let Some(Value::Array(env)) = c.get("env") else {
                continue;
            };
            for e in env {
                let (Some(n), Some(v)) = (
                    e.get("name").and_then(Value::as_str),
                    e.get("value").and_then(Value::as_str),
                ) else {
                    continue;
                };
                let Some(parts) = split(v).filter(|p| {
                    names_an_image(n)
                        && (!p.registry.is_empty() || !p.tag.is_empty() || !p.digest.is_empty())
                }) else {
                    continue;
                };
                let line = super::yaml::value::line_of_name(doc, first_line, first_line, n)
                    .and_then(|l| line_of(doc, first_line, l, "value", v));
                if line.is_none() && templated {
                    continue;
                }
                out.push(image(
                    v.to_string(),
                    parts,
                    ImageOrigin::Env,
                    format!("{container}, env {n}"),
                    area,
                    vec![SourceRef::new(path, line.unwrap_or(kind_line))],
                ));
            }
        }
    }
    out
}

/// Most nodes of one object walked for embedded pod specs, and their depth.
const MAX_NODES: usize = 100_000;
const MAX_DEPTH: usize = 64;

/// The mappings of an object that hold a `containers` or `initContainers` list of
/// mappings with a string `image` (pod specs embedded in other kinds), each as a pod
/// holding just those lists. Walked with an explicit stack, bounded.
pub fn embedded_pods(object: &Value) -> Vec<Value> {
    let has_images = |v: Option<&Value>| matches!(v, Some(Value::Array(cs)) if cs.iter().any(|c| c.get("image").is_some_and(Value::is_string)));
    let mut pods = Vec::new();
    let mut stack = vec![(object, 0usize)];
    let mut seen = 0;
    while let Some((v, depth)) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES || depth > MAX_DEPTH {
            break;
        }
        match v {
            Value::Object(m) => {
                let (c, i) = (m.get("containers"), m.get("initContainers"));
                if has_images(c) || has_images(i) {
                    let mut pod = serde_json::Map::new();
                    for (k, list) in [("containers", c), ("initContainers", i)] {
                        if let Some(list) = list {
                            pod.insert(k.to_string(), list.clone());
                        }
                    }
                    pods.push(Value::Object(pod));
                }
                // Document order: the stack pops the last pushed first.
                let children: Vec<&Value> = m
                    .iter()
                    .filter(|(k, _)| *k != "containers" && *k != "initContainers")
                    .map(|(_, v)| v)
                    .collect();
                stack.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
            }
            Value::Array(items) => stack.extend(items.iter().rev().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    pods
}

/// A kustomization's `images:` entry: the reference it substitutes for `name`.
pub fn kustomize_override(
    entry: &Value,
    dir: &str,
    path: &str,
    line: u32,
    area: Area,
) -> Option<ImageRef> {
    let s = |k: &str| entry.get(k).and_then(Value::as_str).unwrap_or_default();
    let (name, new_name, tag, digest) = (s("name"), s("newName"), s("newTag"), s("digest"));
    if new_name.is_empty() && tag.is_empty() && digest.is_empty() {
        return None;
    }
    let target = if new_name.is_empty() { name } else { new_name };
    let reference = match (tag, digest) {
        (_, d) if !d.is_empty() => format!("{target}@{d}"),
        ("", _) => target.to_string(),
        (t, _) => format!("{target}:{t}"),
    };
    let parts = split(&reference)?;
    let folder = if dir.is_empty() { "(root)" } else { dir };
    Some(image(
        reference,
        parts,
        ImageOrigin::Kustomize,
        format!("kustomization {folder}, images: {name}"),
        area,
        vec![SourceRef::new(path, line)],
    ))
}

/// Image references in charts' values.yaml defaults.
pub fn helm_values(charts: &[HelmChart]) -> Vec<ImageRef> {
    let mut out = Vec::new();
    for chart in charts {
        let value = |key: &str| chart.values.iter().find(|v| v.key == key);
        let text = |key: &str| {
            value(key)
                .map(|v| v.default.trim_matches(['"', '\'']).to_string())
                .filter(|d| !d.is_empty() && d != "null" && d != "~")
        };
        let line = |key: &str| value(key).and_then(|v| v.sources.first().cloned());
        for v in &chart.values {
            let (parent, last) = v.key.rsplit_once('.').unwrap_or(("", &v.key));
            let parent_names_image = parent
                .split('.')
                .any(|p| p.to_ascii_lowercase().contains("image"));
            if last == "repository" && parent_names_image {
                // An image block: `{registry, repository, tag, digest}`.
                let Some(repository) = text(&v.key) else {
                    continue;
                };
                let part = |k: &str| text(&format!("{parent}.{k}"));
                let mut reference = match part("registry") {
                    Some(r) => format!("{r}/{repository}"),
                    None => repository,
                };
                if let Some(t) = part("tag") {
                    reference = format!("{reference}:{t}");
                }
                if let Some(d) = part("digest") {
                    reference = format!("{reference}@{d}");
                }
                let Some(parts) = split(&reference) else {
                    continue;
                };
                let sources: Vec<SourceRef> = ["repository", "registry", "tag", "digest"]
                    .iter()
                    .filter_map(|k| line(&format!("{parent}.{k}")))
                    .collect();
                let mut sources: Vec<SourceRef> = sources;
                sources.sort_by_key(|s| s.line);
                out.push(image(
                    reference,
                    parts,
                    ImageOrigin::HelmValue,
                    format!("chart {}, values {parent}", chart.name),
                    chart.area,
                    sources,
                ));
            } else if v.value_type == "string" && last.to_ascii_lowercase().ends_with("image") {
                // A string naming an image, with a sibling `tag` when it has none.
                let Some(mut reference) = text(&v.key) else {
                    continue;
                };
                let Some(mut parts) = split(&reference) else {
                    continue;
                };
                let mut sources: Vec<SourceRef> = v.sources.first().cloned().into_iter().collect();
                let sibling = |k: &str| {
                    if parent.is_empty() {
                        k.to_string()
                    } else {
                        format!("{parent}.{k}")
                    }
                };
                let images_here = chart
                    .values
                    .iter()
                    .filter(|o| {
                        o.key.rsplit_once('.').map_or("", |(p, _)| p) == parent
                            && o.key.to_ascii_lowercase().ends_with("image")
                    })
                    .count();
                // `imageTag`/`image_tag` belong to `image`; a plain `tag` only when it is
                // the one image of its block.
                let tag_key = [
                    (format!("{last}Tag"), true),
                    (format!("{last}_tag"), true),
                    ("tag".to_string(), images_here == 1),
                ]
                .into_iter()
                .filter(|(_, own)| *own)
                .map(|(k, _)| sibling(&k))
                .find(|k| value(k).is_some());
                if parts.tag.is_empty()
                    && parts.digest.is_empty()
                    && let Some(k) = tag_key
                    && let Some(t) = text(&k)
                    && let Some(joined) = split(&format!("{reference}:{t}"))
                {
                    reference = format!("{reference}:{t}");
                    parts = joined;
                    sources.extend(line(&k));
                }
                out.push(image(
                    reference,
                    parts,
                    ImageOrigin::HelmValue,
                    format!("chart {}, values {}", chart.name, v.key),
                    chart.area,
                    sources,
                ));
            }
        }
    }
    out
}
