//! Kingpin flags (`github.com/alecthomas/kingpin`, its `/v2` and `gopkg.in/…kingpin.v2`):
//! `app.Flag(name, help)` followed by modifiers (`.Default(…)`, `.Envar(…)`, `.Short(…)`,
//! `.Required()`, …) and one value method (`.String()`, `.Duration()`, `.StringVar(&v)`,
//! `.Enum(…)`, …), on an application (`kingpin.New(…)`, the default `kingpin.Flag(…)`,
//! `kingpin.CommandLine`) or on a command (`app.Command(…)`).
//!
//! Kingpin's defaults are strings, shown by `--help` as written, so a default is the
//! string's value; `.Default(d.String())` of a numeric constant on a `.Duration()` flag is
//! that duration in `time.Duration.String` form. `.Envar("X")` is also an environment read
//! of the program. Nothing is guessed: a receiver that cannot be followed to kingpin gives
//! no row.

use tree_sitter::Node;

use super::consts::ConstExpr;
use super::facts::Import;
use super::facts::binaries::{EnvName, RawEnv, RawFlag, RawValue};
use super::flag_default;
use super::scope::{Binding, Scope};
use super::syntax::callee;
use super::syntax::{FIELD, KindName, call_arguments, line_of, text};

/// Import paths of kingpin (the package is named `kingpin` in each).
const PATHS: &[&str] = &[
    "github.com/alecthomas/kingpin/v2",
    "gopkg.in/alecthomas/kingpin.v2",
    "github.com/alecthomas/kingpin",
];

/// `FlagClause` methods that return the clause itself (kingpin v2.4); any other method at
/// the end of the chain is the value method that gives the flag its type.
const MODIFIERS: &[&str] = &[
    "Default",
    "Envar",
    "NoEnvar",
    "Short",
    "Required",
    "Hidden",
    "PlaceHolder",
    "Action",
    "PreAction",
    "HintAction",
    "HintOptions",
    "OverrideDefaultFromEnvar",
    "IsSetByUser",
];

/// How many variables and calls are followed to find the application.
const MAX_HOPS: usize = 8;
/// Longest modifier chain read.
const MAX_CHAIN: usize = 16;

/// A kingpin flag and the environment variable it reads, if any.
pub struct KingpinFlag {
    pub flag: RawFlag,
    pub env: Option<RawEnv>,
}

/// The flag registered by `call`, a `….Flag(name, help)` whose receiver is a kingpin
/// application or command, read with the modifiers and value method applied to it.
pub fn flag(
    call: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
    value_of: impl Fn(Node) -> RawValue,
) -> Option<KingpinFlag> {
    let f = callee(call).filter(|f| f.kind_name() == "selector_expression")?;
    if text(f.child_by_field_id(FIELD.field)?, src) != "Flag" {
        return None;
    }
    let operand = f.child_by_field_id(FIELD.operand)?;
    if !imports.iter().any(|i| PATHS.contains(&i.path.as_str()))
        || !is_app(operand, scope, src, imports)
    {
        return None;
    }
    let args = call_arguments(call);
    let [name, help] = args.as_slice() else {
        return None;
    };
    let (name, help) = (value_of(*name), value_of(*help));
    // The methods applied to the clause: climb from the `Flag` call through
    // `(…).Method(…)` parents. Only kingpin flag calls get here, so `parent` is cheap.
    let mut methods: Vec<(String, Node)> = Vec::new();
    let mut node = call;
    while methods.len() < MAX_CHAIN {
        let Some(sel) = node
            .parent()
            .filter(|p| p.kind_name() == "selector_expression")
        else {
            break;
        };
        let Some(outer) = sel.parent().filter(|p| p.kind_name() == "call_expression") else {
            break;
        };
        let Some(method) = sel.child_by_field_id(FIELD.field) else {
            break;
        };
        methods.push((text(method, src).to_string(), outer));
        node = outer;
    }
    let kind = match methods.last() {
        Some((m, _)) if !MODIFIERS.contains(&m.as_str()) => kind_of(m),
        // A clause kept in a variable and typed later: the type is not followed.
        _ => "?".to_string(),
    };
    let mut default = None;
    let mut shorthand = None;
    let mut env = None;
    for (m, c) in &methods {
        let args = call_arguments(*c);
        match (m.as_str(), args.as_slice()) {
            ("Default", [one]) => {
                default = Some(default_value(*one, &kind, scope, src, imports, &value_of))
            }
            ("Default", many) if !many.is_empty() => {
                // Several defaults (a repeatable flag): shown as written.
                default = Some(RawValue {
                    text: many
                        .iter()
                        .map(|a| text(*a, src))
                        .collect::<Vec<_>>()
                        .join(", "),
                    ..RawValue::default()
                });
            }
            ("Short", [rune]) => shorthand = Some(rune_value(*rune, src, &value_of)),
            ("Envar", [e]) => {
                let v = value_of(*e);
                env = Some(RawEnv {
                    line: line_of(*c),
                    func,
                    name: match v.string {
                        Some(s) => EnvName::Str(s),
                        None => EnvName::Other(v.text),
                    },
                });
            }
            _ => {}
        }
    }
    Some(KingpinFlag {
        flag: RawFlag {
            line: line_of(call),
            func,
            kind,
            command: None,
            name,
            shorthand,
            default,
            default_is_value: false,
            help,
            target: None,
        },
        env,
    })
}

