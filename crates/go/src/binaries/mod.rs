//! Binaries and their configuration: every `package main` folder is a program; its
//! command-line flags (`flag`, `pflag`, cobra's `Flags()`/`PersistentFlags()`, any
//! `*FlagSet`) with type, default and help text, and the environment variables it reads
//! (`os.Getenv`, `os.LookupEnv`, directly or through helpers that pass a parameter on);
//! kingpin's and kong's (struct tags, `kong`) command lines too.
//!
//! Per file, `extract` records raw facts: each flag registration with its arguments as
//! unevaluated values, each environment read, the struct literal a constructor returns
//! (`func NewOptions() *Options { return &Options{Port: 8080} }`) and non-string constants.
//!
//! Per project, `resolve` decides which program each fact belongs to. A fact in a main
//! package belongs to that program. A fact elsewhere belongs to every program that reaches
//! it: through calls the `calls::Graph` can follow from `func main`, or because it sits in
//! a package-level declaration or `init` of a package the program imports (Go runs those
//! whenever the package is linked). Facts no program is shown to reach are listed under
//! their own package (a `Binary` with an empty name), never attached to a guessed program.
//!
//! Defaults are evaluated, not guessed: string constants through `GoIndex::eval`,
//! non-string literals kept as written (a lone constant replaced by its value), and a
//! struct field bound to a flag (`fs.IntVar(&o.Port, "port", o.Port, …)`) read from the
//! literal of the constructor that made `o` (`o := NewOptions()`, or for a method, the
//! one constructor every caller got its receiver from); a field the literal leaves out has
//! the type's zero value. Anything else keeps its Go source text, marked `default_expr`.
//!
//! By job: `extract` (the per-file facts), `values` (Go expressions as raw values, shared
//! with other features), `programs` (what each program links and reaches), `evaluate`
//! (defaults and environment reads per project), `commands` (cobra command trees); this
//! module places each fact in the programs that reach it.

mod commands;
pub(crate) mod evaluate;
mod extract;
pub(crate) mod programs;
pub(crate) mod values;

pub use extract::{collect_consts, extract, extract_package_level};

use commands::{CommandId, Commands};
use evaluate::Evaluator;
use programs::{package_names, program_reach};

use std::collections::{BTreeMap, BTreeSet};

use super::calls::{FuncId, Graph};
use super::index::{GoIndex, GoInput};
use super::library_flags;
use model::{Area, Binary, Command, Diagnostic, EnvVar, Flag, SourceRef};

/// Resolves every file's flags and environment reads to binaries and library flag sets.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    graph: &Graph,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Binary> {
    let packages = package_names(files, index);
    let mut placement = Placement {
        files,
        packages: &packages,
        programs: programs(files, &packages, graph),
        library: BTreeMap::new(),
    };
    let eval = Evaluator::new(files, index, graph);
    let commands = Commands {
        files,
        graph,
        packages: &packages,
    };
    // (file, function, command, flag name) of flags registered on a cobra command.
    let mut command_flags: Vec<(usize, usize, CommandId, String)> = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.binaries.flags {
            let Some(flag) = eval.flag(fi, raw, diagnostics) else {
                continue;
            };
            if let Some(id) = raw
                .command
                .as_ref()
                .and_then(|r| commands.find(fi, raw.func, r))
            {
                command_flags.push((fi, raw.func, id, flag.name.clone()));
            }
            placement.place(fi, raw.func, &mut |b| b.flags.push(flag.clone()));
        }
    }
    placement.place_library_uses(diagnostics);
    // Command lines and environments read into structs: the repository's structs, indexed
    // once, when some file reads one.
    let tagged = files
        .iter()
        .any(|f| !f.facts.binaries.kong.is_empty() || !f.facts.binaries.envconfig.is_empty());
    let structs = super::kong::Structs::new(if tagged { files } else { &[] }, index);
    for (fi, input) in files.iter().enumerate() {
        for raw in &input.facts.binaries.kong {
            let line = super::kong::resolve(files, index, &structs, fi, raw, diagnostics);
            placement.place(fi, raw.func, &mut |b| {
                b.flags.extend(line.flags.iter().cloned());
                b.env.extend(line.env.iter().cloned());
                let root = b.name.clone();
                b.commands.extend(line.commands.iter().map(|c| Command {
                    path: format!("{root} {}", c.path),
                    ..c.clone()
                }));
            });
        }
        for raw in &input.facts.binaries.envconfig {
            let vars = super::envconfig::resolve(files, index, &structs, fi, raw, diagnostics);
            placement.place(fi, raw.func, &mut |b| b.env.extend(vars.iter().cloned()));
        }
    }
    for (fi, func, line, name) in eval.env_reads(diagnostics) {
        let var = EnvVar {
            name,
            sources: vec![SourceRef::new(&files[fi].facts.path, line)],
        };
        placement.place(fi, func, &mut |b| b.env.push(var.clone()));
    }
    super::viper::place_env(
        files,
        index,
        &mut |fi, func, add| placement.place(fi, func, add),
        diagnostics,
    );
    let Placement {
        mut programs,
        library,
        ..
    } = placement;
    name_by_commands(&mut programs, &packages, &commands, &eval, &command_flags);
    add_kubeconfig_flags(&mut programs, files, &packages);
    sorted_rows(programs, library)
}

