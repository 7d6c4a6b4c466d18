//! The small trait a Go feature implements to be one module registered on one line, and
//! what runs the registered ones.
//!
//! An extractor keeps facts of its own type per file (`Extractor::Facts`), collected from
//! each function body as the file is read, and turns the facts of every file of a project
//! into the rows of one table (`model::Table`), which the project's configuration page
//! shows and the model, the search index and the site's JSON carry, with no field or page
//! of its own to add. The list is `REGISTRY` in `go/mod.rs` (the `extractors!` macro, which
//! also declares each module). ARCHITECTURE.md, "Adding a Go extractor", walks through one.
//!
//! Facts are stored type-erased in `GoFile::extracted` (`facts::Extracted`), one slot per
//! registered extractor (by its position in the registry), and given back typed to that
//! extractor only.

use std::fmt;

use model::{Diagnostic, SourceRef, Table, TableRow};

use super::facts::{Extracted, Facts};
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::FuncCtx;
use super::values::Values;

/// One Go feature: what it keeps of each function body, and the rows it makes of a project.
pub trait Extractor: Sync {
    /// What it keeps of one file.
    type Facts: Default + Clone + fmt::Debug + Send + Sync + 'static;

    /// Its name in the model (`Table::extractor`) and the id of its section on the page:
    /// lowercase words, unique in the registry.
    fn name(&self) -> &'static str;
    /// The table's heading on the project's configuration page.
    fn title(&self) -> &'static str;
    /// What the rows are and how they were found, one or two sentences of plain text (the
    /// page shows it as written, not as markdown).
    fn about(&self) -> &'static str;
    /// The table's columns (the source link comes after them).
    fn columns(&self) -> &'static [&'static str];

    /// Reads one function or method body of a file (`f.ctx.calls` holds its calls).
    fn function(&self, f: &Function<'_, '_>, facts: &mut Self::Facts);

    /// The project's rows from every file's facts. Whatever cannot be resolved is a
    /// diagnostic with its reason, never a guessed row.
    fn resolve(
        &self,
        files: &[(&GoInput, &Self::Facts)],
        project: &Project<'_, '_>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<TableRow>;
}

/// One function body as an extractor sees it.
pub struct Function<'a, 't> {
    pub ctx: &'a FuncCtx<'t>,
    pub scope: &'a Scope<'t>,
    pub src: &'a [u8],
}

/// What resolution has of the whole project besides the facts: the package index (imports,
/// constants, API groups) and the value index (types of fields, results, parameters).
pub struct Project<'a, 'b> {
    pub index: &'b GoIndex<'a>,
    pub values: &'b Values<'a, 'b>,
}

/// An extractor with its facts' type erased, so that extractors of different facts can
/// share one list. Implemented for every `Extractor`; nothing else implements it.
pub trait Registered: Sync {
    fn function(&self, f: &Function<'_, '_>, slot: &mut Option<Box<dyn Facts>>);
    fn table(
        &self,
        files: &[GoInput],
        slot: usize,
        project: &Project<'_, '_>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Table;
}

impl<E: Extractor> Registered for E {
    fn function(&self, f: &Function<'_, '_>, slot: &mut Option<Box<dyn Facts>>) {
        let facts = slot.get_or_insert_with(|| Box::new(E::Facts::default()));
        if let Some(facts) = facts.as_any_mut().downcast_mut::<E::Facts>() {
            self.function(f, facts);
        }
    }

    fn table(
        &self,
        files: &[GoInput],
        slot: usize,
        project: &Project<'_, '_>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Table {
        let facts: Vec<(&GoInput, &E::Facts)> = files
            .iter()
            .filter_map(|input| {
                let erased = input.facts.extracted.slot(slot)?;
                Some((input, erased.as_any().downcast_ref::<E::Facts>()?))
            })
            .collect();
        let before = diagnostics.len();
        let mut rows = if facts.is_empty() {
            Vec::new()
        } else {
            self.resolve(&facts, project, diagnostics)
        };
        let diagnosed = u32::try_from(diagnostics.len() - before).unwrap_or(u32::MAX);
        // The project's own rows first, then samples; each group in a stable order.
        rows.sort_by(|a, b| (!a.area.is_component(), a).cmp(&(!b.area.is_component(), b)));
        rows.dedup();
        Table {
            extractor: self.name().into(),
            title: self.title().into(),
            about: self.about().into(),
            columns: self.columns().iter().map(|c| c.to_string()).collect(),
            rows,
            diagnosed,
        }
    }
}

/// Runs every extractor of `registry` on one function body of a file.
pub fn function(registry: &[&dyn Registered], f: &Function<'_, '_>, extracted: &mut Extracted) {
    for (extractor, slot) in registry.iter().zip(extracted.slots(registry.len())) {
        extractor.function(f, slot);
    }
}

/// The tables of every extractor of `registry` that found a row or a place it could not
/// resolve, in registry order.
pub fn tables(
    registry: &[&dyn Registered],
    files: &[GoInput],
    project: &Project<'_, '_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Table> {
    registry
        .iter()
        .enumerate()
        .map(|(slot, extractor)| extractor.table(files, slot, project, diagnostics))
        .filter(|table| !table.rows.is_empty() || table.diagnosed > 0)
        .collect()
}

/// A row of the project's own code or of its samples, by the file it was found in.
pub fn row(input: &GoInput, cells: Vec<String>, line: u32) -> TableRow {
    TableRow {
        cells,
        area: input.area,
        sources: vec![SourceRef::new(&input.facts.path, line)],
    }
}
