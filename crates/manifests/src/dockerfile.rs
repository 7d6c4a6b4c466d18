//! A Dockerfile's stages and build settings: each `FROM` (base image as written and with
//! global `ARG` defaults substituted, `AS` name, a base that is an earlier stage), each
//! stage's last `USER`, who the final stage runs as (followed through the stages it is
//! built from), `CGO_ENABLED` and FIPS-style settings (`GOEXPERIMENT` naming a crypto
//! backend, `GOFIPS140`, `GODEBUG=fips140=…`, build tags with `fips` or
//! `goexperiment.…`), wherever they are set: `ENV`, `ARG` defaults, or a `RUN` command's
//! words. Nothing is executed; a variable without a default stays as written.
//!
//! The `go build` commands are read by `build` (the same reader that names binaries) and
//! joined to the file by `analyze::assemble`.

use std::collections::HashMap;

use super::shell::{Expansion, expand, logical_lines, shell_words, substitute};
use model::{BuildSetting, Diagnostic, DockerStage, DockerUser, Dockerfile, RunsAs, SourceRef};

/// Most stages read from one file (a Dockerfile has a handful).
const MAX_STAGES: usize = 256;

/// `GOEXPERIMENT` values that select a FIPS-capable crypto backend.
const CRYPTO_EXPERIMENTS: &[&str] = &[
    "boringcrypto",
    "systemcrypto",
    "opensslcrypto",
    "cngcrypto",
    "strictfipsruntime",
];

pub fn analyze(path: &str, text: &str, diagnostics: &mut Vec<Diagnostic>) -> Dockerfile {
    let mut stages: Vec<DockerStage> = Vec::new();
    let mut cgo = Vec::new();
    let mut fips = Vec::new();
    // ARGs before the first FROM: the only ones a FROM line can use.
    let mut global: HashMap<String, String> = HashMap::new();
    // Variables of the current stage (global ARGs a stage redeclares, its own ARG/ENV).
    let mut vars: HashMap<String, String> = HashMap::new();
    for (line, l) in logical_lines(text) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (instr, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let rest = rest.trim();
        let source = SourceRef::new(path, line);
        match instr.to_ascii_uppercase().as_str() {
            "FROM" => {
                if stages.len() >= MAX_STAGES {
                    break;
                }
                vars.clear();
                stages.push(stage(rest, &global, &stages, source, diagnostics));
            }
            "ARG" | "ENV" => {
                let pairs = assignments(rest, instr.eq_ignore_ascii_case("ENV"));
                for (name, value) in pairs {
                    let in_stage = !stages.is_empty();
                    let value = match value {
                        Some(v) => {
                            let scope = if in_stage { &vars } else { &global };
                            let expanded = expand(&v, scope);
                            if let Some(why) = expanded.limit() {
                                diagnostics.push(Diagnostic::new(
                                    path,
                                    line,
                                    format!("the value of `{name}` {why}: it is kept as written"),
                                ));
                            }
                            match expanded {
                                Expansion::Text(t) => t,
                                _ => v,
                            }
                        }
                        // `ARG NAME` in a stage takes the global default.
                        None => match global.get(&name) {
                            Some(v) if in_stage => v.clone(),
                            _ => continue,
                        },
                    };
                    setting(&name, &value, &source, &mut cgo, &mut fips);
                    if in_stage {
                        vars.insert(name, value);
                    } else {
                        global.insert(name, value);
                    }
                }
            }
            "USER" => {
                if let Some(s) = stages.last_mut() {
                    s.user = Some(BuildSetting {
                        value: rest.to_string(),
                        source,
                    });
                }
            }
            "RUN" => run(rest, &vars, &source, &mut cgo, &mut fips),
            _ => {}
        }
    }
    let user = final_user(&stages, &global);
    // A `RUN` with branches sets the same thing on one logical line more than once.
    cgo.dedup();
    fips.dedup();
    Dockerfile {
        file: path.to_string(),
        stages,
        user,
        cgo,
        fips,
        builds: Vec::new(),
        area: Default::default(),
    }
}