/// True when `node` is a kingpin application or command: the package itself (its default
/// application), `kingpin.CommandLine`, `kingpin.New(…)`, `….Command(…)` of one, or a
/// variable or parameter holding or declared as one.
fn is_app(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> bool {
    let is_kingpin = |q: &str| {
        imports.iter().any(|i| {
            PATHS.contains(&i.path.as_str()) && i.alias.as_deref().unwrap_or("kingpin") == q
        })
    };
    let mut n = node;
    for _ in 0..MAX_HOPS {
        match n.kind_name() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(inner) => n = inner,
                None => return false,
            },
            "identifier" => {
                let name = text(n, src);
                return match scope.lookup(name, n.start_byte()) {
                    None => is_kingpin(name),
                    Some(Binding::Value(v)) => {
                        n = v;
                        continue;
                    }
                    Some(Binding::Param(_, Some(t))) | Some(Binding::Typed(t)) => {
                        matches!(t.name.as_str(), "Application" | "CmdClause")
                            && t.qualifier.as_deref().is_some_and(is_kingpin)
                    }
                    Some(_) => false,
                };
            }
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand);
                let field = n.child_by_field_id(FIELD.field).map(|f| text(f, src));
                return field == Some("CommandLine")
                    && operand.is_some_and(|o| {
                        o.kind_name() == "identifier"
                            && scope.lookup(text(o, src), o.start_byte()).is_none()
                            && is_kingpin(text(o, src))
                    });
            }
            "call_expression" => {
                let Some(f) = callee(n).filter(|f| f.kind_name() == "selector_expression") else {
                    return false;
                };
                let (Some(operand), Some(method)) = (
                    f.child_by_field_id(FIELD.operand),
                    f.child_by_field_id(FIELD.field).map(|m| text(m, src)),
                ) else {
                    return false;
                };
                match method {
                    "New" => {
                        return operand.kind_name() == "identifier"
                            && scope
                                .lookup(text(operand, src), operand.start_byte())
                                .is_none()
                            && is_kingpin(text(operand, src));
                    }
                    "Command" => n = operand,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    false
}

/// The default argument: a string, or `d.String()` of a numeric constant for a duration.
fn default_value(
    arg: Node,
    kind: &str,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
    value_of: &impl Fn(Node) -> RawValue,
) -> RawValue {
    let mut v = value_of(arg);
    if kind == "duration"
        && v.string.is_none()
        && let Some(receiver) = string_method_receiver(arg, src)
        && let Some(tokens) = flag_default::num_expr(receiver, scope, src, imports)
    {
        v.num = Some(tokens);
    }
    v
}

/// `x` in `x.String()`.
fn string_method_receiver<'t>(call: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    if call.kind_name() != "call_expression" || !call_arguments(call).is_empty() {
        return None;
    }
    let f = callee(call).filter(|f| f.kind_name() == "selector_expression")?;
    (text(f.child_by_field_id(FIELD.field)?, src) == "String")
        .then(|| f.child_by_field_id(FIELD.operand))
        .flatten()
}

/// `.Short('v')`: the rune as a one-letter string.
fn rune_value(arg: Node, src: &[u8], value_of: &impl Fn(Node) -> RawValue) -> RawValue {
    let written = text(arg, src);
    let letter = written
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .filter(|s| s.chars().count() == 1 && !s.starts_with('\\'));
    match (arg.kind_name(), letter) {
        ("rune_literal", Some(l)) => RawValue {
            text: written.to_string(),
            string: Some(ConstExpr::Str(l.to_string())),
            ..RawValue::default()
        },
        _ => value_of(arg),
    }
}

/// A value method's type name: `Var` dropped, the leading capitals lowered
/// (`StringVar` → `string`, `URLList` → `urlList`); `SetValue` is a `value`.
fn kind_of(method: &str) -> String {
    if method == "SetValue" {
        return "value".to_string();
    }
    let base = method
        .strip_suffix("Var")
        .filter(|b| !b.is_empty())
        .unwrap_or(method);
    let chars: Vec<char> = base.chars().collect();
    let capitals = chars.iter().take_while(|c| c.is_ascii_uppercase()).count();
    // In `URLList`, the `L` of `List` starts the next word.
    let lowered = if capitals > 1 && capitals < chars.len() {
        capitals - 1
    } else {
        capitals
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < lowered {
                c.to_ascii_lowercase()
            } else {
                *c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
