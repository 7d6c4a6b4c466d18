//! Kong command lines (`github.com/alecthomas/kong`): `kong.Parse(&cli, …)` (or `kong.New`,
//! `kong.Must`) reads the command line into the struct `cli`, whose exported fields are
//! its flags and whose `cmd:""` fields are its subcommands, recursively.
//!
//! A flag's name is its `name:` tag, else the field's name split as kong splits camel case
//! and joined with `-` (`LeaderElection` → `leader-election`), after any `prefix:` of the
//! `embed:""` fields it sits in; `short:`, `default:` and `help:` are its shorthand,
//! default and help; each name in `env:"A,B"` is an environment variable the program
//! reads. `arg:""` fields are positional arguments, `kong:"-"` and unexported fields are
//! not on the command line. Bounded: at most `MAX_DEPTH` nested structs and `MAX_FIELDS`
//! fields per command line.

use std::collections::HashMap;

use tree_sitter::Node;

use super::facts::Import;
use super::facts::binaries::RawKong;
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::{call_arguments, line_of};
use super::types::{StructDecl, TypeRef, ValueType, tag_lookup};
use model::{Command, Diagnostic, EnvVar, Flag, SourceRef};

const KONG: &str = "github.com/alecthomas/kong";
const MAX_DEPTH: usize = 8;
const MAX_FIELDS: usize = 2_000;

/// `kong.Parse(&cli, …)`, `kong.New(&cli, …)`, `kong.Must(&cli, …)`.
pub fn parse_call(
    call: Node,
    operand: Node,
    method: &str,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> Option<RawKong> {
    if !matches!(method, "Parse" | "New" | "Must")
        || !super::calls::is_package(operand, scope, src, imports, KONG)
    {
        return None;
    }
    let grammar = *call_arguments(call).first()?;
    Some(RawKong {
        func,
        line: line_of(call),
        grammar: scope.type_of(grammar, src, call.start_byte()),
    })
}

/// One program's kong command line: its flags, the environment variables they read and
/// its commands (paths relative to the program: `core start`).
#[derive(Default)]
pub struct CommandLine {
    pub flags: Vec<Flag>,
    pub env: Vec<EnvVar>,
    pub commands: Vec<Command>,
}

/// The command line `kong.Parse` reads into the struct `raw.grammar` names.
pub(crate) fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    structs: &Structs,
    fi: usize,
    raw: &RawKong,
    diagnostics: &mut Vec<Diagnostic>,
) -> CommandLine {
    let file = &files[fi].facts;
    let mut out = CommandLine::default();
    let Some(root) = structs.of_value(index, file, &raw.grammar) else {
        diagnostics.push(Diagnostic::new(
            &file.path,
            raw.line,
            "kong parses the command line into a value whose struct type is not followed here: its flags are not listed".to_string(),
        ));
        return out;
    };
    let mut walk = Walk {
        files,
        index,
        structs,
        out: &mut out,
        fields: 0,
    };
    walk.command(root, &[], "", "", 0);
    if walk.fields >= MAX_FIELDS {
        diagnostics.push(Diagnostic::new(
            &file.path,
            raw.line,
            format!("kong command line: only the first {MAX_FIELDS} fields are listed"),
        ));
    }
    out
}

/// A struct's exported fields (the ones reflection-based readers see), each with its tag
/// (empty without one).
pub(crate) fn exported_fields(
    decl: &StructDecl,
) -> impl Iterator<Item = (&super::types::StructField, &str)> {
    decl.fields
        .iter()
        .filter(|f| f.name.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|f| (f, f.tag.as_deref().unwrap_or("")))
}

/// The repository's struct declarations by (package, name), with their file.
pub(crate) struct Structs<'a> {
    by_name: HashMap<(String, String), (usize, &'a StructDecl)>,
}

impl<'a> Structs<'a> {
    pub(crate) fn new(files: &'a [GoInput], index: &GoIndex) -> Self {
        let mut by_name = HashMap::new();
        for (fi, input) in files.iter().enumerate() {
            let Some(pkg) = index.package_of(&input.facts) else {
                continue;
            };
            for s in &input.facts.structs {
                by_name
                    .entry((pkg.to_string(), s.name.clone()))
                    .or_insert((fi, s));
            }
        }
        Structs { by_name }
    }

    pub(crate) fn get(&self, pkg: &str, name: &str) -> Option<(usize, &'a StructDecl)> {
        self.by_name
            .get(&(pkg.to_string(), name.to_string()))
            .copied()
    }

    /// The struct a value written in `file` has, when its type is declared there
    /// (`&cli{}`, a local or parameter of the struct type).
    pub(crate) fn of_value(
        &self,
        index: &GoIndex,
        file: &super::facts::GoFile,
        value: &ValueType,
    ) -> Option<(usize, &'a StructDecl)> {
        let (ValueType::Type(t) | ValueType::Param { ty: Some(t), .. }) = value else {
            return None;
        };
        if t.collection {
            return None;
        }
        self.get(&index.type_package(file, t.qualifier.as_deref())?, &t.name)
    }
}