/// `FROM [--platform=P] IMAGE [AS NAME]`.
fn stage(
    rest: &str,
    global: &HashMap<String, String>,
    earlier: &[DockerStage],
    source: SourceRef,
    diagnostics: &mut Vec<Diagnostic>,
) -> DockerStage {
    let mut platform = String::new();
    let mut words = Vec::new();
    for w in rest.split_whitespace() {
        match w.strip_prefix("--platform=") {
            Some(p) => platform = p.to_string(),
            None if w.starts_with("--") => {}
            None => words.push(w),
        }
    }
    let from = words.first().copied().unwrap_or_default().to_string();
    let name = match words.as_slice() {
        [_, r#as, name, ..] if r#as.eq_ignore_ascii_case("as") => name.to_string(),
        _ => String::new(),
    };
    let resolved = if from.contains('$') {
        let expanded = expand(&from, global);
        let why = match expanded {
            Expansion::Text(r) => Ok(r),
            ref e => Err(e.limit().unwrap_or_else(|| {
                "uses a variable with no default in an `ARG` before the first `FROM`".to_string()
            })),
        };
        why.unwrap_or_else(|why| {
            diagnostics.push(Diagnostic::new(
                &source.file,
                source.line,
                format!("the base image `{from}` {why}: it is shown as written"),
            ));
            String::new()
        })
    } else {
        String::new()
    };
    let base = if resolved.is_empty() {
        &from
    } else {
        &resolved
    };
    let from_stage = earlier
        .iter()
        .rev()
        .find(|s| !s.name.is_empty() && s.name.eq_ignore_ascii_case(base))
        .map(|s| s.name.clone())
        .unwrap_or_default();
    DockerStage {
        name,
        from,
        resolved,
        from_stage,
        platform,
        user: None,
        source,
    }
}

/// `NAME=value …` pairs of `ARG`/`ENV`; `ENV NAME value` (the legacy form); `ARG NAME`
/// without a default gives `(NAME, None)`.
fn assignments(rest: &str, env: bool) -> Vec<(String, Option<String>)> {
    let words = shell_words(rest);
    let valid = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if env && words.first().is_some_and(|w| !w.contains('=')) {
        let value = words[1..].join(" ");
        return match words.first() {
            Some(n) if valid(n) => vec![(n.clone(), Some(value))],
            _ => Vec::new(),
        };
    }
    words
        .iter()
        .filter_map(|w| match w.split_once('=') {
            Some((n, v)) if valid(n) => Some((n.to_string(), Some(v.to_string()))),
            None if valid(w) && !env => Some((w.clone(), None)),
            _ => None,
        })
        .collect()
}

/// Records `CGO_ENABLED` and FIPS-style variables.
fn setting(
    name: &str,
    value: &str,
    source: &SourceRef,
    cgo: &mut Vec<BuildSetting>,
    fips: &mut Vec<BuildSetting>,
) {
    let record = |list: &mut Vec<BuildSetting>| {
        list.push(BuildSetting {
            value: format!("{name}={value}"),
            source: source.clone(),
        })
    };
    match name {
        "CGO_ENABLED" => record(cgo),
        "GOEXPERIMENT"
            if value
                .split(',')
                .any(|e| CRYPTO_EXPERIMENTS.contains(&e.trim())) =>
        {
            record(fips)
        }
        "GOFIPS140" => record(fips),
        "GODEBUG" if value.contains("fips140") => record(fips),
        _ => {}
    }
}

/// A `RUN` command's `NAME=value` prefixes and `export`s, and `go` build tags.
fn run(
    body: &str,
    vars: &HashMap<String, String>,
    source: &SourceRef,
    cgo: &mut Vec<BuildSetting>,
    fips: &mut Vec<BuildSetting>,
) {
    for cmd in body.split(['&', '|', ';']) {
        let words = shell_words(cmd);
        let mut i = 0;
        while i < words.len() {
            let w = &words[i];
            let w = w.as_str();
            if let Some((name, value)) = w.split_once('=')
                && !name.starts_with('-')
            {
                let value = substitute(value, vars).unwrap_or_else(|| value.to_string());
                setting(name, &value, source, cgo, fips);
            }
            let tags = match w {
                "-tags" => words.get(i + 1).map(String::as_str),
                _ => w.strip_prefix("-tags="),
            };
            if let Some(tags) = tags {
                let tags = substitute(tags, vars).unwrap_or_else(|| tags.to_string());
                let fipsy = tags
                    .split([',', ' '])
                    .any(|t| t.contains("fips") || t.starts_with("goexperiment."));
                if fipsy {
                    fips.push(BuildSetting {
                        value: format!("-tags {tags}"),
                        source: source.clone(),
                    });
                }
            }
            i += 1;
        }
    }
}

/// Who the final stage runs as: its last `USER`, else that of the stage it is built from,
/// and so on; else the base image's user, which the Dockerfile does not show.
fn final_user(stages: &[DockerStage], global: &HashMap<String, String>) -> DockerUser {
    let Some(mut stage) = stages.last() else {
        return DockerUser {
            runs_as: RunsAs::Unknown,
            evidence: "no FROM".into(),
            source: None,
        };
    };
    for _ in 0..stages.len() {
        if let Some(u) = &stage.user {
            let value = if u.value.contains('$') {
                substitute(&u.value, global)
            } else {
                Some(u.value.clone())
            };
            let via = if std::ptr::eq(stage, stages.last().unwrap_or(stage)) {
                String::new()
            } else {
                format!(
                    " (in stage `{}`, which the final stage is built from)",
                    stage.name
                )
            };
            let runs_as = match value.as_deref() {
                None => RunsAs::Unknown,
                Some(v) => match v.split(':').next().unwrap_or(v).trim() {
                    "0" | "root" => RunsAs::Root,
                    "" => RunsAs::Unknown,
                    _ => RunsAs::NonRoot,
                },
            };
            return DockerUser {
                runs_as,
                evidence: format!("USER {}{via}", u.value),
                source: Some(u.source.clone()),
            };
        }
        match stages
            .iter()
            .position(|s| !stage.from_stage.is_empty() && s.name == stage.from_stage)
        {
            Some(i) if !std::ptr::eq(&stages[i], stage) => stage = &stages[i],
            _ => break,
        }
    }
    let base = if stage.resolved.is_empty() {
        &stage.from
    } else {
        &stage.resolved
    };
    if base == "scratch" {
        return DockerUser {
            runs_as: RunsAs::Root,
            evidence: "no USER, base `scratch`: an image without a user runs as uid 0".into(),
            source: Some(stage.source.clone()),
        };
    }
    let tag = base
        .rsplit('/')
        .next()
        .and_then(|last| last.split_once(':'))
        .map(|(_, t)| t);
    let note = match tag {
        Some(t) if t.contains("nonroot") => format!(" (its tag `{t}` names a non-root variant)"),
        _ => String::new(),
    };
    DockerUser {
        runs_as: RunsAs::NotSet,
        evidence: format!("no USER: runs as the user of base `{base}`{note}"),
        source: Some(stage.source.clone()),
    }
}

#[cfg(test)]
mod tests;
