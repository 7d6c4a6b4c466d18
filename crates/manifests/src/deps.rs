//! Dependencies as the manifests declare them: a go.mod's `module`, `go`, `toolchain`,
//! `require` (single and block form, `// indirect`) and `replace` lines, and a
//! Cargo.toml's `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`,
//! `[workspace.dependencies]` and `[target.….dependencies]` tables.
//!
//! Per file (`go_mod`, `cargo`) the rows are read as written; per project (`assemble`) a
//! Cargo `workspace = true` entry takes its version and source from the nearest workspace
//! root's `[workspace.dependencies]`, and every row gets the file's area. Versions are
//! never resolved further (no lock files, no registry).

use toml::de::{DeTable, DeValue};

use model::{Area, Dependency, Diagnostic, Ecosystem, ModuleFile, Replace, SourceRef};

/// What one go.mod or Cargo.toml declares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    pub file: Option<ModuleFile>,
    pub dependencies: Vec<Dependency>,
    /// A Cargo.toml with a `[workspace]` table: members' `workspace = true` resolve here.
    pub workspace_root: bool,
    pub diagnostics: Vec<Diagnostic>,
}

fn line_number(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// A go.mod file's directives. Lines are read as the go command reads them: a directive
/// word, then either its arguments or `(` opening a block of argument lines.
pub fn go_mod(path: &str, text: &str) -> Manifest {
    let mut out = Manifest::default();
    let mut file = ModuleFile {
        ecosystem: Ecosystem::Go,
        module: String::new(),
        go: String::new(),
        toolchain: String::new(),
        replaces: Vec::new(),
        area: Area::Component,
        source: SourceRef::new(path, 1),
    };
    let mut block = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = line_number(i);
        let (code, comment) = match raw.split_once("//") {
            Some((c, k)) => (c.trim(), k.trim()),
            None => (raw.trim(), ""),
        };
        if code.is_empty() {
            continue;
        }
        if code == ")" {
            block.clear();
            continue;
        }
        let (directive, args) = if block.is_empty() {
            match code.split_once(char::is_whitespace) {
                Some((d, rest)) => {
                    let rest = rest.trim();
                    if rest == "(" {
                        block = d.to_string();
                        continue;
                    }
                    (d, rest)
                }
                None => continue,
            }
        } else {
            (block.as_str(), code)
        };
        let unquote = |s: &str| s.trim_matches('"').to_string();
        match directive {
            "module" => {
                file.module = unquote(args);
                file.source = SourceRef::new(path, line);
            }
            "go" => file.go = args.to_string(),
            "toolchain" => file.toolchain = args.to_string(),
            "require" => {
                let words: Vec<&str> = args.split_whitespace().collect();
                let [module, version] = words.as_slice() else {
                    out.diagnostics.push(Diagnostic::new(
                        path,
                        line,
                        format!("cannot read the requirement `{args}`: expected a module path and a version"),
                    ));
                    continue;
                };
                out.dependencies.push(Dependency {
                    version: unquote(version),
                    indirect: comment.split([';', ' ']).any(|w| w == "indirect"),
                    ..Dependency::new(Ecosystem::Go, &unquote(module), SourceRef::new(path, line))
                });
            }
            "replace" => match replace(args, path, line) {
                Some(r) => file.replaces.push(r),
                None => out.diagnostics.push(Diagnostic::new(
                    path,
                    line,
                    format!("cannot read the replace directive `{args}`"),
                )),
            },
            _ => {}
        }
    }
    // A replace without a version applies to every version; one with a version only to it.
    for d in &mut out.dependencies {
        let found = file
            .replaces
            .iter()
            .filter(|r| r.module == d.module && (r.version.is_empty() || r.version == d.version))
            // The go command prefers the versioned replacement.
            .max_by_key(|r| !r.version.is_empty());
        if let Some(r) = found {
            d.replaced_by = r.target();
        }
    }
    out.file = Some(file);
    out
}

