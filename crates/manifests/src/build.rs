//! Binary names as the build names them: `go build -o bin/manager ./cmd` in a Dockerfile's
//! `RUN` or a Makefile recipe, and `.goreleaser.yaml`'s `builds: [{binary, main}]`.
//!
//! Readers are line-based and bounded: `\` continuations are joined, commands are split
//! on `&&`, `||` and `;`, and only `go build` is read. Nothing is executed. A Makefile's
//! `$(VAR)`/`${VAR}` is replaced by a simple assignment of `VAR` in the same file (`=`,
//! `:=`, `?=`); any other variable leaves the name unknown, with a diagnostic.

use std::collections::HashMap;

use super::shell::{logical_lines, shell_words, substitute};
use model::{Binary, Diagnostic, SourceRef};

pub use source::file_kind::BuildKind;

/// Build files of this kind come first when two name one package differently.
fn rank(kind: BuildKind) -> u8 {
    match kind {
        BuildKind::GoReleaser => 0,
        BuildKind::Dockerfile => 1,
        BuildKind::Makefile => 2,
    }
}

/// One binary a build file names.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildName {
    /// The output's last path element (`manager`).
    pub name: String,
    /// The package built, repository-relative, without `./` (`cmd/manager`, `` for the
    /// root); a `.go` file stands for its folder. Or an import path
    /// (`example.com/app/cmd/manager`), matched against the program's package.
    pub dir: String,
    pub kind: BuildKind,
    pub source: SourceRef,
}

/// What one build file yields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuildFacts {
    pub names: Vec<BuildName>,
    /// A Dockerfile's `go build` commands without `-o` (named after the package folder,
    /// which the binary already is): listed with the file, never renaming a binary.
    pub unnamed: Vec<BuildName>,
    /// A Dockerfile's stages and settings.
    pub dockerfile: Option<model::Dockerfile>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(path: &str, text: &str) -> BuildFacts {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(kind) = BuildKind::of(name) else {
        return BuildFacts::default();
    };
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let mut facts = BuildFacts::default();
    if kind == BuildKind::Dockerfile {
        facts.dockerfile = Some(super::dockerfile::analyze(
            path,
            text,
            &mut facts.diagnostics,
        ));
    }
    match kind {
        BuildKind::GoReleaser => goreleaser(path, dir, text, &mut facts),
        BuildKind::Dockerfile | BuildKind::Makefile => {
            let lines = logical_lines(text);
            let mut vars = if kind == BuildKind::Makefile {
                make_variables(&lines)
            } else {
                HashMap::new()
            };
            // A Docker build's context is normally the repository root; a Makefile's
            // recipes run in its folder.
            let base = if kind == BuildKind::Makefile { dir } else { "" };
            for (line, l) in &lines {
                let body = match kind {
                    BuildKind::Dockerfile => {
                        let t = l.trim_start();
                        if docker_variable(t, &mut vars) {
                            continue;
                        }
                        match t.get(..4) {
                            Some(run) if run.eq_ignore_ascii_case("RUN ") => &t[4..],
                            _ => continue,
                        }
                    }
                    _ => l.as_str(),
                };
                for cmd in body.split(['&', '|', ';']) {
                    go_build(cmd, *line, path, base, kind, &vars, &mut facts);
                }
            }
        }
    }
    facts
}

/// `NAME = value`, `NAME := value`, `NAME ?= value` at the start of a line (not a recipe).
fn make_variables(lines: &[(u32, String)]) -> HashMap<String, String> {
    let mut vars = HashMap::new();
    for (_, l) in lines {
        if l.starts_with('\t') {
            continue;
        }
        let Some(eq) = l.find('=') else { continue };
        let mut name = l[..eq].trim_end();
        for op in ["::", ":", "?", "+"] {
            if let Some(n) = name.strip_suffix(op) {
                if op == "+" {
                    // `+=` appends: the value is no longer simple.
                    name = "";
                } else {
                    name = n.trim_end();
                }
                break;
            }
        }
        let name = name.strip_prefix("export ").unwrap_or(name).trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        vars.insert(name.to_string(), l[eq + 1..].trim().to_string());
    }
    vars
}

