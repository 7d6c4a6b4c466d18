//! `projects.toml`: parsed and validated into a typed [`Config`].
//!
//! Stage: leaf (config). Every problem in the user's file becomes a [`ConfigError`] naming
//! file, line and column and saying what to write instead; nothing here touches the network
//! or the repositories.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use files::real_path::real_path;
use kubernetes::KubeVersion;
mod git_source;
pub use git_source::SCHEMES as GIT_SCHEMES;
pub use git_source::rev_problem as git_rev_problem;
pub use git_source::url_problem as git_url_problem;

/// A validated projects.toml. Relative paths are already resolved against its folder.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    pub site: Site,
    pub projects: Vec<ProjectConfig>,
    /// Extra Go import path → `group/version` mappings.
    pub groups: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
pub struct Site {
    pub title: String,
    pub base_url: String,
    /// The path part of `base_url`, always starting and ending with `/`.
    pub base_path: String,
    pub output: PathBuf,
    pub content: PathBuf,
    pub theme: String,
    pub cache_dir: PathBuf,
    pub mermaid_js: bool,
    /// The Kubernetes minor version the platform runs or moves to (`1.33`): the API versions
    /// the projects use are checked against it (see `deprecations`).
    pub target_kubernetes: Option<KubeVersion>,
}

#[derive(Debug, Clone)]
pub struct ProjectConfig {
    pub name: String,
    pub title: String,
    pub description: String,
    pub source: SourceSpec,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub docs: Vec<String>,
    pub source_url: Option<String>,
    /// Earlier revisions to compare the pinned one with (`compare = ["v0.18.1"]`): each
    /// gets a changes page.
    pub compare: Vec<String>,
    /// Unresolved kinds `check` accepts: `FILE` (any in that file) or `FILE:LINE`.
    pub accept_unresolved: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SourceSpec {
    Git {
        url: String,
        rev: Option<String>,
    },
    Path(PathBuf),
    /// A model written earlier by `portolan analyze PATH --out P.json`.
    Model(PathBuf),
}

/// A problem in projects.toml, located in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub help: Option<String>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)?;
        } else {
            let (file, line, column) = (self.file.display(), self.line, self.column);
            write!(f, "{file}:{line}:{column}: {}", self.message)?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    site: RawSite,
    #[serde(default, rename = "project")]
    projects: Vec<Spanned<RawProject>>,
    #[serde(default)]
    groups: BTreeMap<String, Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSite {
    title: Option<Spanned<String>>,
    base_url: Option<Spanned<String>>,
    output: Option<String>,
    content: Option<Spanned<String>>,
    theme: Option<Spanned<String>>,
    cache_dir: Option<String>,
    #[serde(default)]
    mermaid_js: bool,
    target_kubernetes: Option<Spanned<String>>,
    /// Keys (`content`, `theme`) whose folder may lie outside the folder of projects.toml.
    #[serde(default)]
    allow_outside: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProject {
    name: Spanned<String>,
    title: Option<Spanned<String>>,
    description: Option<Spanned<String>>,
    git: Option<Spanned<String>>,
    path: Option<Spanned<String>>,
    model: Option<Spanned<String>>,
    rev: Option<Spanned<String>>,
    #[serde(default)]
    include: Vec<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    #[serde(default)]
    docs: Vec<Spanned<String>>,
    source_url: Option<Spanned<String>>,
    #[serde(default)]
    compare: Vec<Spanned<String>>,
    #[serde(default)]
    accept_unresolved: Vec<Spanned<String>>,
}

/// The largest projects.toml read: a thousand projects take about 400 KiB.
pub const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;
/// Titles are on every page and in every tab; descriptions on cards and overviews.
const MAX_TITLE_CHARS: usize = 200;
const MAX_DESCRIPTION_CHARS: usize = 2000;

/// Reads and validates a projects.toml file (a regular file of at most `MAX_CONFIG_BYTES`).
pub fn load(file: &Path) -> Result<Config, ConfigError> {
    let fail = |message: String| ConfigError {
        file: file.to_path_buf(),
        line: 0,
        column: 0,
        message,
        help: Some("pass an existing projects file with --config".into()),
    };
    let bytes = files::regular::read(file, MAX_CONFIG_BYTES)
        .map_err(|e| fail(format!("cannot read the configuration: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| fail(format!("the configuration is not UTF-8 text: {e}")))?;
    parse(file, &text)
}

/// A title or description, refused past `max` characters.
fn bounded_text(
    locate: &Locator,
    value: Option<Spanned<String>>,
    key: &str,
    max: usize,
) -> Result<Option<String>, ConfigError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    let text = value.into_inner();
    if text.chars().count() > max {
        return Err(locate.error(
            span,
            format!("`{key}` is longer than {max} characters"),
            Some(format!("shorten it: the {key} is shown on every page that names it; longer text belongs in the project's README or in content/")),
        ));
    }
    Ok(Some(text))
}

/// Validates configuration text; `file` names it in errors and anchors relative paths.
pub fn parse(file: &Path, text: &str) -> Result<Config, ConfigError> {
    let locate = Locator { file, text };
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim().to_string();
        let help = help_for_toml_error(&message);
        locate.error(span, message, help)
    })?;
    let root = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let root = if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    };

    let site = validate_site(&locate, &root, raw.site)?;
    if raw.projects.is_empty() {
        // Nothing to document: an empty portal would replace the site (and, in serve, the
        // pages being served) with nothing.
        return Err(ConfigError {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            message: "there is no [[project]]: the portal would be empty".into(),
            help: Some("add a project: a [[project]] table with a `name` and one of `git = \"https://…\"`, `path = \"../repo\"` or `model = \"P.json\"`".into()),
        });
    }
    let mut names = BTreeSet::new();
    let mut projects = Vec::new();
    for spanned in raw.projects {
        let table_span = spanned.span();
        let name_span = spanned.get_ref().name.span();
        let project = validate_project(&locate, &root, table_span, spanned.into_inner())?;
        if !names.insert(project.name.clone()) {
            return Err(locate.error(
                name_span,
                format!("duplicate project name `{}`", project.name),
                Some(
                    "each [[project]] needs its own `name`: it is the URL slug of its pages".into(),
                ),
            ));
        }
        projects.push(project);
    }
    let mut groups = BTreeMap::new();
    for (import_path, gv) in raw.groups {
        let span = gv.span();
        let gv = gv.into_inner();
        if gv.split('/').count() > 2 || gv.is_empty() || gv.ends_with('/') {
            return Err(locate.error(
                span,
                format!("`{gv}` is not a group/version"),
                Some("write it as \"example.io/v1\" (or \"v1\" for the core group)".into()),
            ));
        }
        groups.insert(import_path, gv);
    }
    Ok(Config {
        file: file.to_path_buf(),
        site,
        projects,
        groups,
    })
}

impl Site {
    /// The `[site]` an empty table gives, with paths under `root` (the config's folder).
    pub fn defaults(root: &Path) -> Site {
        Site {
            title: "Operator Atlas".into(),
            base_url: "/".into(),
            base_path: "/".into(),
            output: root.join("site"),
            content: root.join("content"),
            theme: "default".into(),
            cache_dir: root.join(".portolan"),
            mermaid_js: false,
            target_kubernetes: None,
        }
    }
}

/// The `[site]` keys whose folder is published and may be allowed outside the config's folder.
const OUTSIDE_KEYS: [&str; 2] = ["content", "theme"];

fn validate_site(locate: &Locator, root: &Path, raw: RawSite) -> Result<Site, ConfigError> {
    let defaults = Site::defaults(root);
    let mut allow_outside = BTreeSet::new();
    for key in raw.allow_outside {
        if !OUTSIDE_KEYS.contains(&key.get_ref().as_str()) {
            return Err(locate.error(
                key.span(),
                format!("`{}` cannot be allowed outside", key.get_ref()),
                Some("allow_outside lists the [site] keys whose folder may lie outside the folder of projects.toml: \"content\" and \"theme\"".into()),
            ));
        }
        allow_outside.insert(key.into_inner());
    }
    let inside = |key: &str, dir: &Path, span: Option<Range<usize>>| {
        if allow_outside.contains(key) {
            return Ok(());
        }
        inside_config_folder(locate, root, key, dir, span)
    };
    let (base_url, base_path) = match raw.base_url {
        None => (defaults.base_url, defaults.base_path),
        Some(spanned) => {
            let span = spanned.span();
            let url = spanned.into_inner();
            match base_path_of(&url) {
                Ok(path) => (url, path),
                Err(why) => {
                    return Err(locate.error(
                        span,
                        format!("`{url}` is not a usable base_url: it has {why}"),
                        Some("write an absolute URL such as \"https://example.github.io/atlas/\" or a path such as \"/atlas/\"".into()),
                    ));
                }
            }
        }
    };
    // The default folder too is checked: it may be a link to somewhere else.
    let (content, content_span) = match raw.content {
        None => (defaults.content, None),
        Some(content) => (root.join(content.get_ref()), Some(content.span())),
    };
    inside("content", &content, content_span)?;
    let (theme, theme_span) = match raw.theme {
        None => (defaults.theme, None),
        Some(theme) => {
            let span = theme.span();
            let name = theme.into_inner();
            if name.is_empty()
                || name.starts_with('.')
                || name.contains(['/', '\\'])
                || name.contains(char::is_control)
            {
                return Err(locate.error(
                    span,
                    format!("theme `{name}` is not a folder name"),
                    Some("name a folder under themes/ next to projects.toml, e.g. theme = \"dark\" for themes/dark".into()),
                ));
            }
            let dir = root.join("themes").join(&name);
            if name != "default" && !dir.is_dir() {
                return Err(locate.error(
                    span,
                    format!("theme `{name}` not found: there is no folder {}", dir.display()),
                    Some("use theme = \"default\" (built in), or create that folder with the templates and assets to override".into()),
                ));
            }
            (name, Some(span))
        }
    };
    // themes/NAME (the default's too) may be a link to somewhere else.
    inside("theme", &root.join("themes").join(&theme), theme_span)?;
    let target_kubernetes = match raw.target_kubernetes {
        None => None,
        Some(v) => {
            let span = v.span();
            match KubeVersion::parse(v.get_ref()) {
                Some(version) if version.major == 1 => Some(version),
                _ => {
                    return Err(locate.error(
                        span,
                        format!("`{}` is not a Kubernetes version", v.get_ref().escape_debug()),
                        Some("write the minor version the clusters run or move to, e.g. target_kubernetes = \"1.33\"".into()),
                    ));
                }
            }
        }
    };
    Ok(Site {
        title: bounded_text(locate, raw.title, "title", MAX_TITLE_CHARS)?.unwrap_or(defaults.title),
        base_url,
        base_path,
        output: raw.output.map_or(defaults.output, |o| root.join(o)),
        content,
        theme,
        cache_dir: raw.cache_dir.map_or(defaults.cache_dir, |c| root.join(c)),
        mermaid_js: raw.mermaid_js,
        target_kubernetes,
    })
}

/// Refuses a published folder (`key`: content or theme) outside the folder of
/// projects.toml, compared as real paths: everything in it becomes part of the site, so
/// `content = "/etc"` would publish /etc.
fn inside_config_folder(
    locate: &Locator,
    root: &Path,
    key: &str,
    dir: &Path,
    span: Option<Range<usize>>,
) -> Result<(), ConfigError> {
    let real = |p: &Path| real_path(p).unwrap_or_else(|_| p.to_path_buf());
    let (real_root, real_dir) = (real(root), real(dir));
    if real_dir.starts_with(&real_root) {
        return Ok(());
    }
    let message = format!(
        "the {key} folder {} is outside the folder of projects.toml ({})",
        real_dir.display(),
        real_root.display()
    );
    let help = Some(format!(
        "everything in it is published with the site: move it next to projects.toml, or add allow_outside = [\"{key}\"] to [site] if publishing it is intended"
    ));
    Err(match span {
        Some(span) => locate.error(span, message, help),
        None => ConfigError {
            file: locate.file.to_path_buf(),
            line: 0,
            column: 0,
            message,
            help,
        },
    })
}

fn validate_project(
    locate: &Locator,
    root: &Path,
    table_span: Range<usize>,
    raw: RawProject,
) -> Result<ProjectConfig, ConfigError> {
    let name = project_name(locate, raw.name)?;
    let sources = (raw.git, raw.path, raw.model);
    let source = project_source(locate, root, table_span, &name, sources, raw.rev)?;
    let include = validate_globs(locate, raw.include)?;
    let exclude = validate_globs(locate, raw.exclude)?;
    let docs = validate_globs(locate, raw.docs)?;
    let source_url = source_url_template(locate, raw.source_url)?;
    let compare = compare_revisions(locate, &source, raw.compare)?;
    let accept_unresolved = accepted_unresolved(locate, raw.accept_unresolved)?;
    let title = bounded_text(locate, raw.title, "title", MAX_TITLE_CHARS)?;
    let description = bounded_text(
        locate,
        raw.description,
        "description",
        MAX_DESCRIPTION_CHARS,
    )?;
    Ok(ProjectConfig {
        title: title.unwrap_or_else(|| name.clone()),
        name,
        description: description.unwrap_or_default(),
        source,
        include,
        exclude,
        docs,
        source_url,
        compare,
        accept_unresolved,
    })
}

/// A project's name, which must be a URL slug.
fn project_name(locate: &Locator, name: Spanned<String>) -> Result<String, ConfigError> {
    let name_span = name.span();
    let name = name.into_inner();
    if name.is_empty()
        || !name.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_' || c == '.'
        })
        || name.starts_with('.')
    {
        return Err(locate.error(
            name_span,
            format!("project name `{name}` is not a URL slug"),
            Some("use lowercase letters, digits, `-`, `_` and `.`, e.g. name = \"kserve\"".into()),
        ));
    }
    Ok(name)
}

