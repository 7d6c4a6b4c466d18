//! The order a reader meets a project's controllers in: its main controllers first.

use model::{Controller, Project, Relation};

/// The project's controllers, component ones first and then those of tests and samples;
/// among component ones the main controllers first — those reconciling a kind the
/// project defines itself (the `For` kind is one of its own CRDs) — then, among equals,
/// those that watch and write the most; otherwise in source order.
pub fn ordered(p: &Project) -> (Vec<&Controller>, Vec<&Controller>) {
    let (mut component, sample): (Vec<_>, Vec<_>) = p
        .findings
        .controllers
        .iter()
        .partition(|c| c.area.is_component());
    component.sort_by_key(|c| {
        (
            !is_main(p, c),
            std::cmp::Reverse(c.watches.len() + c.operations.len()),
        )
    });
    (component, sample)
}

pub fn is_main(p: &Project, c: &Controller) -> bool {
    let own = |group: &str, kind: &str| {
        p.findings.crds.iter().any(|crd| {
            !crd.bundled && crd.area.is_component() && crd.group == group && crd.kind == kind
        })
    };
    c.watches
        .iter()
        .any(|w| w.relation == Relation::For && own(&w.group, &w.kind))
}
