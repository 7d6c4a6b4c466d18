use super::*;
use model::{Area, ModuleFile, SourceRef};

fn dep(module: &str, version: &str, indirect: bool) -> Dependency {
    Dependency {
        version: version.into(),
        indirect,
        ..Dependency::new(Ecosystem::Go, module, SourceRef::new("go.mod", 3))
    }
}

fn project(name: &str, module: &str, deps: Vec<Dependency>) -> Project {
    Project {
        name: name.into(),
        findings: model::Findings {
            module_files: vec![ModuleFile {
                ecosystem: Ecosystem::Go,
                module: module.into(),
                go: "1.23".into(),
                toolchain: String::new(),
                replaces: Vec::new(),
                area: Area::Component,
                source: SourceRef::new("go.mod", 1),
            }],
            dependencies: deps,
            ..Default::default()
        },
        ..Project::default()
    }
}

#[test]
fn notable_first_and_the_matrix_flags_differences() {
    let a = project(
        "a",
        "example.com/a",
        vec![
            dep("sigs.k8s.io/controller-runtime", "v0.19.1", false),
            dep("example.com/b/api", "v1.0.0", false),
            dep("github.com/x/y", "v1", true),
        ],
    );
    let b = project(
        "b",
        "example.com/b",
        vec![
            dep("sigs.k8s.io/controller-runtime", "v0.20.0", false),
            dep("github.com/x/y", "v1", true),
        ],
    );
    let projects = vec![a, b];
    let view = project_view(&projects[0], &projects);
    let names = |rows: &[TableRow]| -> Vec<String> {
        rows.iter()
            .map(|r| format!("{} {}", r.cells[0].text, r.cells[5].text))
            .collect()
    };
    assert_eq!(
        names(&view.notable),
        [
            "sigs.k8s.io/controller-runtime controller-runtime",
            "example.com/b/api module of project b"
        ]
    );
    assert_eq!(names(&view.other), ["github.com/x/y "]);
    let page = platform(&projects, "/", Vec::new());
    let matrix: Vec<String> = page.sections[0]
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect();
    assert_eq!(
        matrix,
        [
            "sigs.k8s.io/controller-runtime | Go | differ (2) | v0.19.1 | v0.20.0",
            "github.com/x/y | Go | same | v1 (indirect) | v1 (indirect)",
        ]
    );
}

fn project_view(p: &Project, all: &[Project]) -> DependenciesView {
    super::project(p, &portal_modules(all))
}
