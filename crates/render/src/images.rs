//! Images and builds: the configuration page's "Images" section (every image reference the
//! deployment files name, split, with how and where it is set) and "Dockerfiles" section
//! (stages, who the final stage runs as, CGO and FIPS-style settings, the binaries built),
//! and the platform section of the images two or more projects use.
//!
//! They sit on the configuration page because they are part of how the project is
//! deployed: the workloads above them name the same images, and a kustomize override or a
//! values default is read beside the kustomization and chart it belongs to.

use std::collections::{BTreeMap, BTreeSet};

use super::table::{Anchors, Cell, Router, Section, TableRow, source_links};
use model::{Dockerfile, ImageOrigin, ImageRef, Project, RunsAs, SourceRef};
use source::line_url;

fn link(p: &Project, text: String, s: &SourceRef) -> Cell {
    match line_url(&p.source_url, &p.commit, &s.file, s.line) {
        Some(url) => Cell::link(text, url),
        None => Cell::text(text),
    }
}

/// `v1.2.0`, `@sha256:…`, or what an empty tag means for where it is set.
fn tag_or_digest(i: &ImageRef) -> String {
    match (i.tag.as_str(), i.digest.as_str()) {
        (t, "") if !t.is_empty() => t.to_string(),
        ("", d) if !d.is_empty() => format!("@{d}"),
        (t, d) if !t.is_empty() => format!("{t} @{d}"),
        _ if i.origin == ImageOrigin::HelmValue => {
            "not set in values (the chart's template decides)".into()
        }
        _ => "none (a runtime pulls `latest`)".into(),
    }
}

fn registry(i: &ImageRef) -> String {
    if i.registry.is_empty() {
        "none (Docker Hub)".into()
    } else {
        i.registry.clone()
    }
}