/// A Dockerfile's `ARG NAME=default` or `ENV NAME=value`/`ENV NAME value`: records the
/// value (the default a build uses unless `--build-arg` overrides it). True for either
/// instruction, with or without a value.
fn docker_variable(line: &str, vars: &mut HashMap<String, String>) -> bool {
    let Some((instr, rest)) = line.split_once(char::is_whitespace) else {
        return false;
    };
    let is_arg = instr.eq_ignore_ascii_case("ARG");
    if !is_arg && !instr.eq_ignore_ascii_case("ENV") {
        return false;
    }
    let rest = rest.trim();
    let (name, value) = match rest.split_once('=') {
        Some((n, v)) if !n.contains(char::is_whitespace) => (n, v.trim()),
        _ if !is_arg => match rest.split_once(char::is_whitespace) {
            Some((n, v)) => (n, v.trim()),
            None => return true,
        },
        // `ARG NAME` without a default: whatever the build passes.
        _ => {
            vars.remove(rest);
            return true;
        }
    };
    let value = value.trim_matches(['"', '\'']);
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !value.contains('$') {
        vars.insert(name.to_string(), value.to_string());
    }
    true
}

/// Go build flags that take a value as the next word.
const VALUE_FLAGS: &[&str] = &[
    "-ldflags",
    "-gcflags",
    "-asmflags",
    "-tags",
    "-mod",
    "-installsuffix",
    "-buildmode",
    "-p",
    "-pkgdir",
    "-toolexec",
    "-compiler",
    "-gccgoflags",
    "-modfile",
    "-overlay",
    "-pgo",
    "-buildvcs",
    "-C",
];

/// Reads one shell command: `[ENV=x …] go build [flags] -o OUT [PKG]`.
fn go_build(
    cmd: &str,
    line: u32,
    path: &str,
    base: &str,
    kind: BuildKind,
    vars: &HashMap<String, String>,
    facts: &mut BuildFacts,
) {
    // A Makefile's `$(GO) build`: words whose variables resolve are read resolved.
    let words: Vec<String> = shell_words(cmd)
        .into_iter()
        .map(|w| match w.contains('$') {
            true => substitute(&w, vars).unwrap_or(w),
            false => w,
        })
        .collect();
    let Some(go) = words
        .windows(2)
        .position(|w| (w[0] == "go" || w[0].ends_with("/go")) && w[1] == "build")
    else {
        return;
    };
    let diag = |facts: &mut BuildFacts, what: &str| {
        facts.diagnostics.push(Diagnostic::new(
            path,
            line,
            format!("cannot read the binary this `go build` makes: {what}; the binary keeps its folder name"),
        ));
    };
    let mut output = None;
    let mut packages = Vec::new();
    let mut i = go + 2;
    while i < words.len() {
        let w = &words[i];
        if w == "-C" || w.starts_with("-C=") {
            diag(facts, "`-C` changes the folder the package is read from");
            return;
        }
        if w == "-o" {
            output = words.get(i + 1).cloned();
            i += 2;
            continue;
        }
        if let Some(o) = w.strip_prefix("-o=") {
            output = Some(o.to_string());
        } else if VALUE_FLAGS.contains(&w.as_str()) {
            i += 1;
        } else if !w.starts_with('-') {
            packages.push(w.clone());
        }
        i += 1;
    }
    // Without `-o`, `go build` names the binary after the package: the folder name
    // portolan already uses. Only a Dockerfile lists it (which file builds which binary).
    let unnamed = output.is_none();
    if unnamed && kind != BuildKind::Dockerfile {
        return;
    }
    let output = output.unwrap_or_default();
    let package = match packages.as_slice() {
        [] => ".".to_string(),
        [one] => one.clone(),
        _ => {
            diag(facts, "it builds more than one package");
            return;
        }
    };
    let resolved = |s: &str| substitute(s, vars);
    if unnamed {
        if let Some(package) = resolved(&package)
            && !package.contains("...")
            && let Some(dir) = package_dir(base, &package).or_else(|| import_path(&package))
        {
            facts.unnamed.push(BuildName {
                name: dir.rsplit('/').next().unwrap_or(&dir).to_string(),
                dir,
                kind,
                source: SourceRef::new(path, line),
            });
        }
        return;
    }
    let name = output.rsplit('/').next().unwrap_or(&output);
    let Some(name) = resolved(name) else {
        diag(
            facts,
            &format!("`{output}` uses a variable portolan cannot resolve"),
        );
        return;
    };
    let Some(package) = resolved(&package) else {
        diag(
            facts,
            &format!("`{package}` uses a variable portolan cannot resolve"),
        );
        return;
    };
    let name = name.rsplit('/').next().unwrap_or(&name).to_string();
    if name.is_empty() || package.contains("...") {
        return;
    }
    let Some(dir) = package_dir(base, &package).or_else(|| import_path(&package)) else {
        diag(
            facts,
            &format!("`{package}` is not a path inside the repository"),
        );
        return;
    };
    facts.names.push(BuildName {
        name,
        dir,
        kind,
        source: SourceRef::new(path, line),
    });
}