/// A program (`package main`) being resolved: its row, and what it links and reaches.
struct Program<'p> {
    binary: Binary,
    package: &'p str,
    /// The in-repo packages it links, itself included.
    linked: BTreeSet<&'p str>,
    reach: super::calls::Reach,
}

/// The project's programs, each with an empty row named after its package.
fn programs<'p>(files: &[GoInput], packages: &'p [String], graph: &Graph) -> Vec<Program<'p>> {
    program_reach(files, packages, graph)
        .into_iter()
        .map(|p| Program {
            binary: Binary {
                name: binary_name(p.package),
                package: p.package.to_string(),
                flags: Vec::new(),
                env: Vec::new(),
                area: p.area,
                sources: p.main_at.into_iter().collect(),
                name_from: Vec::new(),
                commands: Vec::new(),
            },
            package: p.package,
            linked: p.linked,
            reach: p.reach,
        })
        .collect()
}

/// Where facts land: every program that reaches them, else their own package's row.
struct Placement<'p> {
    files: &'p [GoInput],
    packages: &'p [String],
    programs: Vec<Program<'p>>,
    /// Rows of packages whose facts no program is shown to reach, by package.
    library: BTreeMap<String, Binary>,
}

impl Placement<'_> {
    /// Applies `add` to the row of every program reaching function `func` of file `fi`, or
    /// else to the row of the file's package.
    fn place(&mut self, fi: usize, func: usize, add: &mut dyn FnMut(&mut Binary)) {
        let pkg = self.packages[fi].as_str();
        let mut placed = false;
        for prog in self.programs.iter_mut() {
            if prog.package == pkg || prog.reach.contains(FuncId::new(fi, func)) {
                add(&mut prog.binary);
                placed = true;
            }
        }
        if !placed {
            let files = self.files;
            let entry = self
                .library
                .entry(pkg.to_string())
                .or_insert_with(|| Binary {
                    name: String::new(),
                    package: pkg.to_string(),
                    flags: Vec::new(),
                    env: Vec::new(),
                    area: files[fi].area,
                    sources: Vec::new(),
                    name_from: Vec::new(),
                    commands: Vec::new(),
                });
            if files[fi].area == Area::Component {
                entry.area = Area::Component;
            }
            add(entry);
        }
    }

    /// The flags libraries register (`klog.InitFlags(nil)`, zap's `BindFlags`).
    fn place_library_uses(&mut self, diagnostics: &mut Vec<Diagnostic>) {
        let (files, packages) = (self.files, self.packages);
        for (fi, input) in files.iter().enumerate() {
            let path = &input.facts.path;
            for u in &input.facts.binaries.library_uses {
                if let Some(set) = &u.other_flag_set {
                    diagnostics.push(Diagnostic::new(
                        path,
                        u.line,
                        format!(
                            "{} registers its flags on `{set}`, not on the program's command line; which of them the program exposes is not followed, so none is listed",
                            u.library
                        ),
                    ));
                    continue;
                }
                if let Some(field) = &u.field {
                    let package = &packages[fi];
                    let declared = library_flags::zap_options_field(
                        files
                            .iter()
                            .enumerate()
                            .filter(|(f, _)| &packages[*f] == package)
                            .map(|(_, i)| (i.facts.structs.as_slice(), i.facts.imports.as_slice())),
                        field,
                    );
                    if !declared {
                        continue;
                    }
                }
                let flags = library_rows(u.library, path, u.line, &u.devel);
                self.place(fi, u.func, &mut |b| b.flags.extend(flags.iter().cloned()));
            }
        }
    }
}