/// A project's `git`, `path` and `model` keys as written.
type SourceKeys = (
    Option<Spanned<String>>,
    Option<Spanned<String>>,
    Option<Spanned<String>>,
);

/// The one source of project `name` (`rev` only with `git`).
fn project_source(
    locate: &Locator,
    root: &Path,
    table_span: Range<usize>,
    name: &str,
    sources: SourceKeys,
    rev: Option<Spanned<String>>,
) -> Result<SourceSpec, ConfigError> {
    Ok(match sources {
        (Some(git), None, None) => git_source_spec(locate, git, rev)?,
        (None, Some(path), None) => {
            reject_rev(locate, &rev, "path")?;
            SourceSpec::Path(root.join(path.into_inner()))
        }
        (None, None, Some(model)) => {
            reject_rev(locate, &rev, "model")?;
            SourceSpec::Model(root.join(model.into_inner()))
        }
        (None, None, None) => {
            return Err(locate.error(
                table_span,
                format!("project `{name}` has no source"),
                Some("add `git = \"https://…\"` (with `rev`), `path = \"../repo\"` or `model = \"P.json\"`".into()),
            ));
        }
        (git, path, model) => {
            let second = [git, path, model]
                .into_iter()
                .flatten()
                .nth(1)
                .map(|s| s.span());
            return Err(locate.error(
                second.unwrap_or(table_span),
                format!("project `{name}` has more than one of `git`, `path` and `model`"),
                Some("keep exactly one source per project".into()),
            ));
        }
    })
}