/// A package argument as a repository-relative folder: `./cmd/main.go` → `cmd`; None for
/// an import path or a path that leaves the repository.
fn package_dir(base: &str, package: &str) -> Option<String> {
    // `go build` reads `cmd/main.go` as a file, `cmd/x` without `./` as an import path.
    let relative = package == "."
        || package.starts_with("./")
        || package.starts_with("../")
        || (package.ends_with(".go") && !package.starts_with('/'));
    if !relative {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for seg in package.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    if parts.last().is_some_and(|l| l.ends_with(".go")) {
        parts.pop();
    }
    Some(parts.join("/"))
}

/// An import path argument (`example.com/app/cmd/x`): a first element with a dot.
fn import_path(package: &str) -> Option<String> {
    let first = package.split('/').next()?;
    (first.contains('.') && package.contains('/') && !package.contains(['$', ' ']))
        .then(|| package.to_string())
}

/// `.goreleaser.yaml`: each item of the top-level `builds:` list, its `binary:` and
/// `main:` (default `.`).
fn goreleaser(path: &str, dir: &str, text: &str, facts: &mut BuildFacts) {
    struct Item {
        binary: Option<(u32, String)>,
        main: Option<String>,
    }
    let mut items: Vec<Item> = Vec::new();
    let mut in_builds = false;
    let mut item_indent: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = raw.len() - trimmed.len();
        if indent == 0 {
            in_builds = trimmed.trim_end() == "builds:";
            item_indent = None;
            continue;
        }
        if !in_builds {
            continue;
        }
        let mut rest = trimmed;
        if let Some(r) = trimmed.strip_prefix("- ")
            && item_indent.is_none_or(|ii| ii == indent)
        {
            item_indent = Some(indent);
            items.push(Item {
                binary: None,
                main: None,
            });
            rest = r.trim_start();
        }
        let Some(item) = items.last_mut() else {
            continue;
        };
        // Keys of the item itself: right after `- `, or indented two past the dash.
        let key_indent = item_indent.map(|ii| ii + 2);
        let own = rest.as_ptr() != trimmed.as_ptr() || Some(indent) == key_indent;
        if !own {
            continue;
        }
        let Some((key, value)) = rest.split_once(':') else {
            continue;
        };
        let value = value
            .split(" #")
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['"', '\''])
            .to_string();
        match key.trim() {
            "binary" => item.binary = Some((line, value)),
            "main" => item.main = Some(value),
            _ => {}
        }
    }
    for item in items {
        let Some((line, binary)) = item.binary else {
            continue;
        };
        if binary.contains("{{") {
            facts.diagnostics.push(Diagnostic::new(
                path,
                line,
                format!("cannot read the binary this build makes: `{binary}` is a template; the binary keeps its folder name"),
            ));
            continue;
        }
        let main = item.main.unwrap_or_else(|| ".".to_string());
        let main = if main.starts_with("./") || main == "." {
            main
        } else {
            format!("./{main}")
        };
        let Some(dir) = package_dir(dir, &main) else {
            continue;
        };
        let name = binary.rsplit('/').next().unwrap_or(&binary).to_string();
        if name.is_empty() {
            continue;
        }
        facts.names.push(BuildName {
            name,
            dir,
            kind: BuildKind::GoReleaser,
            source: SourceRef::new(path, line),
        });
    }
}

