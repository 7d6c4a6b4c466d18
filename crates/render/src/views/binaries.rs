//! The project overview's "Binaries" and "Metrics" sections.

use serde::Serialize;

use super::super::table::Anchors;
use super::{Link, Row};
use model::{Project, SourceRef};

#[derive(Serialize)]
pub struct BinaryView {
    pub anchor: String,
    /// The binary's name, or the library package's import path.
    pub title: String,
    pub package: String,
    /// True for a library package's flags and environment reads.
    pub is_package: bool,
    pub sources: Vec<Link>,
    /// Where the name comes from when it is not the folder's (a build file, cobra `Use`).
    pub name_from: Vec<Link>,
    pub flags: Vec<Row>,
    /// Flags a library registers for the program (klog, zap, controller-runtime).
    pub library_flags: Vec<Row>,
    /// cobra commands: path, description, the flags registered on each.
    pub commands: Vec<Row>,
    pub env: Vec<Row>,
}

/// Component binaries and metrics, and those of tests, docs, samples and tooling.
pub(super) struct BinariesAndMetrics {
    pub binaries: Vec<BinaryView>,
    pub sample_binaries: Vec<BinaryView>,
    pub metrics: Vec<Row>,
    pub sample_metrics: Vec<Row>,
}

/// The binaries and metrics of the project overview, component ones first, with anchors
/// `binary-NAME`, `flag-NAME-FLAG`, `env-NAME-VAR` and `metric-NAME`.
///
/// Environment rows are anchored per binary (not `env-VAR` alone) because two binaries
/// that read one variable both list it on the same page.
pub(super) fn binaries_and_metrics(p: &Project) -> BinariesAndMetrics {
    let mut anchors = Anchors::new();
    // A binary is named in anchors by its name, or by its package when names repeat.
    let mut names: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for b in &p.findings.binaries {
        *names.entry(b.name.as_str()).or_insert(0) += 1;
    }
    let (mut binaries, mut sample_binaries) = (Vec::new(), Vec::new());
    for b in &p.findings.binaries {
        let id = if b.is_package() || names.get(b.name.as_str()).copied().unwrap_or(0) > 1 {
            b.package.as_str()
        } else {
            b.name.as_str()
        };
        let view = binary_view(p, b, id, &mut anchors);
        if b.area.is_component() {
            binaries.push(view);
        } else {
            sample_binaries.push(view);
        }
    }
    // Programs before library packages, keeping the model's order within each.
    binaries.sort_by_key(|b| b.is_package);
    sample_binaries.sort_by_key(|b| b.is_package);
    let (metrics, sample_metrics) = metric_rows(p, &mut anchors);
    BinariesAndMetrics {
        binaries,
        sample_binaries,
        metrics,
        sample_metrics,
    }
}

/// One binary (or library package) anchored by `id`: its flags, commands and environment.
fn binary_view(p: &Project, b: &model::Binary, id: &str, anchors: &mut Anchors) -> BinaryView {
    let links = |sources: &[SourceRef]| super::super::table::source_links(p, sources);
    let mut flag_row = |f: &model::Flag| Row {
        anchor: anchors.unique(&["flag", id, &f.name]),
        cells: flag_cells(f),
        sources: links(&f.sources),
    };
    let flags: Vec<Row> = b
        .flags
        .iter()
        .filter(|f| f.library.is_empty())
        .map(&mut flag_row)
        .collect();
    let library_flags: Vec<Row> = b
        .flags
        .iter()
        .filter(|f| !f.library.is_empty())
        .map(&mut flag_row)
        .collect();
    let commands = b
        .commands
        .iter()
        .map(|c| Row {
            anchor: anchors.unique(&["command", id, &c.path]),
            cells: vec![
                c.path.clone(),
                c.short.clone(),
                c.flags
                    .iter()
                    .map(|f| format!("--{f}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ],
            sources: links(&c.sources),
        })
        .collect();
    let env = b
        .env
        .iter()
        .map(|e| Row {
            anchor: anchors.unique(&["env", id, &e.name]),
            cells: vec![e.name.clone()],
            sources: links(&e.sources),
        })
        .collect();
    BinaryView {
        anchor: anchors.unique(&[if b.is_package() { "package" } else { "binary" }, id]),
        title: if b.is_package() {
            b.package.clone()
        } else {
            b.name.clone()
        },
        package: b.package.clone(),
        is_package: b.is_package(),
        sources: links(&b.sources),
        name_from: links(&b.name_from),
        flags,
        library_flags,
        commands,
        env,
    }
}

/// A flag's cells: names, type, default, help, and its library's name first if it has one.
fn flag_cells(f: &model::Flag) -> Vec<String> {
    let mut name = format!("--{}", f.name);
    if !f.shorthand.is_empty() {
        name.push_str(&format!(", -{}", f.shorthand));
    }
    let default = if f.default_expr {
        format!("{} (Go expression)", f.default)
    } else if f.default_env {
        format!("{} (environment variable)", f.default)
    } else if f.kind == "string" {
        format!("{:?}", f.default)
    } else {
        f.default.clone()
    };
    let mut cells = vec![
        name,
        f.kind.clone(),
        default,
        help_text(&f.help, f.help_expr),
    ];
    if !f.library.is_empty() {
        cells.insert(0, f.library.clone());
    }
    cells
}

/// The project's metrics: component ones, then those of samples.
fn metric_rows(p: &Project, anchors: &mut Anchors) -> (Vec<Row>, Vec<Row>) {
    let links = |sources: &[SourceRef]| super::super::table::source_links(p, sources);
    let (mut metrics, mut sample_metrics) = (Vec::new(), Vec::new());
    for m in &p.findings.metrics {
        let row = Row {
            anchor: anchors.unique(&["metric", &m.name]),
            cells: vec![
                m.name.clone(),
                if m.api == "opentelemetry" {
                    format!("{} (OpenTelemetry)", m.kind)
                } else {
                    m.kind.clone()
                },
                help_text(&m.help, m.help_expr),
                m.labels.join(", "),
            ],
            sources: links(&m.sources),
        };
        if m.area.is_component() {
            metrics.push(row);
        } else {
            sample_metrics.push(row);
        }
    }
    (metrics, sample_metrics)
}

fn help_text(help: &str, expr: bool) -> String {
    if expr {
        format!("{help} (Go expression)")
    } else {
        help.to_string()
    }
}