/// A `git` source: a usable URL and, if given, a usable revision.
fn git_source_spec(
    locate: &Locator,
    git: Spanned<String>,
    rev: Option<Spanned<String>>,
) -> Result<SourceSpec, ConfigError> {
    let span = git.span();
    let url = git.into_inner();
    if let Some(why) = git_source::url_problem(&url) {
        return Err(locate.error(
            span,
            format!("`{}` is not a usable git URL: {why}", url.escape_debug()),
            Some("write an https://, ssh://, git://, file:// or user@host:path URL; no part of it may start with `-`".into()),
        ));
    }
    let rev = match rev {
        None => None,
        Some(rev) => {
            let span = rev.span();
            let rev = rev.into_inner();
            if let Some(why) = git_source::rev_problem(&rev) {
                return Err(locate.error(
                    span,
                    format!("`{}` is not a branch, tag or commit id: {why}", rev.escape_debug()),
                    Some("write a branch (\"main\"), a tag (\"v1.2.0\") or a commit id; the rules are git's for ref names (`git help check-ref-format`)".into()),
                ));
            }
            Some(rev)
        }
    };
    Ok(SourceSpec::Git { url, rev })
}

/// `source_url`: an http(s) link template with at least `{path}`.
fn source_url_template(
    locate: &Locator,
    source_url: Option<Spanned<String>>,
) -> Result<Option<String>, ConfigError> {
    Ok(match source_url {
        None => None,
        Some(s) => {
            let span = s.span();
            let url = s.into_inner();
            if !(url.starts_with("https://") || url.starts_with("http://"))
                || !url.contains("{path}")
            {
                return Err(locate.error(
                    span,
                    format!("`{url}` is not a source link template"),
                    Some("write e.g. \"https://git.example.com/org/repo/blob/{commit}/{path}#L{line}\"".into()),
                ));
            }
            Some(url)
        }
    })
}