/// Whether a build names a Go program: the folder of its `main` file, or its package's
/// import path.
pub fn builds(b: &Binary, n: &BuildName) -> bool {
    if b.is_package() {
        return false;
    }
    let Some(main) = b.sources.first().filter(|m| m.file.ends_with(".go")) else {
        return false;
    };
    let dir = main.file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    n.dir == dir || n.dir == b.package
}

/// Each Dockerfile with the `go build` commands of its `RUN` lines and the project binary
/// each builds (matched as `name_binaries` matches them; run after it, so names are final).
pub fn dockerfile_builds(
    dockerfiles: &mut [model::Dockerfile],
    names: &[BuildName],
    binaries: &[Binary],
) {
    for d in dockerfiles {
        let mut builds: Vec<model::DockerBuild> = names
            .iter()
            .filter(|n| n.kind == BuildKind::Dockerfile && n.source.file == d.file)
            .map(|n| model::DockerBuild {
                output: n.name.clone(),
                package: n.dir.clone(),
                binary: binaries
                    .iter()
                    .find(|b| builds(b, n))
                    .map(|b| b.name.clone())
                    .unwrap_or_default(),
                source: n.source.clone(),
            })
            .collect();
        builds.sort_by(|a, b| (a.source.line, &a.output).cmp(&(b.source.line, &b.output)));
        builds.dedup();
        d.builds = builds;
    }
}

/// Renames Go programs after the binary their build files make, recording where the name
/// comes from. Build files outrank a name already taken from code (cobra `Use`), which
/// outranks the folder name. Two build files naming one package differently: the first
/// by kind (goreleaser, Dockerfile, Makefile) then path wins, with a diagnostic.
pub fn name_binaries(
    binaries: &mut [Binary],
    names: &[BuildName],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut ordered: Vec<&BuildName> = names.iter().collect();
    ordered.sort_by(|a, b| {
        (rank(a.kind), &a.source.file, a.source.line).cmp(&(
            rank(b.kind),
            &b.source.file,
            b.source.line,
        ))
    });
    for b in binaries.iter_mut() {
        if b.is_package() {
            continue;
        }
        let Some(main) = b.sources.first() else {
            continue;
        };
        if !main.file.ends_with(".go") {
            continue;
        }
        let dir = main.file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let found: Vec<&&BuildName> = ordered.iter().filter(|n| builds(b, n)).collect();
        let Some(first) = found.first() else {
            continue;
        };
        for other in found.iter().skip(1) {
            if other.name != first.name {
                diagnostics.push(Diagnostic::new(
                    &other.source.file,
                    other.source.line,
                    format!(
                        "this build names the binary of `{dir}` `{}`, but {}:{} names it `{}`; the page uses `{}`",
                        other.name, first.source.file, first.source.line, first.name, first.name
                    ),
                ));
            }
        }
        b.name = first.name.clone();
        b.name_from = vec![first.source.clone()];
    }
}

#[cfg(test)]
mod tests;
