//! Environment variables read through viper's global instance (`github.com/spf13/viper`).
//! After `viper.AutomaticEnv()`, every `viper.GetString("key")` (any `Get…`) also reads the
//! variable named by the key in upper case, after `PREFIX_` when `viper.SetEnvPrefix` gave
//! one; `viper.BindEnv("key", "NAME", …)` reads the names it gives (the key's own, so
//! named, when it gives none). Per program: a read counts in a program that reaches an
//! `AutomaticEnv` call, with the one prefix that program sets. A key replacer
//! (`SetEnvKeyReplacer`) or a prefix that is not a constant makes the names unknown: a
//! diagnostic says so, no row is guessed. Instances made with `viper.New()` are not followed.

use std::collections::{BTreeSet, HashMap};

use tree_sitter::Node;

use super::binaries::values::string_in_scope;
use super::consts::ConstExpr;
use super::facts::Import;
use super::facts::binaries::{RawViper, ViperCall};
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::{call_arguments, line_of};
use model::{Binary, Diagnostic, EnvVar, SourceRef};

const VIPER: &str = "github.com/spf13/viper";

/// A call of the global viper's environment API, if `call` is one.
pub fn viper_call(
    call: Node,
    operand: Node,
    method: &str,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> Option<RawViper> {
    if !super::calls::is_package(operand, scope, src, imports, VIPER) {
        return None;
    }
    let args = call_arguments(call);
    let constant = |i: usize| -> Option<ConstExpr> {
        args.get(i).and_then(|a| string_in_scope(*a, scope, src))
    };
    let call_kind = match method {
        "AutomaticEnv" => ViperCall::AutomaticEnv,
        "SetEnvPrefix" => ViperCall::Prefix(constant(0)),
        "SetEnvKeyReplacer" | "SetEnvKeyReplacerFunc" => ViperCall::KeyReplacer,
        "BindEnv" if args.len() > 1 => ViperCall::Bound((1..args.len()).map(constant).collect()),
        "BindEnv" => ViperCall::Key(constant(0)),
        m if m == "Get" || m.starts_with("Get") && m != "GetViper" => ViperCall::Key(constant(0)),
        "IsSet" => ViperCall::Key(constant(0)),
        _ => return None,
    };
    Some(RawViper {
        func,
        line: line_of(call),
        call: call_kind,
    })
}

/// Applies a change to the rows of the programs (or the package) reaching function `func`
/// of file `fi`: `(fi, func, change)`.
pub(crate) type Place<'p> = &'p mut dyn FnMut(usize, usize, &mut dyn FnMut(&mut Binary));

/// What one program sets up: viper's automatic environment, its prefixes, a key replacer.
#[derive(Default)]
struct Setup {
    automatic: bool,
    /// Each `SetEnvPrefix`'s value; None for one that is not a constant.
    prefixes: BTreeSet<Option<String>>,
    replacer: bool,
}

/// The environment variables the viper calls read, added to the row of each program (or
/// package) that makes the call (`place` applies a change to those rows).
pub(crate) fn place_env(
    files: &[GoInput],
    index: &GoIndex,
    place: Place,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut setups: HashMap<String, Setup> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.binaries.viper {
            let prefix = match &raw.call {
                ViperCall::Prefix(p) => Some(p.as_ref().and_then(|e| index.eval(file, e))),
                ViperCall::AutomaticEnv | ViperCall::KeyReplacer => None,
                ViperCall::Key(_) | ViperCall::Bound(_) => continue,
            };
            place(fi, raw.func, &mut |b| {
                let setup = setups.entry(b.package.clone()).or_default();
                match &raw.call {
                    ViperCall::AutomaticEnv => setup.automatic = true,
                    ViperCall::KeyReplacer => setup.replacer = true,
                    _ => {
                        setup.prefixes.insert(prefix.clone().flatten());
                    }
                }
            });
        }
    }
    let mut unknown: BTreeSet<(String, u32, String)> = BTreeSet::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.binaries.viper {
            let source = || vec![SourceRef::new(&file.path, raw.line)];
            match &raw.call {
                ViperCall::Bound(names) => {
                    for name in names {
                        match name.as_ref().and_then(|e| index.eval(file, e)) {
                            Some(name) => {
                                let var = EnvVar {
                                    name,
                                    sources: source(),
                                };
                                place(fi, raw.func, &mut |b| b.env.push(var.clone()));
                            }
                            None => {
                                unknown.insert((file.path.clone(), raw.line, NOT_CONSTANT.into()));
                            }
                        }
                    }
                }
                ViperCall::Key(key) => {
                    let key = key.as_ref().and_then(|e| index.eval(file, e));
                    place(fi, raw.func, &mut |b| {
                        let Some(setup) = setups.get(&b.package).filter(|s| s.automatic) else {
                            return;
                        };
                        let why = match (&key, setup.replacer, prefix_of(setup)) {
                            (_, true, _) => REPLACER,
                            (_, _, None) => PREFIX,
                            (None, _, _) => NOT_CONSTANT,
                            (Some(key), false, Some(prefix)) => {
                                let name = match prefix {
                                    "" => key.to_uppercase(),
                                    p => format!("{p}_{key}").to_uppercase(),
                                };
                                b.env.push(EnvVar {
                                    name,
                                    sources: source(),
                                });
                                return;
                            }
                        };
                        unknown.insert((file.path.clone(), raw.line, why.into()));
                    });
                }
                _ => {}
            }
        }
    }
    for (file, line, why) in unknown {
        diagnostics.push(Diagnostic::new(
            &file,
            line,
            format!("viper reads an environment variable here, but {why}: not listed"),
        ));
    }
}

/// The one prefix a program sets ("" for none), None when it is not known.
fn prefix_of(setup: &Setup) -> Option<&str> {
    let mut prefixes = setup.prefixes.iter();
    match (prefixes.next(), prefixes.next()) {
        (None, _) => Some(""),
        (Some(Some(p)), None) => Some(p),
        _ => None,
    }
}

const NOT_CONSTANT: &str = "its name is not a constant";
const REPLACER: &str = "the program rewrites names with SetEnvKeyReplacer";
const PREFIX: &str = "the program's SetEnvPrefix is not one constant";