/// The configuration page's image table.
pub fn images_section(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let rows = p
        .findings
        .images
        .iter()
        .filter_map(|i| {
            let row = TableRow {
                anchor: anchors.unique(&["image", &i.reference, &i.context]),
                cells: vec![
                    Cell::text(i.reference.clone()),
                    Cell::text(registry(i)),
                    Cell::text(i.repository.clone()),
                    Cell::text(tag_or_digest(i)),
                    Cell::text(i.origin.label()),
                    Cell::text(i.context.clone()),
                ],
                sources: source_links(p, &i.sources),
            };
            router.route("Image", i.area, i.bundled, row)
        })
        .collect();
    Section {
        id: "images".into(),
        title: "Images".into(),
        intro: "Every container image the deployment files name: workload containers, environment variables whose name says they hold an image, kustomize `images:` overrides and chart values defaults (an image block's registry, repository, tag and digest put together, or a string). References are split as the OCI reference grammar reads them; a value with a template action is not listed (its chart's values row is).".into(),
        headers: [
            "Image", "Registry", "Repository", "Tag or digest", "Set by", "Where", "Source", "",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows,
        empty: "No image references were found.".into(),
        chart: String::new(),
        note: None,
        code: Vec::new(),
    }
}

/// Who the final stage runs as, in words; root is flagged.
fn user_cell(p: &Project, d: &Dockerfile) -> Cell {
    let verdict = match d.user.runs_as {
        RunsAs::Root => "⚠ root",
        RunsAs::NonRoot => "non-root",
        RunsAs::NotSet => "not set",
        RunsAs::Unknown => "unknown",
    };
    let text = format!("{verdict}: {}", d.user.evidence);
    match &d.user.source {
        Some(s) => link(p, text, s),
        None => Cell::text(text),
    }
}

/// The configuration page's Dockerfile table.
pub fn dockerfiles_section(p: &Project, router: &mut Router, anchors: &mut Anchors) -> Section {
    let rows = p
        .findings
        .dockerfiles
        .iter()
        .filter_map(|d| {
            let stages: Vec<Cell> = d
                .stages
                .iter()
                .enumerate()
                .map(|(n, s)| {
                    let mut text = format!("{}. ", n + 1);
                    if s.from_stage.is_empty() {
                        text.push_str(&s.from);
                        if !s.resolved.is_empty() {
                            text.push_str(&format!(" = {}", s.resolved));
                        }
                    } else {
                        text.push_str(&format!("stage {}", s.from_stage));
                    }
                    if !s.name.is_empty() {
                        text.push_str(&format!(" AS {}", s.name));
                    }
                    link(p, text, &s.source)
                })
                .collect();
            let settings = |list: &[model::BuildSetting]| {
                Cell::list(
                    list.iter()
                        .map(|s| link(p, s.value.clone(), &s.source))
                        .collect(),
                )
            };
            let builds: Vec<Cell> = d
                .builds
                .iter()
                .map(|b| {
                    let package = if b.package.is_empty() {
                        "(root)"
                    } else {
                        &b.package
                    };
                    let binary = if b.binary.is_empty() {
                        "no binary of the project has this package".to_string()
                    } else {
                        format!("binary {}", b.binary)
                    };
                    link(p, format!("{} ← {package}: {binary}", b.output), &b.source)
                })
                .collect();
            let row = TableRow {
                anchor: anchors.unique(&["dockerfile", &d.file]),
                cells: vec![
                    Cell::text(d.file.clone()),
                    Cell::list(stages),
                    user_cell(p, d),
                    settings(&d.cgo),
                    settings(&d.fips),
                    Cell::list(builds),
                ],
                sources: source_links(p, &[SourceRef::new(&d.file, 1)]),
            };
            router.route("Dockerfile", d.area, false, row)
        })
        .collect();
    Section {
        id: "dockerfiles".into(),
        title: "Dockerfiles".into(),
        intro: "Each Dockerfile's stages (the base as written, with `ARG` defaults substituted; a stage built from an earlier one), who the final stage runs as (its last `USER`, else that of the stage it is built from; with none the image runs as its base image's user, which the Dockerfile does not show, so it is said, not guessed), `CGO_ENABLED` and FIPS-style settings (`GOEXPERIMENT` naming a crypto backend, `GOFIPS140`, `GODEBUG=fips140`, `fips` or `goexperiment.` build tags) with their lines, and the `go build` commands with the project binary each makes (matched by package folder; a `COPY` that moves sources is not followed).".into(),
        headers: [
            "File", "Stages", "Final user", "CGO_ENABLED", "FIPS", "Builds", "Source", "",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows,
        empty: "No Dockerfiles were found.".into(),
        chart: String::new(),
        note: None,
        code: Vec::new(),
    }
}

/// What two references of one image share: the registry (Docker Hub's when none) and the
/// repository (`library/` for an official image).
fn image_key(registry: &str, repository: &str) -> String {
    let registry = match registry {
        "" | "index.docker.io" | "registry-1.docker.io" => "docker.io",
        r => r,
    };
    if registry == "docker.io" && !repository.contains('/') {
        format!("{registry}/library/{repository}")
    } else {
        format!("{registry}/{repository}")
    }
}

/// One project's uses of an image: (tag or digest shown, file, line).
type Uses = BTreeSet<(String, String, u32)>;

/// The platform section: images two or more projects use, in deployment files or as a
/// Dockerfile base, with each project's tags.
pub fn platform_section(projects: &[Project], _root: &str) -> Section {
    let mut by_image: BTreeMap<String, BTreeMap<usize, Uses>> = BTreeMap::new();
    for (n, p) in projects.iter().enumerate() {
        for i in p
            .findings
            .images
            .iter()
            .filter(|i| i.area.is_component() && !i.bundled)
        {
            let Some(s) = i.sources.first() else { continue };
            let version = if i.digest.is_empty() {
                i.tag.clone()
            } else {
                format!("@{}", i.digest)
            };
            by_image
                .entry(image_key(&i.registry, &i.repository))
                .or_default()
                .entry(n)
                .or_default()
                .insert((version, s.file.clone(), s.line));
        }
        for d in p
            .findings
            .dockerfiles
            .iter()
            .filter(|d| d.area.is_component())
        {
            for s in d.stages.iter().filter(|s| s.from_stage.is_empty()) {
                let base = if s.resolved.is_empty() {
                    &s.from
                } else {
                    &s.resolved
                };
                let Some(parts) = kubernetes::image_reference::split(base) else {
                    continue;
                };
                if base == "scratch" {
                    continue;
                }
                by_image
                    .entry(image_key(&parts.registry, &parts.repository))
                    .or_default()
                    .entry(n)
                    .or_default()
                    .insert((
                        format!("{} (base)", parts.tag),
                        s.source.file.clone(),
                        s.source.line,
                    ));
            }
        }
    }
    let mut anchors = Anchors::new();
    let rows: Vec<TableRow> = by_image
        .into_iter()
        .filter(|(_, users)| users.len() > 1)
        .map(|(image, users)| {
            let mut cells = vec![Cell::text(image.clone())];
            for (n, p) in projects.iter().enumerate() {
                cells.push(match users.get(&n) {
                    Some(uses) => {
                        // One line per tag, linking its first place, with how many more.
                        let mut tags: BTreeMap<&str, (&str, u32, usize)> = BTreeMap::new();
                        for (v, file, line) in uses {
                            tags.entry(v.as_str()).or_insert((file, *line, 0)).2 += 1;
                        }
                        Cell::list(
                            tags.into_iter()
                                .map(|(v, (file, line, count))| {
                                    let shown = if v.is_empty() { "(no tag)" } else { v };
                                    let text = match count {
                                        1 => shown.to_string(),
                                        n => format!("{shown}, {n} places"),
                                    };
                                    link(p, text, &SourceRef::new(file, line))
                                })
                                .collect(),
                        )
                    }
                    None => Cell::text(""),
                });
            }
            TableRow {
                anchor: anchors.unique(&["image", &image]),
                cells,
                sources: Vec::new(),
            }
        })
        .collect();
    let mut headers = vec!["Image".to_string()];
    headers.extend(projects.iter().map(|p| p.name.clone()));
    headers.push(String::new());
    Section {
        id: "images".into(),
        title: "Images used by two or more projects".into(),
        intro: "Container images (registry and repository; no registry is Docker Hub's) that two or more projects name in their own deployment files or build from in a Dockerfile (marked base), with each project's tags, each linking where it is set.".into(),
        headers,
        rows,
        empty: "No image is used by two or more projects.".into(),
        chart: String::new(),
        note: None,
        code: Vec::new(),
    }
}

#[cfg(test)]
mod tests;