/// `compare`: usable revisions, each once, for a source that has revisions.
fn compare_revisions(
    locate: &Locator,
    source: &SourceSpec,
    revs: Vec<Spanned<String>>,
) -> Result<Vec<String>, ConfigError> {
    let mut compare = Vec::new();
    for rev in revs {
        let span = rev.span();
        let rev = rev.into_inner();
        if matches!(source, SourceSpec::Model(_)) {
            return Err(locate.error(
                span,
                "`compare` needs a `git` or `path` source: a model has no other revisions".into(),
                Some("remove `compare`, or compare two models with `portolan diff --from-model OLD.json --to-model NEW.json`".into()),
            ));
        }
        if let Some(why) = git_source::rev_problem(&rev) {
            return Err(locate.error(
                span,
                format!(
                    "`{}` is not a branch, tag or commit id: {why}",
                    rev.escape_debug()
                ),
                Some(
                    "list earlier tags or commits to compare with, e.g. compare = [\"v0.18.1\"]"
                        .into(),
                ),
            ));
        }
        if compare.contains(&rev) {
            return Err(locate.error(
                span,
                format!("`{rev}` is listed twice in `compare`"),
                Some("list each revision once".into()),
            ));
        }
        compare.push(rev);
    }
    Ok(compare)
}

/// `accept_unresolved`: repository-relative source files, each with or without a line.
fn accepted_unresolved(
    locate: &Locator,
    entries: Vec<Spanned<String>>,
) -> Result<Vec<String>, ConfigError> {
    let mut accept_unresolved = Vec::new();
    for entry in entries {
        let span = entry.span();
        let entry = entry.into_inner();
        let (path, line) = match entry.rsplit_once(':') {
            Some((p, l)) if !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()) => (p, Some(l)),
            _ => (entry.as_str(), None),
        };
        let bad_path = path.is_empty()
            || path.starts_with('/')
            || path.contains('\\')
            || path
                .split('/')
                .any(|part| part.is_empty() || part == "." || part == "..")
            || path.contains(char::is_control);
        if bad_path || line == Some("0") {
            return Err(locate.error(
                span,
                format!("`{}` is not a source file or file:line", entry.escape_debug()),
                Some("write the repository-relative path `check` printed, with or without its line: accept_unresolved = [\"pkg/sync/watch.go:42\"]".into()),
            ));
        }
        accept_unresolved.push(entry);
    }
    Ok(accept_unresolved)
}