/// `old [v] => new [v]`.
fn replace(args: &str, path: &str, line: u32) -> Option<Replace> {
    let (old, new) = args.split_once("=>")?;
    let old: Vec<&str> = old.split_whitespace().collect();
    let new: Vec<&str> = new.split_whitespace().collect();
    let unquote = |s: &&str| s.trim_matches('"').to_string();
    let (module, version) = match old.as_slice() {
        [m] => (unquote(m), String::new()),
        [m, v] => (unquote(m), unquote(v)),
        _ => return None,
    };
    let (to, to_version) = match new.as_slice() {
        [p] => (unquote(p), String::new()),
        [m, v] => (unquote(m), unquote(v)),
        _ => return None,
    };
    Some(Replace {
        module,
        version,
        to,
        to_version,
        source: SourceRef::new(path, line),
    })
}

/// The dependency tables of a Cargo.toml, each entry at its line.
pub fn cargo(path: &str, text: &str) -> Manifest {
    let mut out = Manifest::default();
    let table = match DeTable::parse(text) {
        Ok(t) => t.into_inner(),
        Err(e) => {
            out.diagnostics.push(Diagnostic::new(
                path,
                1,
                format!(
                    "cannot read the dependencies of this Cargo.toml: {}",
                    e.message()
                ),
            ));
            return out;
        }
    };
    let lines = LineIndex::new(text);
    let package = get(&table, "package").and_then(as_table);
    let package_line = key_span(&table, "package").map(|s| lines.line(s));
    out.workspace_root = get(&table, "workspace").is_some();
    out.file = Some(ModuleFile {
        ecosystem: Ecosystem::Cargo,
        module: package
            .and_then(|p| get(p, "name"))
            .and_then(as_str)
            .unwrap_or_default()
            .to_string(),
        go: String::new(),
        toolchain: String::new(),
        replaces: Vec::new(),
        area: Area::Component,
        source: SourceRef::new(path, package_line.unwrap_or(1)),
    });
    let mut read = |t: &DeTable, kind: &str, target: &str| {
        for (key, kind_name) in [
            ("dependencies", kind),
            ("dev-dependencies", "dev"),
            ("dev_dependencies", "dev"),
            ("build-dependencies", "build"),
            ("build_dependencies", "build"),
        ] {
            if !kind.is_empty() && key != "dependencies" {
                continue;
            }
            let Some(deps) = get(t, key).and_then(as_table) else {
                continue;
            };
            for (name, value) in deps {
                let line = lines.line(name.span().start);
                out.dependencies.push(cargo_dependency(
                    path,
                    line,
                    name.get_ref(),
                    value.get_ref(),
                    kind_name,
                    target,
                ));
            }
        }
    };
    read(&table, "", "");
    if let Some(ws) = get(&table, "workspace").and_then(as_table) {
        read(ws, "workspace", "");
    }
    if let Some(targets) = get(&table, "target").and_then(as_table) {
        for (cfg, t) in targets {
            if let Some(t) = as_table(t.get_ref()) {
                read(t, "", cfg.get_ref());
            }
        }
    }
    // Tables are maps by name: put the entries back in the file's order.
    out.dependencies.sort_by_key(|d| d.source.line);
    out
}

