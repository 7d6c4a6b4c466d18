//! Which analyzer reads a file, decided from its path alone: the walker selects files by
//! these rules and the analyzers dispatch on what it chose.

/// Which analyzer a file goes to, decided from its name by the walker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Go,
    /// A protoc-generated Go file (`*.pb.go`, `*.pb.gw.go`), read only for its gRPC
    /// service descriptors and grpc-gateway patterns.
    GoGenerated,
    /// The declaring file of an API package in a vendored module (`vendor/…/v1/register.go`,
    /// `groupversion_info.go`, `doc.go`): read only so the module's types resolve to their
    /// API group. Selected by the walker, never by name alone.
    GoVendoredApi,
    GoMod,
    Yaml,
    /// A Helm chart's `values.schema.json` (the only JSON files analyzed).
    ValuesSchema,
    Rust,
    /// A `Cargo.toml`, read for the crate's package name and dependencies.
    CargoToml,
    /// A protocol buffer file, read for its gRPC services and HTTP rules.
    Proto,
    /// A `.tpl` file under a chart's `templates/` (`_helpers.tpl`): its named templates.
    HelmHelpers,
    /// A Dockerfile, Makefile or `.goreleaser.yaml`, read for the binaries it builds.
    Build,
}

impl FileKind {
    /// The analyzer for a repository-relative path, if any.
    pub fn of(path: &str) -> Option<FileKind> {
        let name = path.rsplit('/').next().unwrap_or(path);
        if BuildKind::of(name).is_some() {
            Some(FileKind::Build)
        } else if name == "go.mod" {
            Some(FileKind::GoMod)
        } else if name.ends_with(".pb.go") || name.ends_with(".pb.gw.go") {
            Some(FileKind::GoGenerated)
        } else if name.ends_with(".go") {
            Some(FileKind::Go)
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            Some(FileKind::Yaml)
        } else if name == "values.schema.json" {
            Some(FileKind::ValuesSchema)
        } else if name.ends_with(".rs") {
            Some(FileKind::Rust)
        } else if name == "Cargo.toml" {
            Some(FileKind::CargoToml)
        } else if name.ends_with(".proto") {
            Some(FileKind::Proto)
        } else if name.ends_with(".tpl") && chart_root(path).is_some() {
            Some(FileKind::HelmHelpers)
        } else {
            None
        }
    }
}

/// Which kind of build file, decided from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildKind {
    Dockerfile,
    Makefile,
    GoReleaser,
}

impl BuildKind {
    pub fn of(name: &str) -> Option<BuildKind> {
        if name == "Dockerfile" || name.ends_with(".Dockerfile") || name.starts_with("Dockerfile.")
        {
            Some(BuildKind::Dockerfile)
        } else if name == "Makefile" || name == "GNUmakefile" || name.ends_with(".mk") {
            Some(BuildKind::Makefile)
        } else if name == ".goreleaser.yml" || name == ".goreleaser.yaml" {
            Some(BuildKind::GoReleaser)
        } else {
            None
        }
    }
}

/// The chart a template belongs to: its path up to `/templates/`.
pub fn chart_root(path: &str) -> Option<&str> {
    if let Some(at) = path.rfind("/templates/") {
        return Some(&path[..at]);
    }
    path.strip_prefix("templates/").map(|_| "")
}