fn reject_rev(
    locate: &Locator,
    rev: &Option<Spanned<String>>,
    kind: &str,
) -> Result<(), ConfigError> {
    match rev {
        Some(rev) => Err(locate.error(
            rev.span(),
            format!("`rev` only applies to `git` sources, not to `{kind}`"),
            Some("remove `rev`, or use `git = …` to pin a revision".into()),
        )),
        None => Ok(()),
    }
}

fn validate_globs(
    locate: &Locator,
    globs: Vec<Spanned<String>>,
) -> Result<Vec<String>, ConfigError> {
    let mut out = Vec::new();
    for g in globs {
        let span = g.span();
        let pattern = g.into_inner();
        if let Err(e) = globset::Glob::new(&pattern) {
            return Err(locate.error(
                span,
                format!("bad glob `{pattern}`: {}", e.kind()),
                Some(
                    "globs are matched against repository-relative paths, e.g. \"install/**\" or \"docs/**/*.md\""
                        .into(),
                ),
            ));
        }
        out.push(pattern);
    }
    Ok(out)
}

/// The path prefix of a base URL (`https://h/atlas` → `/atlas/`), or what makes it
/// unusable. The prefix starts every link and script URL of the site, so it must stay on
/// the site's own origin: a `//host` or `/\host` prefix would load the theme's scripts
/// from another host, and `..` would climb out of the base path.
pub fn base_path_of(url: &str) -> Result<String, &'static str> {
    if url.contains('\\') {
        return Err("a backslash, which browsers read as `/`");
    }
    if url.contains(|c: char| c.is_whitespace() || c.is_control()) {
        return Err("a space or control character");
    }
    if url.contains(['?', '#', '"', '<', '>', '\'']) {
        return Err("`?`, `#`, a quote or an angle bracket");
    }
    let path = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    {
        let host_end = rest.find('/').unwrap_or(rest.len());
        if host_end == 0 {
            return Err("no host after the scheme");
        }
        &rest[host_end..]
    } else if url.starts_with('/') {
        url
    } else {
        return Err("neither an http(s):// scheme nor a leading `/`");
    };
    let inner = path.strip_prefix('/').unwrap_or(path);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    for segment in inner.split('/').filter(|_| !inner.is_empty()) {
        if segment.is_empty() {
            return Err(
                "an empty path segment (`//`), and a path starting with `//` names another host",
            );
        }
        // Browsers read `%2e` as `.` in a path segment.
        let decoded = segment.replace("%2e", ".").replace("%2E", ".");
        if decoded == "." || decoded == ".." {
            return Err("a `.` or `..` path segment");
        }
    }
    let mut path = path.to_string();
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    if !path.ends_with('/') {
        path.push('/');
    }
    Ok(path)
}

fn help_for_toml_error(message: &str) -> Option<String> {
    if message.starts_with("unknown field") {
        Some("remove or rename the key; the valid keys are listed above".into())
    } else if message.starts_with("invalid type") {
        Some("check the value's type: strings are quoted, lists use [ … ]".into())
    } else if message.starts_with("missing field") {
        Some("add the missing key to this table".into())
    } else {
        None
    }
}

/// Turns byte offsets into file:line:column errors.
struct Locator<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Locator<'_> {
    fn error(&self, span: Range<usize>, message: String, help: Option<String>) -> ConfigError {
        let (line, column) = line_column(self.text, span.start);
        ConfigError {
            file: self.file.to_path_buf(),
            line,
            column,
            message,
            help,
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests;