/// One entry of a dependency table: `name = "1.0"` or `name = { version, path, git, … }`.
fn cargo_dependency(
    path: &str,
    line: u32,
    name: &str,
    value: &DeValue,
    kind: &str,
    target: &str,
) -> Dependency {
    let mut d = Dependency {
        kind: kind.to_string(),
        target: target.to_string(),
        ..Dependency::new(Ecosystem::Cargo, name, SourceRef::new(path, line))
    };
    match value {
        DeValue::String(v) => d.version = v.to_string(),
        DeValue::Table(t) => {
            let s = |k: &str| get(t, k).and_then(as_str).unwrap_or_default().to_string();
            d.version = s("version");
            if let Some(package) = get(t, "package").and_then(as_str) {
                d.module = package.to_string();
            }
            d.path = s("path");
            d.git = s("git");
            for pin in ["branch", "tag", "rev"] {
                let v = s(pin);
                if !d.git.is_empty() && !v.is_empty() {
                    d.git = format!("{}#{pin}={v}", d.git);
                }
            }
            if let Some(DeValue::Array(fs)) = get(t, "features") {
                d.features = fs
                    .iter()
                    .filter_map(|f| as_str(f.get_ref()).map(str::to_string))
                    .collect();
            }
            if matches!(get(t, "workspace"), Some(DeValue::Boolean(true))) {
                // Filled from the workspace root by `assemble`; a placeholder until then.
                d.workspace = Some(SourceRef::new("", 0));
            }
        }
        _ => {}
    }
    d
}

fn get<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<&'a DeValue<'i>> {
    t.iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(_, v)| v.get_ref())
}

fn key_span(t: &DeTable, key: &str) -> Option<usize> {
    t.iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(k, _)| k.span().start)
}

fn as_table<'a, 'i>(v: &'a DeValue<'i>) -> Option<&'a DeTable<'i>> {
    match v {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

fn as_str<'a>(v: &'a DeValue) -> Option<&'a str> {
    match v {
        DeValue::String(s) => Some(s.as_ref()),
        _ => None,
    }
}

/// Byte offsets to line numbers.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        LineIndex(
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    fn line(&self, offset: usize) -> u32 {
        let i = self.0.partition_point(|&start| start <= offset);
        u32::try_from(i.max(1)).unwrap_or(u32::MAX)
    }
}

/// One project's manifests put together: areas set, Cargo `workspace = true` entries
/// resolved against the nearest workspace root above them (a diagnostic when it has no
/// such entry), rows in file and line order.
pub fn assemble(
    manifests: Vec<(Manifest, Area)>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<ModuleFile>, Vec<Dependency>) {
    let mut files = Vec::new();
    let mut deps = Vec::new();
    let mut roots: Vec<(String, Vec<Dependency>)> = Vec::new();
    for (mut m, area) in manifests {
        diagnostics.append(&mut m.diagnostics);
        for d in &mut m.dependencies {
            d.area = area;
        }
        if let Some(mut f) = m.file {
            f.area = area;
            if m.workspace_root {
                let dir = crate::helm::dir_of(&f.source.file).to_string();
                let own: Vec<Dependency> = m
                    .dependencies
                    .iter()
                    .filter(|d| d.kind == "workspace")
                    .cloned()
                    .collect();
                roots.push((dir, own));
            }
            files.push(f);
        }
        deps.append(&mut m.dependencies);
    }
    for d in deps.iter_mut().filter(|d| d.workspace.is_some()) {
        let dir = crate::helm::dir_of(&d.source.file);
        let root = roots
            .iter()
            .filter(|(r, _)| r.is_empty() || dir == r || dir.starts_with(&format!("{r}/")))
            .max_by_key(|(r, _)| r.len());
        let entry = root.and_then(|(_, ws)| ws.iter().find(|w| w.module == d.module));
        match entry {
            Some(w) => {
                d.version = w.version.clone();
                d.path = w.path.clone();
                d.git = w.git.clone();
                let mut features = w.features.clone();
                features.extend(d.features.iter().cloned());
                let mut seen = std::collections::BTreeSet::new();
                features.retain(|f| seen.insert(f.clone()));
                d.features = features;
                d.workspace = Some(w.source.clone());
            }
            None => {
                d.workspace = None;
                diagnostics.push(Diagnostic::new(
                    &d.source.file,
                    d.source.line,
                    format!(
                        "`{} = {{ workspace = true }}`: no workspace root above this manifest declares it under [workspace.dependencies]",
                        d.module
                    ),
                ));
            }
        }
    }
    (files, deps)
}

#[cfg(test)]
mod tests;