struct Walk<'w, 'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    structs: &'w Structs<'a>,
    out: &'w mut CommandLine,
    fields: usize,
}

impl Walk<'_, '_> {
    /// The fields of one struct: flags of the command `path`, subcommands, embedded
    /// groups (whose flags take `prefix` and whose variables take `env_prefix`).
    fn command(
        &mut self,
        (fi, decl): (usize, &StructDecl),
        path: &[String],
        prefix: &str,
        env_prefix: &str,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let file = &self.files[fi].facts;
        for (f, tag) in exported_fields(decl) {
            self.fields += 1;
            if self.fields > MAX_FIELDS {
                return;
            }
            if tag_lookup(tag, "kong") == Some("-") || tag_lookup(tag, "arg").is_some() {
                continue;
            }
            let nested = || {
                let pkg = self.index.type_package(file, f.ty.qualifier.as_deref())?;
                self.structs.get(&pkg, &f.ty.name)
            };
            if tag_lookup(tag, "cmd").is_some() {
                let name = tag_lookup(tag, "name")
                    .map(str::to_string)
                    .unwrap_or_else(|| kebab(&f.name));
                let mut sub = path.to_vec();
                sub.push(name.clone());
                self.out.commands.push(Command {
                    name,
                    path: sub.join(" "),
                    short: tag_lookup(tag, "help").unwrap_or("").to_string(),
                    flags: Vec::new(),
                    sources: vec![SourceRef::new(&file.path, f.line)],
                });
                if let Some(inner) = nested() {
                    self.command(inner, &sub, "", "", depth + 1);
                }
                continue;
            }
            if f.embedded || tag_lookup(tag, "embed").is_some() {
                if let Some(inner) = nested() {
                    let prefix = format!("{prefix}{}", tag_lookup(tag, "prefix").unwrap_or(""));
                    let env_prefix =
                        format!("{env_prefix}{}", tag_lookup(tag, "envprefix").unwrap_or(""));
                    self.command(inner, path, &prefix, &env_prefix, depth + 1);
                }
                continue;
            }
            self.flag(file, f, tag, path, prefix, env_prefix);
        }
    }

    fn flag(
        &mut self,
        file: &super::facts::GoFile,
        f: &super::types::StructField,
        tag: &str,
        path: &[String],
        prefix: &str,
        env_prefix: &str,
    ) {
        let name = format!(
            "{prefix}{}",
            tag_lookup(tag, "name")
                .map(str::to_string)
                .unwrap_or_else(|| kebab(&f.name))
        );
        let at = vec![SourceRef::new(&file.path, f.line)];
        for var in tag_lookup(tag, "env")
            .into_iter()
            .flat_map(|e| e.split(','))
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            self.out.env.push(EnvVar {
                name: format!("{env_prefix}{var}"),
                sources: at.clone(),
            });
        }
        if let Some(c) = self
            .out
            .commands
            .iter_mut()
            .rev()
            .find(|c| c.path == path.join(" "))
        {
            c.flags.push(name.clone());
        }
        self.out.flags.push(Flag {
            name,
            shorthand: tag_lookup(tag, "short").unwrap_or("").to_string(),
            kind: kind_of(&f.ty),
            default: tag_lookup(tag, "default").unwrap_or("").to_string(),
            default_expr: false,
            default_env: false,
            help: tag_lookup(tag, "help").unwrap_or("").to_string(),
            help_expr: false,
            library: String::new(),
            sources: at,
        });
    }
}

/// A flag's type as pflag names it where there is a match, else the Go type's name.
fn kind_of(t: &TypeRef) -> String {
    let base = match (t.qualifier.as_deref(), t.name.as_str()) {
        (Some("time"), "Duration") => "duration",
        (_, name) => name,
    };
    if t.collection {
        format!("{base}Slice")
    } else {
        base.to_string()
    }
}

/// A field name as kong names its flag: split into words at changes of letter case (the
/// last capital of a run starting the next word: `CRDsPath` → `cr-ds-path`), lower case,
/// joined with `-`.
fn kebab(name: &str) -> String {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Upper,
        Lower,
        Digit,
        Other,
    }
    let class = |c: char| {
        if c.is_uppercase() {
            Class::Upper
        } else if c.is_lowercase() {
            Class::Lower
        } else if c.is_ascii_digit() {
            Class::Digit
        } else {
            Class::Other
        }
    };
    let mut runs: Vec<(Class, Vec<char>)> = Vec::new();
    for c in name.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some((last, chars)) if *last == k => chars.push(c),
            _ => runs.push((k, vec![c])),
        }
    }
    // An upper-case run followed by a lower-case one gives it its last letter.
    for i in 0..runs.len().saturating_sub(1) {
        if runs[i].0 == Class::Upper
            && runs[i + 1].0 == Class::Lower
            && let Some(moved) = runs[i].1.pop()
        {
            runs[i + 1].1.insert(0, moved);
        }
    }
    runs.iter()
        .filter(|(_, chars)| !chars.is_empty())
        .map(|(_, chars)| chars.iter().collect::<String>().to_lowercase())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests;