/// Each program's cobra command tree; a program whose commands have one root is named by
/// the root's `Use`.
fn name_by_commands(
    programs: &mut [Program],
    packages: &[String],
    commands: &Commands,
    eval: &Evaluator,
    command_flags: &[(usize, usize, CommandId, String)],
) {
    for prog in programs {
        let belongs = |fi: usize, func: usize| {
            packages[fi] == prog.package || prog.reach.contains(FuncId::new(fi, func))
        };
        // cobra's tree, after any kong commands placed already.
        let cobra = commands.tree(eval, &belongs, command_flags);
        prog.binary.commands.extend(cobra);
        // A program whose commands have one root is named by the root's `Use`.
        let roots: Vec<&Command> = prog
            .binary
            .commands
            .iter()
            .filter(|c| !c.path.contains(' '))
            .collect();
        if let [root] = roots.as_slice() {
            prog.binary.name = root.name.clone();
            prog.binary.name_from = root.sources.clone();
        }
    }
}

/// `--kubeconfig`: registered by an `init` of a linked controller-runtime package.
fn add_kubeconfig_flags(programs: &mut [Program], files: &[GoInput], packages: &[String]) {
    for prog in programs {
        let import = files.iter().enumerate().find_map(|(fi, input)| {
            let linked = prog.linked.contains(packages[fi].as_str());
            let line = input.facts.binaries.kubeconfig_import?;
            linked.then_some((input.facts.path.as_str(), line))
        });
        if let Some((path, line)) = import {
            prog.binary
                .flags
                .extend(library_rows("controller-runtime", path, line, &Ok(false)));
        }
    }
}

/// The rows of programs then packages, flags and environment variables sorted and merged.
fn sorted_rows(programs: Vec<Program>, library: BTreeMap<String, Binary>) -> Vec<Binary> {
    let mut out: Vec<Binary> = programs.into_iter().map(|p| p.binary).collect();
    out.extend(library.into_values());
    for b in &mut out {
        b.flags
            .sort_by(|a, c| (&a.name, &a.sources).cmp(&(&c.name, &c.sources)));
        manifests::merge::merge_identical(&mut b.flags);
        b.env
            .sort_by(|a, c| (&a.name, &a.sources).cmp(&(&c.name, &c.sources)));
        manifests::merge::merge_identical(&mut b.env);
    }
    // A library package with nothing in it is not worth a row (cannot happen today, but
    // keeps the output honest if a fact is dropped after its entry was made).
    out.retain(|b| !b.is_package() || !b.flags.is_empty() || !b.env.is_empty());
    out
}

/// The flags a library registers, sourced at the call (or import) that makes it do so.
fn library_rows(library: &str, path: &str, line: u32, devel: &Result<bool, String>) -> Vec<Flag> {
    library_flags::table(library)
        .iter()
        .map(|(name, kind, default, help)| Flag {
            name: name.to_string(),
            shorthand: String::new(),
            kind: kind.to_string(),
            default: match (*name, devel) {
                ("zap-devel", Ok(d)) => d.to_string(),
                ("zap-devel", Err(e)) => e.clone(),
                _ => default.to_string(),
            },
            default_expr: *name == "zap-devel" && devel.is_err(),
            default_env: false,
            help: help.to_string(),
            help_expr: false,
            library: library.to_string(),
            sources: vec![SourceRef::new(path, line)],
        })
        .collect()
}

/// A program's name: its package's last path element, skipping a `/vN` major version.
fn binary_name(package: &str) -> String {
    let mut parts = package.rsplit('/');
    let last = parts.next().unwrap_or(package);
    let is_major =
        last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
    match (is_major, parts.next()) {
        (true, Some(prev)) => prev.to_string(),
        _ if last.is_empty() => "main".to_string(),
        _ => last.to_string(),
    }
}

#[cfg(test)]
mod tests;
