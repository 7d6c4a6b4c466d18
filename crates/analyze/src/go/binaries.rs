//! Binaries and their configuration: every `package main` folder is a program; its
//! command-line flags (`flag`, `pflag`, cobra's `Flags()`/`PersistentFlags()`, any
//! `*FlagSet`) with type, default and help text, and the environment variables it reads
//! (`os.Getenv`, `os.LookupEnv`, directly or through helpers that pass a parameter on).
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

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use tree_sitter::Node;

use super::calls::{FuncId, Graph, names_import};
use super::cobra;
use super::consts::{ConstExpr, const_expr};
use super::facts::binaries::{
    BinaryFacts, Constructor, EnvName, FieldRef, FlagTarget, LiteralField, RawEnv, RawFlag,
    RawValue,
};
use super::facts::calls::{Arg, Target};
use super::facts::cobra::{CmdRef, CobraCommand};
use super::facts::flag_default::NumTok;
use super::facts::{GoFile, Import};
use super::flag_default::{self, Num};
use super::index::{GoIndex, GoInput, dir_of};
use super::kingpin;
use super::library_flags;
use super::scope::Scope;
use super::syntax::{FuncCtx, for_each_node, for_each_plain_identifier, line_of, text};
use super::syntax::{callee, method_of};
use super::types::{Chain, Root, Step};
use model::{Area, Binary, Command, Diagnostic, EnvVar, Flag, SourceRef};

const STD_FLAG: &str = "flag";
const PFLAG: &str = "github.com/spf13/pflag";

/// The flag target a value expression denotes: `x`, `*x`, `&x`, `o.F`, `&o.A.F`.
pub fn flag_target(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<FlagTarget> {
    let mut n = node;
    for _ in 0..4 {
        match n.kind_name() {
            "unary_expression"
                if n.child_by_field_id(FIELD.operator)
                    .is_some_and(|o| matches!(text(o, src), "&" | "*")) =>
            {
                n = n.child_by_field_id(FIELD.operand)?;
            }
            "parenthesized_expression" => n = n.named_child(0)?,
            _ => break,
        }
    }
    match n.kind_name() {
        "identifier" => {
            let name = text(n, src);
            let local = scope.lookup(name, n.start_byte()).is_some();
            Some(FlagTarget::Var {
                name: name.to_string(),
                local,
            })
        }
        "selector_expression" => value_of(n, scope, src, imports)
            .field
            .map(FlagTarget::Field),
        _ => None,
    }
}

/// The variable a `x := flag.String(…)` (or `var x = …`) call's result is assigned to.
fn result_target(call: Node, scope: &Scope, src: &[u8]) -> Option<FlagTarget> {
    let name = super::syntax::assigned_variable(call, src)?;
    let local = scope.lookup(&name, call.end_byte()).is_some();
    Some(FlagTarget::Var { name, local })
}

/// How a flag method lays out its arguments.
struct Layout {
    kind: &'static str,
    /// Positions of the name, shorthand, default and usage arguments.
    name: usize,
    short: Option<usize>,
    default: Option<usize>,
    usage: usize,
    arity: usize,
    default_is_value: bool,
}

/// pflag's type names by method base name; the standard library's methods are a subset.
const FLAG_TYPES: &[(&str, &str)] = &[
    ("String", "string"),
    ("Bool", "bool"),
    ("Int", "int"),
    ("Int8", "int8"),
    ("Int16", "int16"),
    ("Int32", "int32"),
    ("Int64", "int64"),
    ("Uint", "uint"),
    ("Uint8", "uint8"),
    ("Uint16", "uint16"),
    ("Uint32", "uint32"),
    ("Uint64", "uint64"),
    ("Float32", "float32"),
    ("Float64", "float64"),
    ("Duration", "duration"),
    ("StringSlice", "stringSlice"),
    ("StringArray", "stringArray"),
    ("IntSlice", "intSlice"),
    ("Int32Slice", "int32Slice"),
    ("Int64Slice", "int64Slice"),
    ("UintSlice", "uintSlice"),
    ("BoolSlice", "boolSlice"),
    ("Float32Slice", "float32Slice"),
    ("Float64Slice", "float64Slice"),
    ("DurationSlice", "durationSlice"),
    ("StringToString", "stringToString"),
    ("StringToInt", "stringToInt"),
    ("StringToInt64", "stringToInt64"),
    ("IP", "ip"),
    ("IPSlice", "ipSlice"),
    ("IPMask", "ipMask"),
    ("IPNet", "ipNet"),
    ("BytesHex", "bytesHex"),
    ("BytesBase64", "bytesBase64"),
    ("Count", "count"),
];

fn layout(method: &str) -> Option<Layout> {
    let fixed = |kind, name, short, default, usage, arity, default_is_value| Layout {
        kind,
        name,
        short,
        default,
        usage,
        arity,
        default_is_value,
    };
    match method {
        "Var" => return Some(fixed("value", 1, None, Some(0), 2, 3, true)),
        "VarP" | "VarPF" => return Some(fixed("value", 1, Some(2), Some(0), 3, 4, true)),
        "TextVar" => return Some(fixed("text", 1, None, Some(2), 3, 4, false)),
        "Func" => return Some(fixed("func", 0, None, None, 1, 3, false)),
        "FuncP" => return Some(fixed("func", 0, Some(1), None, 2, 4, false)),
        "BoolFunc" => return Some(fixed("boolFunc", 0, None, None, 1, 3, false)),
        "BoolFuncP" => return Some(fixed("boolFunc", 0, Some(1), None, 2, 4, false)),
        _ => {}
    }
    for (base, kind) in FLAG_TYPES {
        let Some(suffix) = method.strip_prefix(base) else {
            continue;
        };
        let (ptr, short) = match suffix {
            "" => (false, false),
            "P" => (false, true),
            "Var" => (true, false),
            "VarP" => (true, true),
            _ => continue,
        };
        let mut at = usize::from(ptr);
        let name = at;
        at += 1;
        let short = short.then(|| {
            at += 1;
            at - 1
        });
        let default = (*base != "Count").then(|| {
            at += 1;
            at - 1
        });
        return Some(Layout {
            kind,
            name,
            short,
            default,
            usage: at,
            arity: at + 1,
            default_is_value: false,
        });
    }
    None
}

/// Records the flags, environment reads and returned literal of one function.
pub fn extract(ctx: &FuncCtx, scope: &Scope, func: usize, src: &[u8], file: &mut GoFile) {
    let imports = std::mem::take(&mut file.imports);
    for &node in &ctx.calls {
        visit_call(node, scope, func, src, &imports, &mut file.binaries);
    }
    let returns: Vec<Node> = ctx
        .nodes
        .iter()
        .copied()
        .filter(|n| n.kind_name() == "return_statement")
        .collect();
    let out = &mut file.binaries.cobra;
    for &node in &ctx.nodes {
        if node.kind_name() == "composite_literal" {
            cobra::literal(node, func, false, &returns, src, &imports, out);
        }
    }
    // Only functions that mention cobra can return a command.
    if imports.iter().any(|i| i.path == cobra::COBRA) {
        for &ret in &returns {
            cobra::returned_call(ret, func, scope, src, &imports, out);
        }
    }
    if let Some(ctor) = returned_literal(ctx, scope, src, &imports) {
        file.binaries
            .constructors
            .push(Constructor { func, ..ctor });
    }
    file.imports = imports;
}

/// Records the flags and environment reads of a package-level `var` declaration, and its
/// `strings.Join` lists of constants.
pub fn extract_package_level(decl: Node, func: usize, src: &[u8], file: &mut GoFile) {
    let imports = std::mem::take(&mut file.imports);
    let scope = Scope::package_level();
    for_each_node(decl, |node| match node.kind_name() {
        "call_expression" => visit_call(node, &scope, func, src, &imports, &mut file.binaries),
        "composite_literal" => {
            let out = &mut file.binaries.cobra;
            cobra::literal(node, func, true, &[], src, &imports, out);
        }
        "var_spec" => {
            let mut nc = node.walk();
            let names: Vec<Node> = node
                .children_by_field_name("name", &mut nc)
                .filter(|n| n.kind_name() == "identifier")
                .collect();
            let values: Vec<Node> = node
                .child_by_field_id(FIELD.value)
                .map(|v| {
                    let mut vc = v.walk();
                    v.named_children(&mut vc).collect()
                })
                .unwrap_or_default();
            if names.len() != values.len() {
                return;
            }
            for (name, value) in names.into_iter().zip(values) {
                if let Some((items, sep)) = string_join(value, src, &imports) {
                    file.binaries
                        .joins
                        .push((text(name, src).to_string(), items, sep));
                }
            }
        }
        _ => {}
    });
    file.imports = imports;
}

/// `strings.Join([]string{a, b}, sep)` with constant items and separator.
fn string_join(node: Node, src: &[u8], imports: &[Import]) -> Option<(Vec<ConstExpr>, ConstExpr)> {
    let f = callee(node).filter(|f| f.kind_name() == "selector_expression")?;
    let operand = f.child_by_field_id(FIELD.operand)?;
    if text(f.child_by_field_id(FIELD.field)?, src) != "Join"
        || operand.kind_name() != "identifier"
        || !names_import(imports, text(operand, src), "strings")
    {
        return None;
    }
    let args = node.child_by_field_id(FIELD.arguments)?;
    let mut c = args.walk();
    let args: Vec<Node> = args
        .named_children(&mut c)
        .filter(|n| n.kind_name() != "comment")
        .collect();
    let [list, sep] = args.as_slice() else {
        return None;
    };
    if list.kind_name() != "composite_literal" {
        return None;
    }
    let body = list.child_by_field_id(FIELD.body)?;
    let mut bc = body.walk();
    let items = body
        .named_children(&mut bc)
        .map(|e| e.named_child(0).and_then(|x| const_expr(x, src)))
        .collect::<Option<Vec<_>>>()?;
    Some((items, const_expr(*sep, src)?))
}

/// Records package-level constants that are not strings but literal values.
pub fn collect_consts(decl: Node, src: &[u8], file: &mut GoFile) {
    let scope = Scope::package_level();
    let mut c = decl.walk();
    for spec in decl.named_children(&mut c) {
        if spec.kind_name() != "const_spec" {
            continue;
        }
        let mut nc = spec.walk();
        let names: Vec<String> = spec
            .children_by_field_name("name", &mut nc)
            .filter(|n| n.kind_name() == "identifier")
            .map(|n| text(n, src).to_string())
            .collect();
        let Some(list) = spec.child_by_field_id(FIELD.value) else {
            continue;
        };
        let mut lc = list.walk();
        let values: Vec<Node> = list.named_children(&mut lc).collect();
        if values.len() != names.len() {
            continue;
        }
        for (name, value) in names.into_iter().zip(values) {
            if const_expr(value, src).is_some() {
                continue;
            }
            let v = value_of(value, &scope, src, &file.imports);
            if v.literal {
                file.binaries.value_consts.push((name, v));
            }
        }
    }
}

fn visit_call(
    node: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
    out: &mut BinaryFacts,
) {
    let Some((operand, method)) = method_of(node, src) else {
        return;
    };
    if method == "Flag" {
        let value = |n: Node| value_of(n, scope, src, imports);
        if let Some(k) = kingpin::flag(node, scope, func, src, imports, value) {
            out.flags.push(k.flag);
            out.env_reads.extend(k.env);
        }
        return;
    }
    if method == "AddCommand" {
        cobra::add_command(node, scope, func, src, imports, &mut out.cobra);
        return;
    }
    if matches!(method, "BindFlags" | "InitFlags") {
        if let Some(u) = library_flags::library_use(node, scope, func, src, imports) {
            out.library_uses.push(u);
        }
        return;
    }
    let env_read = method == "Getenv" || method == "LookupEnv";
    let layout = layout(method);
    // Most calls are neither: decide that before collecting their arguments.
    if !env_read && layout.is_none() {
        return;
    }
    let args: Vec<Node> = node
        .child_by_field_id(FIELD.arguments)
        .map(|a| {
            let mut c = a.walk();
            a.named_children(&mut c)
                .filter(|n| n.kind_name() != "comment")
                .collect()
        })
        .unwrap_or_default();
    if env_read
        && operand.kind_name() == "identifier"
        && scope
            .lookup(text(operand, src), operand.start_byte())
            .is_none()
        && names_import(imports, text(operand, src), "os")
    {
        if let Some(arg) = args.first() {
            let name = match scope.param_at(*arg, src) {
                Some(i) => EnvName::Param(i),
                None => match string_in_scope(*arg, scope, src) {
                    Some(e) => EnvName::Str(e),
                    None => EnvName::Other(fold(text(*arg, src))),
                },
            };
            out.env_reads.push(RawEnv {
                line: line_of(node),
                func,
                name,
            });
        }
        return;
    }
    let Some(layout) = layout else {
        return;
    };
    if args.len() != layout.arity {
        return;
    }
    let pointer_first = args
        .first()
        .is_some_and(|a| a.kind_name() == "unary_expression" && text(*a, src).starts_with('&'));
    // `XVar(&p, …)`/`XVarP(&p, …)` have a signature only flag sets use, whatever the receiver.
    let var_method = method.contains("Var") && method != "Var" && !method.starts_with("VarP");
    if !(is_flag_set(operand, scope, src, imports) || (var_method && pointer_first)) {
        return;
    }
    let value = |i: usize| args.get(i).map(|a| value_of(*a, scope, src, imports));
    let (Some(name), Some(help)) = (value(layout.name), value(layout.usage)) else {
        return;
    };
    let target = if pointer_first {
        args.first()
            .and_then(|a| flag_target(*a, scope, src, imports))
    } else {
        result_target(node, scope, src)
    };
    out.flags.push(RawFlag {
        line: line_of(node),
        func,
        kind: layout.kind.to_string(),
        command: cobra::flags_owner(operand, scope, src, imports),
        name,
        shorthand: layout.short.and_then(value),
        default: layout.default.and_then(value),
        default_is_value: layout.default_is_value,
        help,
        target,
    });
}

/// True when `node` denotes a flag set: the `flag`/`pflag` package itself, its
/// `CommandLine`, a `NewFlagSet(…)`, cobra's `Flags()`/`PersistentFlags()`, or a variable or
/// parameter holding one of those or declared `*flag.FlagSet`/`*pflag.FlagSet`.
fn is_flag_set(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> bool {
    let is_flag_pkg =
        |q: &str| names_import(imports, q, STD_FLAG) || names_import(imports, q, PFLAG);
    let n = scope.resolve_value(node, src);
    match n.kind_name() {
        "identifier" => {
            let name = text(n, src);
            match scope.lookup(name, n.start_byte()) {
                None => is_flag_pkg(name),
                Some(super::scope::Binding::Param(_, Some(t)))
                | Some(super::scope::Binding::Typed(t)) => {
                    t.name == "FlagSet" && t.qualifier.as_deref().is_some_and(is_flag_pkg)
                }
                Some(_) => false,
            }
        }
        "selector_expression" => {
            let operand = n.child_by_field_id(FIELD.operand);
            let field = n.child_by_field_id(FIELD.field).map(|f| text(f, src));
            field == Some("CommandLine")
                && operand
                    .is_some_and(|o| o.kind_name() == "identifier" && is_flag_pkg(text(o, src)))
        }
        "call_expression" => {
            let Some(f) = callee(n).filter(|f| f.kind_name() == "selector_expression") else {
                return false;
            };
            let method = f.child_by_field_id(FIELD.field).map(|m| text(m, src));
            let operand = f.child_by_field_id(FIELD.operand);
            match method {
                Some("Flags" | "PersistentFlags" | "LocalFlags") => true,
                Some("NewFlagSet") => operand
                    .is_some_and(|o| o.kind_name() == "identifier" && is_flag_pkg(text(o, src))),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Folds runs of whitespace (newlines and indentation in multi-line expressions) to one space.
pub(crate) fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `string(x)` and similar conversions to a string type leave the value unchanged.
pub(crate) fn unwrap_conversion<'t>(node: Node<'t>, src: &[u8]) -> Node<'t> {
    let mut n = node;
    for _ in 0..4 {
        if n.kind_name() == "parenthesized_expression"
            && let Some(inner) = n.named_child(0)
        {
            n = inner;
            continue;
        }
        if n.kind_name() != "call_expression" {
            break;
        }
        let is_string_conv =
            callee(n).is_some_and(|f| f.kind_name() == "identifier" && text(f, src) == "string");
        let args = n.child_by_field_id(FIELD.arguments);
        match args
            .filter(|a| a.named_child_count() == 1)
            .and_then(|a| a.named_child(0))
        {
            Some(arg) if is_string_conv => n = arg,
            _ => break,
        }
    }
    n
}

/// The string constant expression `node` denotes, when none of its names is a local variable.
pub(crate) fn string_in_scope(node: Node, scope: &Scope, src: &[u8]) -> Option<ConstExpr> {
    let n = unwrap_conversion(scope.resolve_value(node, src), src);
    let expr = const_expr(n, src)?;
    let mut locals = false;
    for_each_plain_identifier(n, |id| {
        if scope.lookup(text(id, src), id.start_byte()).is_some() {
            locals = true;
        }
    });
    (!locals).then_some(expr)
}

/// Reads an argument or field value as written, with what can be evaluated later.
pub fn value_of(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> RawValue {
    let mut v = RawValue {
        text: fold(text(node, src)),
        string: string_in_scope(node, scope, src),
        ..RawValue::default()
    };
    let n = scope.resolve_value(node, src);
    if let Some(names) = literal_names(n, scope, src, imports) {
        v.literal = true;
        v.names = names;
    }
    if n.kind_name() == "selector_expression"
        && let Some(Chain { root, steps }) = scope.chain_of(n, src)
    {
        let path: Option<Vec<String>> = steps
            .into_iter()
            .map(|s| match s {
                Step::Field(f) => Some(f),
                Step::Call(_) | Step::Elem => None,
            })
            .collect();
        if let Some(path) = path.filter(|p| !p.is_empty()) {
            v.field = Some(FieldRef { root, path });
        }
    }
    v.call = made_by(n, scope, src);
    v.num = flag_default::num_expr(n, scope, src, imports);
    v.env = getenv_arg(n, scope, src, imports);
    v.items = slice_items(n, scope, src, imports);
    v
}

/// The elements of a slice literal (`[]string{"a"}`), none for `nil` or `[]T{}`; each
/// element read without its own elements.
fn slice_items(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<Vec<RawValue>> {
    if node.kind_name() == "nil" || (node.kind_name() == "identifier" && text(node, src) == "nil") {
        return Some(Vec::new());
    }
    if node.kind_name() != "composite_literal"
        || node
            .child_by_field_id(FIELD.ty)
            .is_none_or(|t| t.kind_name() != "slice_type")
    {
        return None;
    }
    let body = node.child_by_field_id(FIELD.body)?;
    let mut c = body.walk();
    let mut items = Vec::new();
    for element in body.named_children(&mut c) {
        if element.kind_name() == "comment" {
            continue;
        }
        let e = (element.kind_name() == "literal_element")
            .then(|| element.named_child(0))
            .flatten()?;
        let mut v = RawValue {
            text: fold(text(e, src)),
            string: string_in_scope(e, scope, src),
            ..RawValue::default()
        };
        v.num = flag_default::num_expr(e, scope, src, imports);
        items.push(v);
    }
    Some(items)
}

/// `NAME` of `os.Getenv(NAME)` with a constant name.
pub(crate) fn getenv_arg(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<ConstExpr> {
    if node.kind_name() != "call_expression" {
        return None;
    }
    let f = callee(node).filter(|f| f.kind_name() == "selector_expression")?;
    let operand = f.child_by_field_id(FIELD.operand)?;
    if operand.kind_name() != "identifier"
        || scope
            .lookup(text(operand, src), operand.start_byte())
            .is_some()
        || !names_import(imports, text(operand, src), "os")
        || text(f.child_by_field_id(FIELD.field)?, src) != "Getenv"
    {
        return None;
    }
    let args = node.child_by_field_id(FIELD.arguments)?;
    if args.named_child_count() != 1 {
        return None;
    }
    string_in_scope(args.named_child(0)?, scope, src)
}

/// The package-level function whose result `node` is (`F(…)`, `pkg.F(…)`, behind `*`/`&`).
fn made_by(node: Node, scope: &Scope, src: &[u8]) -> Option<(Option<String>, String)> {
    let mut n = node;
    while n.kind_name() == "unary_expression" {
        n = n.child_by_field_id(FIELD.operand)?;
    }
    if n.kind_name() != "call_expression" {
        return None;
    }
    let f = callee(n)?;
    let not_local = |id: Node| scope.lookup(text(id, src), id.start_byte()).is_none();
    match f.kind_name() {
        "identifier" if not_local(f) => Some((None, text(f, src).to_string())),
        "selector_expression" => {
            let operand = f.child_by_field_id(FIELD.operand)?;
            (operand.kind_name() == "identifier" && not_local(operand)).then(|| {
                (
                    Some(text(operand, src).to_string()),
                    text(f.child_by_field_id(FIELD.field).unwrap_or(f), src).to_string(),
                )
            })
        }
        _ => None,
    }
}

const CONVERSIONS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64", "byte", "rune",
];

/// The constant names a literal-looking expression uses, or None if it is not one.
fn literal_names(
    node: Node,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<Vec<(Option<String>, String)>> {
    let is_time = |q: &str| names_import(imports, q, "time");
    let mut names = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "int_literal"
            | "float_literal"
            | "imaginary_literal"
            | "rune_literal"
            | "interpreted_string_literal"
            | "raw_string_literal"
            | "true"
            | "false"
            | "nil"
            | "iota"
            | "comment" => {}
            "identifier" => {
                let name = text(n, src);
                if matches!(name, "true" | "false" | "nil" | "iota") {
                    continue;
                }
                if scope.lookup(name, n.start_byte()).is_some() {
                    return None;
                }
                names.push((None, name.to_string()));
            }
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                if operand.kind_name() != "identifier"
                    || scope
                        .lookup(text(operand, src), operand.start_byte())
                        .is_some()
                {
                    return None;
                }
                let q = text(operand, src);
                if !is_time(q) {
                    let field = text(n.child_by_field_id(FIELD.field)?, src);
                    names.push((Some(q.to_string()), field.to_string()));
                }
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "literal_value"
            | "literal_element"
            | "keyed_element"
            | "argument_list" => {
                let op = n.child_by_field_id(FIELD.operator).map(|o| text(o, src));
                if matches!(op, Some("&" | "<-" | "*")) && n.kind_name() == "unary_expression" {
                    return None;
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            "composite_literal" => {
                let ty = n.child_by_field_id(FIELD.ty)?;
                if !matches!(
                    ty.kind_name(),
                    "slice_type" | "array_type" | "implicit_length_array_type" | "map_type"
                ) {
                    return None;
                }
                stack.push(n.child_by_field_id(FIELD.body)?);
            }
            "call_expression" => {
                let f = callee(n)?;
                let conversion = match f.kind_name() {
                    "identifier" => CONVERSIONS.contains(&text(f, src)),
                    "selector_expression" => {
                        f.child_by_field_id(FIELD.operand)
                            .is_some_and(|o| o.kind_name() == "identifier" && is_time(text(o, src)))
                            && f.child_by_field_id(FIELD.field)
                                .is_some_and(|x| text(x, src) == "Duration")
                    }
                    _ => false,
                };
                if !conversion {
                    return None;
                }
                stack.push(n.child_by_field_id(FIELD.arguments)?);
            }
            _ => return None,
        }
    }
    Some(names)
}

/// The struct literal a function returns, when its only return statement returns one.
fn returned_literal(
    ctx: &FuncCtx,
    scope: &Scope,
    src: &[u8],
    imports: &[Import],
) -> Option<Constructor> {
    let returns = ctx.own_returns();
    let [ret] = returns.as_slice() else {
        return None;
    };
    let mut lit = ret.named_child(0)?.named_child(0)?;
    if lit.kind_name() == "unary_expression" {
        lit = lit.child_by_field_id(FIELD.operand)?;
    }
    if lit.kind_name() != "composite_literal" {
        return None;
    }
    let mut fields = Vec::new();
    // (literal body, path of keys to it, reached through embedded structs only)
    let mut stack = vec![(
        lit.child_by_field_id(FIELD.body)?,
        Vec::<String>::new(),
        true,
    )];
    while let Some((body, prefix, promoted)) = stack.pop() {
        for (key, value) in super::syntax::keyed_elements(body) {
            let key = text(key, src).to_string();
            let mut path = prefix.clone();
            path.push(key.clone());
            // A function or a struct is never a flag's value: only the struct's own
            // fields are kept.
            let struct_literal = value.kind_name() == "composite_literal"
                && value.child_by_field_id(FIELD.ty).is_some_and(|t| {
                    !matches!(t.kind_name(), "slice_type" | "array_type" | "map_type")
                });
            if struct_literal && path.len() < 4 {
                let ty = value
                    .child_by_field_id(FIELD.ty)
                    .and_then(|t| super::types::type_ref(t, src));
                if let Some(inner) = value.child_by_field_id(FIELD.body) {
                    let embedded = ty.is_some_and(|t| t.name == key);
                    stack.push((inner, path.clone(), promoted && embedded));
                }
            }
            if struct_literal || value.kind_name() == "func_literal" {
                continue;
            }
            fields.push(LiteralField {
                path,
                promoted,
                value: value_of(value, scope, src, imports),
            });
        }
    }
    Some(Constructor {
        func: 0,
        line: line_of(lit),
        fields,
    })
}

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
    for (fi, func, line, name) in eval.env_reads(diagnostics) {
        let var = EnvVar {
            name,
            sources: vec![SourceRef::new(&files[fi].facts.path, line)],
        };
        placement.place(fi, func, &mut |b| b.env.push(var.clone()));
    }
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
            if prog.package == pkg || prog.reach.contains((fi, func)) {
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
            packages[fi] == prog.package || prog.reach.contains((fi, func))
        };
        prog.binary.commands = commands.tree(eval, &belongs, command_flags);
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
        crate::merge::merge_identical(&mut b.flags);
        b.env
            .sort_by(|a, c| (&a.name, &a.sources).cmp(&(&c.name, &c.sources)));
        crate::merge::merge_identical(&mut b.env);
    }
    // A library package with nothing in it is not worth a row (cannot happen today, but
    // keeps the output honest if a fact is dropped after its entry was made).
    out.retain(|b| !b.is_package() || !b.flags.is_empty() || !b.env.is_empty());
    out
}

/// The package (import path, else folder) of each file.
pub fn package_names(files: &[GoInput], index: &GoIndex) -> Vec<String> {
    files
        .iter()
        .map(|input| {
            let f = &input.facts;
            index
                .package_of(f)
                .map(str::to_string)
                .unwrap_or_else(|| dir_of(&f.path).to_string())
        })
        .collect()
}

/// A program (`package main` folder) and what it is shown to reach.
pub struct ProgramReach<'p> {
    pub package: &'p str,
    /// The in-repo packages it links, itself included.
    pub linked: BTreeSet<&'p str>,
    /// Functions reached from `main`, `init`s and package-level initializers of linked
    /// packages.
    pub reach: super::calls::Reach,
    pub main_at: Option<SourceRef>,
    pub area: Area,
}

/// Every program of the project with what it reaches (`packages` from `package_names`).
pub fn program_reach<'p>(
    files: &[GoInput],
    packages: &'p [String],
    graph: &Graph,
) -> Vec<ProgramReach<'p>> {
    let known: HashSet<&str> = packages.iter().map(String::as_str).collect();
    // In-repo imports of each package, for the packages a program links.
    let mut imports: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        let entry = imports.entry(packages[fi].as_str()).or_default();
        for imp in &input.facts.imports {
            if let Some(p) = known.get(imp.path.as_str()) {
                entry.insert(p);
            }
        }
    }
    let mut mains: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (fi, input) in files.iter().enumerate() {
        if input.facts.package == "main" {
            mains.entry(packages[fi].as_str()).or_default().push(fi);
        }
    }
    let mut programs = Vec::new();
    for (pkg, members) in &mains {
        let mut linked: BTreeSet<&str> = BTreeSet::from([*pkg]);
        let mut queue = vec![*pkg];
        while let Some(p) = queue.pop() {
            for dep in imports.get(p).into_iter().flatten() {
                if linked.insert(dep) {
                    queue.push(dep);
                }
            }
        }
        let mut roots: Vec<FuncId> = Vec::new();
        let mut main_at = None;
        for (fi, input) in files.iter().enumerate() {
            let in_main = members.contains(&fi);
            if !in_main && !linked.contains(packages[fi].as_str()) {
                continue;
            }
            for (i, f) in input.facts.call_facts.iter().enumerate() {
                let init = f.receiver.is_none() && f.name == "init";
                let main = in_main && f.receiver.is_none() && f.name == "main";
                if f.is_top_level() || init || main {
                    roots.push((fi, i));
                }
                if main && main_at.is_none() {
                    main_at = Some(SourceRef::new(&input.facts.path, f.line));
                }
            }
        }
        programs.push(ProgramReach {
            package: pkg,
            linked,
            reach: graph.reachable(roots),
            main_at,
            area: members
                .first()
                .map(|&fi| files[fi].area)
                .unwrap_or_default(),
        });
    }
    programs
}

/// A cobra command literal: (file, index in that file's `cobra.commands`).
type CommandId = (usize, usize);

/// Resolves how code names a cobra command to the literal that made it.
struct Commands<'a> {
    files: &'a [GoInput],
    graph: &'a Graph<'a>,
    packages: &'a [String],
}

/// Deepest command path followed; cobra trees are a few levels deep.
const MAX_COMMAND_DEPTH: usize = 16;

impl Commands<'_> {
    fn of(&self, fi: usize) -> &[CobraCommand] {
        &self.files[fi].facts.binaries.cobra.commands
    }

    /// The one literal a reference names from function `func` of file `fi`, if exactly one.
    fn find(&self, fi: usize, func: usize, r: &CmdRef) -> Option<CommandId> {
        self.find_at(fi, func, r, 0)
    }

    fn find_at(&self, fi: usize, func: usize, r: &CmdRef, depth: usize) -> Option<CommandId> {
        let one = |found: Vec<CommandId>| match found.as_slice() {
            [id] => Some(*id),
            _ => None,
        };
        match r {
            CmdRef::Literal(line) => one((self.of(fi).iter().enumerate())
                .filter(|(_, c)| c.line == *line)
                .map(|(i, _)| (fi, i))
                .collect()),
            CmdRef::Var(name) => {
                let local: Vec<CommandId> = (self.of(fi).iter().enumerate())
                    .filter(|(_, c)| {
                        !c.package_level && c.func == func && c.var.as_deref() == Some(name)
                    })
                    .map(|(i, _)| (fi, i))
                    .collect();
                if !local.is_empty() {
                    return one(local);
                }
                let pkg = &self.packages[fi];
                let mut found = Vec::new();
                for (f, _) in self.files.iter().enumerate() {
                    if &self.packages[f] != pkg {
                        continue;
                    }
                    for (i, c) in self.of(f).iter().enumerate() {
                        if c.package_level && c.var.as_deref() == Some(name) {
                            found.push((f, i));
                        }
                    }
                }
                one(found)
            }
            CmdRef::Call(q, name) => {
                let targets = self.graph.function(fi, q.as_deref(), name);
                let [(tf, tfunc)] = targets.as_slice() else {
                    return None;
                };
                let literal: Vec<CommandId> = (self.of(*tf).iter().enumerate())
                    .filter(|(_, c)| c.returned && c.func == *tfunc)
                    .map(|(i, _)| (*tf, i))
                    .collect();
                if !literal.is_empty() || depth >= MAX_COMMAND_DEPTH {
                    return one(literal);
                }
                // The function returns what another function made.
                let mut via: Vec<CommandId> = (self.files[*tf].facts.binaries.cobra.returns)
                    .iter()
                    .filter(|(f, _)| f == tfunc)
                    .filter_map(|(_, r)| self.find_at(*tf, *tfunc, r, depth + 1))
                    .collect();
                via.sort_unstable();
                via.dedup();
                one(via)
            }
        }
    }

    /// The commands of one program as a flat list with full paths, roots first by path.
    fn tree(
        &self,
        eval: &Evaluator,
        belongs: &dyn Fn(usize, usize) -> bool,
        flags: &[(usize, usize, CommandId, String)],
    ) -> Vec<Command> {
        let mut members: Vec<CommandId> = Vec::new();
        for fi in 0..self.files.len() {
            for (i, c) in self.of(fi).iter().enumerate() {
                if belongs(fi, c.func) {
                    members.push((fi, i));
                }
            }
        }
        if members.is_empty() {
            return Vec::new();
        }
        let mut edges: BTreeMap<CommandId, Vec<CommandId>> = BTreeMap::new();
        let mut children: BTreeSet<CommandId> = BTreeSet::new();
        for (fi, input) in self.files.iter().enumerate() {
            for add in &input.facts.binaries.cobra.adds {
                if !belongs(fi, add.func) {
                    continue;
                }
                let Some(parent) = self.find(fi, add.func, &add.parent) else {
                    continue;
                };
                if !members.contains(&parent) {
                    continue;
                }
                for child in &add.children {
                    if let Some(c) = self.find(fi, add.func, child)
                        && c != parent
                    {
                        edges.entry(parent).or_default().push(c);
                        children.insert(c);
                    }
                }
            }
        }
        let name_of = |(fi, i): CommandId| -> Option<String> {
            let c = &self.of(fi)[i];
            let use_ = eval.eval_str(fi, c.use_.as_ref()?)?;
            cobra::command_name(&use_)
        };
        let mut out = Vec::new();
        let mut seen: BTreeSet<CommandId> = BTreeSet::new();
        let mut stack: Vec<(CommandId, String, usize)> = members
            .iter()
            .filter(|m| !children.contains(m))
            .filter_map(|m| name_of(*m).map(|n| (*m, n, 0)))
            .collect();
        while let Some((id, path, depth)) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let (fi, i) = id;
            let c = &self.of(fi)[i];
            let mut own: Vec<String> = flags
                .iter()
                .filter(|(ffi, func, cid, _)| *cid == id && belongs(*ffi, *func))
                .map(|(_, _, _, n)| n.clone())
                .collect();
            own.sort();
            own.dedup();
            out.push(Command {
                name: name_of(id).unwrap_or_default(),
                path: path.clone(),
                short: c
                    .short
                    .as_ref()
                    .and_then(|e| eval.eval_str(fi, e))
                    .unwrap_or_default(),
                flags: own,
                sources: vec![SourceRef::new(&self.files[fi].facts.path, c.line)],
            });
            if depth >= MAX_COMMAND_DEPTH {
                continue;
            }
            for child in edges.get(&id).into_iter().flatten() {
                if let Some(n) = name_of(*child) {
                    stack.push((*child, format!("{path} {n}"), depth + 1));
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
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

/// Evaluates raw values with the project's constants, constructors and call graph.
/// Evaluates values the way flag defaults are evaluated (constants of any package,
/// durations, a field read from its constructor's literal); shared with `manager`.
pub(super) struct Evaluator<'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    graph: &'a Graph<'a>,
    /// (package, name) → (file, value) for non-string constants.
    value_consts: HashMap<(String, String), (usize, &'a RawValue)>,
    /// Function → the literal it returns.
    constructors: HashMap<FuncId, &'a Constructor>,
    /// Method → the one constructor all its callers' receivers come from, if there is one.
    receiver_origins: HashMap<FuncId, Option<FuncId>>,
    /// (package, name) → (file, items, separator) of `strings.Join` variables.
    joins: HashMap<(String, String), (usize, &'a [ConstExpr], &'a ConstExpr)>,
}

const MAX_EVAL_DEPTH: usize = 8;

/// How an evaluated default is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// As `--help` prints it.
    Value,
    /// Go source text portolan could not evaluate.
    Expr,
    /// `$NAME`: an environment variable's value at run time.
    Env,
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(files: &'a [GoInput], index: &'a GoIndex<'a>, graph: &'a Graph<'a>) -> Self {
        let mut value_consts = HashMap::new();
        let mut constructors = HashMap::new();
        let mut needs_origin: HashSet<FuncId> = HashSet::new();
        let mut joins = HashMap::new();
        for (fi, input) in files.iter().enumerate() {
            let b = &input.facts.binaries;
            if let Some(pkg) = index.package_of(&input.facts) {
                for (name, v) in &b.value_consts {
                    value_consts
                        .entry((pkg.to_string(), name.clone()))
                        .or_insert((fi, v));
                }
                for (name, items, sep) in &b.joins {
                    joins.entry((pkg.to_string(), name.clone())).or_insert((
                        fi,
                        items.as_slice(),
                        sep,
                    ));
                }
            }
            for c in &b.constructors {
                constructors.insert((fi, c.func), c);
            }
            for f in &b.flags {
                let receiver_field = f
                    .default
                    .as_ref()
                    .and_then(|d| d.field.as_ref())
                    .is_some_and(|r| matches!(r.root, Root::Receiver(_)));
                if receiver_field {
                    needs_origin.insert((fi, f.func));
                }
            }
        }
        let receiver_origins = receiver_origins(files, graph, &constructors, needs_origin);
        Evaluator {
            files,
            index,
            graph,
            value_consts,
            constructors,
            receiver_origins,
            joins,
        }
    }

    /// A value written in function `func` of file `fi`, shown as a flag of pflag type
    /// `kind` shows its default; the bool is true when it is Go source text instead.
    pub(super) fn show(&self, fi: usize, v: &RawValue, kind: &str, func: usize) -> (String, bool) {
        let (value, shown) = self.value(fi, v, kind, Some((fi, func)), 0);
        match shown {
            Shown::Value => (value, false),
            // `$NAME` is an environment variable read at run time: not a constant.
            Shown::Env | Shown::Expr => (v.text.clone(), true),
        }
    }

    /// A string expression's value: `GoIndex::eval`, plus `strings.Join` variables.
    fn eval_str(&self, fi: usize, e: &ConstExpr) -> Option<String> {
        let file = &self.files[fi].facts;
        if let Some(s) = self.index.eval(file, e) {
            return Some(s);
        }
        // Only the parts the index cannot evaluate are looked up as joins, one level deep.
        let parts: Vec<&ConstExpr> = match e {
            ConstExpr::Concat(parts) => parts.iter().collect(),
            other => vec![other],
        };
        let mut out = String::new();
        for part in parts {
            if let Some(s) = self.index.eval(file, part) {
                out.push_str(&s);
                continue;
            }
            let ConstExpr::Ref { qualifier, name } = part else {
                return None;
            };
            let pkg = self.index.type_package(file, qualifier.as_deref())?;
            let (jfi, items, sep) = self.joins.get(&(pkg, name.clone()))?;
            let jfile = &self.files[*jfi].facts;
            let items = items
                .iter()
                .map(|i| self.index.eval(jfile, i))
                .collect::<Option<Vec<_>>>()?;
            out.push_str(&items.join(&self.index.eval(jfile, sep)?));
        }
        Some(out)
    }

    fn flag(&self, fi: usize, raw: &RawFlag, diagnostics: &mut Vec<Diagnostic>) -> Option<Flag> {
        let file = &self.files[fi].facts;
        let Some(name) = raw.name.string.as_ref().and_then(|e| self.eval_str(fi, e)) else {
            let why = match self.outside_constant(fi, raw.name.string.as_ref()) {
                Some(path) => format!(
                    "`{}` is a constant of `{path}`, a package outside the repository whose value portolan does not read",
                    raw.name.text
                ),
                None => format!("`{}` is not a string constant", raw.name.text),
            };
            diagnostics.push(Diagnostic::new(
                &file.path,
                raw.line,
                format!("cannot resolve the name of this flag: {why}; the flag is not listed"),
            ));
            return None;
        };
        let shorthand = match &raw.shorthand {
            None => String::new(),
            Some(s) => s
                .string
                .as_ref()
                .and_then(|e| self.eval_str(fi, e))
                .unwrap_or_else(|| "?".to_string()),
        };
        let (default, shown) = match (&raw.default, raw.default_is_value) {
            (Some(v), true) => (v.text.clone(), Shown::Expr),
            (Some(v), false) => self.value(fi, v, &raw.kind, Some((fi, raw.func)), 0),
            (None, _) if raw.kind == "count" => ("0".to_string(), Shown::Value),
            (None, _) => (String::new(), Shown::Value),
        };
        let (help, help_shown) = self.value(fi, &raw.help, "string", None, 0);
        let help_expr = help_shown != Shown::Value;
        let help = if help_shown == Shown::Env {
            raw.help.text.clone()
        } else {
            help
        };
        Some(Flag {
            name,
            shorthand,
            kind: raw.kind.clone(),
            default,
            default_expr: shown == Shown::Expr,
            default_env: shown == Shown::Env,
            help,
            help_expr,
            library: String::new(),
            sources: vec![SourceRef::new(&file.path, raw.line)],
        })
    }

    /// The import path of `pkg` in a lone `pkg.Name` when that package is not in the
    /// repository (a constant of another module, whose value is not known here).
    fn outside_constant(&self, fi: usize, e: Option<&ConstExpr>) -> Option<String> {
        let Some(ConstExpr::Ref {
            qualifier: Some(q), ..
        }) = e
        else {
            return None;
        };
        let path = self.index.import_for(&self.files[fi].facts, q)?;
        self.index.dir_of_import(&path).is_none().then_some(path)
    }

    /// (value, how it is shown) for a value written in file `fi`, inside function `func`,
    /// formatted as a flag of pflag type `kind` prints its default.
    fn value(
        &self,
        fi: usize,
        v: &RawValue,
        kind: &str,
        func: Option<FuncId>,
        depth: usize,
    ) -> (String, Shown) {
        let file = &self.files[fi].facts;
        if depth < MAX_EVAL_DEPTH {
            if let Some(s) = v.string.as_ref().and_then(|e| self.eval_str(fi, e)) {
                return (s, Shown::Value);
            }
            if let Some(name) = v.env.as_ref().and_then(|e| self.eval_str(fi, e)) {
                return (format!("${name}"), Shown::Env);
            }
            if let Some(s) = v
                .num
                .as_ref()
                .and_then(|t| self.num(fi, t, depth))
                .and_then(|n| flag_default::format(kind, n))
            {
                return (s, Shown::Value);
            }
            if let (Some(element), Some(items)) = (flag_default::slice_element(kind), &v.items) {
                let shown: Option<Vec<String>> = items
                    .iter()
                    .map(|item| match element {
                        "string" => item.string.as_ref().and_then(|e| self.eval_str(fi, e)),
                        "bool" => matches!(item.text.as_str(), "true" | "false")
                            .then(|| item.text.clone()),
                        _ => item
                            .num
                            .as_ref()
                            .and_then(|t| self.num(fi, t, depth))
                            .and_then(|n| flag_default::format(element, n)),
                    })
                    .collect();
                if let Some(s) = shown {
                    return (flag_default::format_slice(kind, &s), Shown::Value);
                }
            }
            if v.literal {
                if let [(q, name)] = v.names.as_slice() {
                    let written = match q {
                        Some(q) => format!("{q}.{name}"),
                        None => name.clone(),
                    };
                    if v.text == written
                        && let Some((cfi, cv)) = self.value_const(fi, q.as_deref(), name)
                    {
                        return self.value(cfi, cv, kind, None, depth + 1);
                    }
                }
                let all_known = v.names.iter().all(|(q, name)| {
                    self.value_const(fi, q.as_deref(), name).is_some()
                        || self
                            .index
                            .eval(
                                file,
                                &ConstExpr::Ref {
                                    qualifier: q.clone(),
                                    name: name.clone(),
                                },
                            )
                            .is_some()
                });
                if all_known {
                    return (v.text.clone(), Shown::Value);
                }
            }
            if let Some(field) = &v.field
                && let Some(found) = self.field_default(fi, field, kind, func, depth)
            {
                return found;
            }
        }
        (v.text.clone(), Shown::Expr)
    }

    /// A numeric constant expression's value, its constants looked up across packages.
    fn num(&self, fi: usize, tokens: &[NumTok], depth: usize) -> Option<Num> {
        if depth >= MAX_EVAL_DEPTH {
            return None;
        }
        flag_default::eval(tokens, &mut |q, name| {
            let (cfi, cv) = self.value_const(fi, q, name)?;
            self.num(cfi, cv.num.as_deref()?, depth + 1)
        })
    }

    fn value_const(&self, fi: usize, q: Option<&str>, name: &str) -> Option<(usize, &'a RawValue)> {
        let pkg = self.index.type_package(&self.files[fi].facts, q)?;
        self.value_consts.get(&(pkg, name.to_string())).copied()
    }

    /// The value a constructor's literal gives a field, or the zero value it leaves.
    fn field_default(
        &self,
        fi: usize,
        field: &FieldRef,
        kind: &str,
        func: Option<FuncId>,
        depth: usize,
    ) -> Option<(String, Shown)> {
        let ctor = match &field.root {
            Root::Call { qualifier, name } => *self
                .graph
                .function(fi, qualifier.as_deref(), name)
                .first()?,
            Root::Receiver(_) => (*self.receiver_origins.get(&func?)?)?,
            Root::Type(_) => return None,
        };
        let literal = self.constructors.get(&ctor)?;
        match literal.field(&field.path) {
            Some(v) => Some(self.value(ctor.0, v, kind, Some(ctor), depth + 1)),
            None => zero_value(kind).map(|z| (z.to_string(), Shown::Value)),
        }
    }

    /// Every environment read with a resolved name: direct reads with a constant name, and
    /// calls that pass a constant to a helper's parameter that ends in `os.Getenv`.
    /// (file, function, line, name).
    fn env_reads(&self, diagnostics: &mut Vec<Diagnostic>) -> Vec<(usize, usize, u32, String)> {
        let mut out = Vec::new();
        // (function, parameter) pairs whose argument is read as an environment variable name.
        let mut helpers: HashSet<(FuncId, usize)> = HashSet::new();
        for (fi, input) in self.files.iter().enumerate() {
            let file = &input.facts;
            for read in &file.binaries.env_reads {
                match &read.name {
                    EnvName::Param(i) => {
                        helpers.insert(((fi, read.func), *i));
                    }
                    EnvName::Str(e) => match self.index.eval(file, e) {
                        Some(name) => out.push((fi, read.func, read.line, name)),
                        None => {
                            diagnostics.push(unresolved_env(&file.path, read.line, &e.written()))
                        }
                    },
                    EnvName::Other(t) => diagnostics.push(unresolved_env(&file.path, read.line, t)),
                }
            }
        }
        if helpers.is_empty() {
            return out;
        }
        // Calls that can reach a helper: those passing a parameter or a constant.
        let mut candidates = Vec::new();
        for (fi, input) in self.files.iter().enumerate() {
            for (i, f) in input.facts.call_facts.iter().enumerate() {
                for call in &f.calls {
                    if call
                        .args
                        .iter()
                        .any(|a| matches!(a, Arg::Param(_) | Arg::Str(_)))
                    {
                        let targets = self.graph.resolve(fi, &call.target);
                        if !targets.is_empty() {
                            candidates.push(((fi, i), call, targets));
                        }
                    }
                }
            }
        }
        // A function passing its own parameter on to a helper is a helper too.
        loop {
            let mut grew = false;
            for (caller, call, targets) in &candidates {
                for (k, arg) in call.args.iter().enumerate() {
                    if let Arg::Param(p) = arg
                        && targets.iter().any(|t| helpers.contains(&(*t, k)))
                        && helpers.insert((*caller, *p))
                    {
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        for ((fi, func), call, targets) in &candidates {
            for (k, arg) in call.args.iter().enumerate() {
                if !targets.iter().any(|t| helpers.contains(&(*t, k))) {
                    continue;
                }
                let file = &self.files[*fi].facts;
                match arg {
                    Arg::Str(e) => match self.index.eval(file, e) {
                        Some(name) => out.push((*fi, *func, call.line, name)),
                        None => {
                            diagnostics.push(unresolved_env(&file.path, call.line, &e.written()))
                        }
                    },
                    Arg::Param(_) => {}
                    Arg::Value(_) | Arg::Other => diagnostics.push(unresolved_env(
                        &file.path,
                        call.line,
                        "an expression passed to an environment helper",
                    )),
                }
            }
        }
        out
    }
}

/// Where the receiver of each method that binds flags to its receiver's fields comes from:
/// the one constructor every call site's receiver was made by, if there is exactly one.
///
/// A call site's receiver is followed through fields: `o := NewOptions(); o.AddFlags(fs)`
/// gives `NewOptions`; `o.Logging.AddFlags(fs)` inside a method whose own receiver came from
/// `NewOptions` gives the constructor `NewOptions`' literal calls for its `Logging` field
/// (`Logging: *logging.NewOptions()`). Methods reached that way are resolved together,
/// until nothing changes.
fn receiver_origins<'a>(
    files: &'a [GoInput],
    graph: &Graph,
    constructors: &HashMap<FuncId, &'a Constructor>,
    needed: HashSet<FuncId>,
) -> HashMap<FuncId, Option<FuncId>> {
    let mut origins: HashMap<FuncId, Option<FuncId>> = HashMap::new();
    if needed.is_empty() {
        return origins;
    }
    // Method call sites whose receiver is a constructor's result or the caller's own
    // receiver, through fields only: (callee → [(caller, caller's file, receiver)]).
    let mut sites: HashMap<FuncId, Vec<(FuncId, &'a Chain)>> = HashMap::new();
    for (fi, input) in files.iter().enumerate() {
        for (i, f) in input.facts.call_facts.iter().enumerate() {
            for call in &f.calls {
                let Target::Method { receiver, .. } = &call.target else {
                    continue;
                };
                let fields_only = receiver.steps.iter().all(|s| matches!(s, Step::Field(_)));
                if !fields_only || matches!(receiver.root, Root::Type(_)) {
                    continue;
                }
                for t in graph.resolve(fi, &call.target) {
                    sites.entry(t).or_default().push(((fi, i), receiver));
                }
            }
        }
    }
    // The methods whose origin is needed: those with flags, and the callers that pass a
    // field of their own receiver on to one of them.
    // Sorted, so that the rounds below visit methods in the same order on every run.
    let mut needed: Vec<FuncId> = needed.into_iter().collect();
    needed.sort_unstable();
    let mut seen: HashSet<FuncId> = needed.iter().copied().collect();
    let mut i = 0;
    while i < needed.len() {
        for (caller, chain) in sites.get(&needed[i]).into_iter().flatten() {
            if matches!(chain.root, Root::Receiver(_)) && seen.insert(*caller) {
                needed.push(*caller);
            }
        }
        i += 1;
    }
    for _ in 0..MAX_EVAL_DEPTH {
        let mut changed = false;
        for m in &needed {
            let mut found: BTreeSet<Option<FuncId>> = BTreeSet::new();
            for (caller, chain) in sites.get(m).into_iter().flatten() {
                found.insert(site_origin(graph, constructors, &origins, *caller, chain));
            }
            let one = match found.into_iter().collect::<Vec<_>>().as_slice() {
                [Some(ctor)] => Some(*ctor),
                _ => None,
            };
            if origins.get(m) != Some(&one) {
                origins.insert(*m, one);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    origins
}

/// The constructor that made the receiver of one call site, if it can be established.
fn site_origin(
    graph: &Graph,
    constructors: &HashMap<FuncId, &Constructor>,
    origins: &HashMap<FuncId, Option<FuncId>>,
    caller: FuncId,
    chain: &Chain,
) -> Option<FuncId> {
    let mut at = match &chain.root {
        Root::Call { qualifier, name } => *graph
            .function(caller.0, qualifier.as_deref(), name)
            .first()?,
        Root::Receiver(_) => (*origins.get(&caller)?)?,
        Root::Type(_) => return None,
    };
    for step in &chain.steps {
        let Step::Field(field) = step else {
            return None;
        };
        let literal = constructors.get(&at)?;
        let value = literal.field(std::slice::from_ref(field))?;
        let (qualifier, name) = value.call.as_ref()?;
        at = *graph.function(at.0, qualifier.as_deref(), name).first()?;
    }
    Some(at)
}

fn unresolved_env(path: &str, line: u32, what: &str) -> Diagnostic {
    Diagnostic::new(
        path,
        line,
        format!(
            "cannot resolve the name of this environment variable read: `{what}` is not a string constant"
        ),
    )
}

/// The zero value of a flag type, as pflag prints it.
fn zero_value(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "string" => "",
        "bool" => "false",
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "float32" | "float64" | "count" => "0",
        "duration" => "0s",
        k if k.ends_with("Slice") || k.ends_with("Array") || k.starts_with("stringTo") => "[]",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::test_support;

    /// Analyzes files of a module `example.com/app` and returns (binaries, diagnostics).
    fn analyze(files: &[(&str, &str)]) -> (Vec<Binary>, Vec<Diagnostic>) {
        let inputs: Vec<GoInput> = test_support::inputs(files);
        let modules = vec![test_support::module("example.com/app")];
        let mut diagnostics = Vec::new();
        let found =
            super::super::resolve(&inputs, &modules, &BTreeMap::new(), &[], &mut diagnostics);
        (found.binaries, diagnostics)
    }

    /// One line per flag: `binary --name[,-s] type default[*] | help[*] @file:line…`, where
    /// `*` marks Go source text, then one per environment variable.
    fn rows(binaries: &[Binary]) -> Vec<String> {
        let at = |s: &[SourceRef]| {
            s.iter()
                .map(|s| format!("{}:{}", s.file, s.line))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = Vec::new();
        for b in binaries {
            let who = if b.is_package() {
                format!("pkg:{}", b.package)
            } else {
                b.name.clone()
            };
            for f in &b.flags {
                let short = if f.shorthand.is_empty() {
                    String::new()
                } else {
                    format!(",-{}", f.shorthand)
                };
                let lib = if f.library.is_empty() {
                    String::new()
                } else {
                    format!("[{}] ", f.library)
                };
                out.push(format!(
                    "{who} {lib}--{}{short} {} {:?}{} | {}{} @{}",
                    f.name,
                    f.kind,
                    f.default,
                    match (f.default_expr, f.default_env) {
                        (true, _) => "*",
                        (_, true) => "$",
                        _ => "",
                    },
                    f.help,
                    if f.help_expr { "*" } else { "" },
                    at(&f.sources)
                ));
            }
            for e in &b.env {
                out.push(format!("{who} ${} @{}", e.name, at(&e.sources)));
            }
        }
        out
    }

    #[test]
    fn standard_library_flags_in_all_forms() {
        let (b, d) = analyze(&[(
            "cmd/tool/main.go",
            r#"package main

import (
	"flag"
	"time"
)

var dryRun = flag.Bool("dry-run", false, "Print what would change.")

func main() {
	var addr string
	workers := flag.Int("workers", 4, "Worker count.")
	flag.StringVar(&addr, "addr", ":9000", "Listen address.")
	flag.Duration("timeout", 5*time.Second, "Request timeout.")
	flag.Float64("ratio", 0.5, "Sampling ratio.")
	flag.Uint("burst", 10, "Burst size.")
	flag.Int64("limit", -1, "Byte limit.")
	fs := flag.NewFlagSet("sub", flag.ExitOnError)
	fs.StringVar(&addr, "sub-addr", "", "Address for the subcommand.")
	flag.CommandLine.BoolVar(&verbose, "verbose", true, "Log more.")
	flag.Func("mode", "Mode of operation.", parseMode)
	flag.Var(&levels, "level", "Log level.")
	flag.Parse()
	_ = workers
}
"#,
        )]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"tool --addr string ":9000" | Listen address. @cmd/tool/main.go:13"#,
                r#"tool --burst uint "10" | Burst size. @cmd/tool/main.go:16"#,
                r#"tool --dry-run bool "false" | Print what would change. @cmd/tool/main.go:8"#,
                r#"tool --level value "&levels"* | Log level. @cmd/tool/main.go:22"#,
                r#"tool --limit int64 "-1" | Byte limit. @cmd/tool/main.go:17"#,
                r#"tool --mode func "" | Mode of operation. @cmd/tool/main.go:21"#,
                r#"tool --ratio float64 "0.5" | Sampling ratio. @cmd/tool/main.go:15"#,
                r#"tool --sub-addr string "" | Address for the subcommand. @cmd/tool/main.go:19"#,
                r#"tool --timeout duration "5s" | Request timeout. @cmd/tool/main.go:14"#,
                r#"tool --verbose bool "true" | Log more. @cmd/tool/main.go:20"#,
                r#"tool --workers int "4" | Worker count. @cmd/tool/main.go:12"#,
            ]
        );
        assert_eq!(b[0].sources, vec![SourceRef::new("cmd/tool/main.go", 10)]);
        assert_eq!(b[0].package, "example.com/app/cmd/tool");
    }

    #[test]
    fn kingpin_flags_on_applications_commands_and_the_default_app() {
        let (b, d) = analyze(&[
            (
                "cmd/relay/main.go",
                r#"package main

import (
	"time"

	"github.com/alecthomas/kingpin/v2"
	"example.com/app/internal/build"
)

const (
	pollEvery  = 90 * time.Second
	modeCopy   = "copy"
	envPrefix  = "RELAY_"
)

func main() {
	app := kingpin.New("relay", "Copies things.")
	src := app.Flag("source", "Where to read.").Required().String()
	every := app.Flag("poll-interval", "How often to look.").
		Default(pollEvery.String()).Duration()
	app.Flag("mode", "How to relay.").Default(modeCopy).Enum(modeCopy, "move")
	var level string
	app.Flag("log-level", "Log level.").Short('l').Envar(envPrefix + "LOG_LEVEL").Default("info").StringVar(&level)
	app.Flag("ratio", "Share kept.").Default("0.5").Float64()
	push := app.Command("push", "Push once.")
	push.Flag("force", "Overwrite.").Bool()
	build.AddVersionFlag(app)
	_ = kingpin.MustParse(app.Parse(nil))
	_, _, _ = src, every, level
}
"#,
            ),
            (
                "internal/build/flags.go",
                r#"package build

import kp "gopkg.in/alecthomas/kingpin.v2"

func AddVersionFlag(a *kp.Application) {
	a.Flag("print-version", "Print the version.").Bool()
}
"#,
            ),
            (
                "cmd/probe/main.go",
                r#"package main

import "github.com/alecthomas/kingpin/v2"

var target = kingpin.Flag("target", "What to probe.").Default("localhost:80").URL()

type fake struct{}

func (fake) Flag(name, help string) fake { return fake{} }

func main() {
	var f fake
	f.Flag("not-a-flag", "A method that only shares the name.")
	kingpin.Parse()
	_ = target
}
"#,
            ),
        ]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"probe --target url "localhost:80" | What to probe. @cmd/probe/main.go:5"#,
                r#"relay --force bool "" | Overwrite. @cmd/relay/main.go:26"#,
                r#"relay --log-level,-l string "info" | Log level. @cmd/relay/main.go:23"#,
                r#"relay --mode enum "copy" | How to relay. @cmd/relay/main.go:21"#,
                r#"relay --poll-interval duration "1m30s" | How often to look. @cmd/relay/main.go:19"#,
                r#"relay --print-version bool "" | Print the version. @internal/build/flags.go:6"#,
                r#"relay --ratio float64 "0.5" | Share kept. @cmd/relay/main.go:24"#,
                r#"relay --source string "" | Where to read. @cmd/relay/main.go:18"#,
                "relay $RELAY_LOG_LEVEL @cmd/relay/main.go:23",
            ]
        );
    }

    #[test]
    fn pflag_and_cobra_flags_with_shorthands() {
        let (b, d) = analyze(&[(
            "cmd/knob/main.go",
            r#"package main

import (
	"time"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

func main() {
	port := flag.IntP("port", "p", 8080, "Port to serve on.")
	flag.StringSliceVar(&tags, "tag", []string{"a"}, "Tags to apply.")
	cmd := &cobra.Command{Use: "knob"}
	cmd.Flags().StringVarP(&name, "name", "n", "knob", "Instance name.")
	cmd.PersistentFlags().BoolP("quiet", "q", false, "Print nothing.")
	flags := cmd.Flags()
	flags.CountP("verbose", "v", "More output.")
	flags.DurationVar(&every, "every", time.Minute, "Interval.")
	_ = port
}
"#,
        )]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"knob --every duration "1m0s" | Interval. @cmd/knob/main.go:18"#,
                r#"knob --name,-n string "knob" | Instance name. @cmd/knob/main.go:14"#,
                r#"knob --port,-p int "8080" | Port to serve on. @cmd/knob/main.go:11"#,
                r#"knob --quiet,-q bool "false" | Print nothing. @cmd/knob/main.go:15"#,
                r#"knob --tag stringSlice "[a]" | Tags to apply. @cmd/knob/main.go:12"#,
                r#"knob --verbose,-v count "0" | More output. @cmd/knob/main.go:17"#,
            ]
        );
    }

    #[test]
    fn constants_from_other_files_and_packages_name_default_and_describe_flags() {
        let (b, d) = analyze(&[
            (
                "cmd/knob/main.go",
                r#"package main

import (
	"flag"

	"example.com/app/pkg/defaults"
)

func main() {
	flag.String(flagCache, defaults.CacheDir, helpPrefix+"cache files.")
	flag.Int("retries", defaults.Retries, "Retries.")
	flag.Duration("grace", defaults.Grace, "Grace period.")
	flag.String("mode", string(defaults.ModeFast), "Mode.")
	flag.String("region", region, "Region.")
}
"#,
            ),
            (
                "cmd/knob/names.go",
                "package main\n\nconst flagCache = \"cache-dir\"\n\nconst helpPrefix = \"Where to keep \"\n",
            ),
            (
                "pkg/defaults/defaults.go",
                r#"package defaults

import "time"

type Mode string

const (
	CacheDir          = "/var/cache/" + app
	app               = "knob"
	Retries           = 3
	Grace             = 30 * time.Second
	ModeFast     Mode = "fast"
)
"#,
            ),
        ]);
        assert_eq!(
            rows(&b),
            vec![
                r#"knob --cache-dir string "/var/cache/knob" | Where to keep cache files. @cmd/knob/main.go:10"#,
                r#"knob --grace duration "30s" | Grace period. @cmd/knob/main.go:12"#,
                r#"knob --mode string "fast" | Mode. @cmd/knob/main.go:13"#,
                r#"knob --region string "region"* | Region. @cmd/knob/main.go:14"#,
                r#"knob --retries int "3" | Retries. @cmd/knob/main.go:11"#,
            ]
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn help_listing_choices_with_strings_join_of_constants_is_evaluated() {
        let (b, d) = analyze(&[(
            "cmd/knob/main.go",
            r#"package main

import (
	"flag"
	"strings"
)

const (
	modeFast = "fast"
	modeSafe = "safe"
)

var modes = strings.Join([]string{modeFast, modeSafe}, ", ")

var other = strings.Join(dynamic(), ", ")

func main() {
	flag.String("mode", modeFast, "Mode: one of "+modes+".")
	flag.String("other", "", "One of "+other+".")
}
"#,
        )]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"knob --mode string "fast" | Mode: one of fast, safe. @cmd/knob/main.go:18"#,
                r#"knob --other string "" | "One of "+other+"."* @cmd/knob/main.go:19"#,
            ]
        );
    }

    const OPTIONS: &str = r#"package options

import (
	"os"
	"time"

	"github.com/spf13/pflag"
)

type Common struct {
	LogFormat string
}

type Options struct {
	Common
	Listen  string
	Timeout time.Duration
	Workers int
	Token   string
}

func NewOptions() *Options {
	return &Options{
		Common:  Common{LogFormat: "json"},
		Listen:  DefaultListen,
		Timeout: 30 * time.Second,
		Token:   os.Getenv("KNOB_TOKEN"),
	}
}

const DefaultListen = ":7070"

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Listen, "listen", o.Listen, "Address to listen on.")
	fs.DurationVar(&o.Timeout, "timeout", o.Timeout, "Request timeout.")
	fs.IntVar(&o.Workers, "workers", o.Workers, "Worker count.")
	fs.StringVar(&o.LogFormat, "log-format", o.LogFormat, "Log format.")
	fs.StringVar(&o.Token, "token", o.Token, "API token.")
}
"#;

    #[test]
    fn flags_registered_from_another_package_belong_to_the_calling_binary() {
        let (b, d) = analyze(&[
            (
                "cmd/knobd/main.go",
                r#"package main

import (
	"github.com/spf13/cobra"

	"example.com/app/pkg/options"
)

func main() {
	opts := options.NewOptions()
	cmd := &cobra.Command{Use: "knobd"}
	opts.AddFlags(cmd.Flags())
}
"#,
            ),
            ("pkg/options/options.go", OPTIONS),
        ]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"knobd --listen string ":7070" | Address to listen on. @pkg/options/options.go:34"#,
                r#"knobd --log-format string "json" | Log format. @pkg/options/options.go:37"#,
                r#"knobd --timeout duration "30s" | Request timeout. @pkg/options/options.go:35"#,
                r#"knobd --token string "$KNOB_TOKEN"$ | API token. @pkg/options/options.go:38"#,
                r#"knobd --workers int "0" | Worker count. @pkg/options/options.go:36"#,
                r#"knobd $KNOB_TOKEN @pkg/options/options.go:27"#,
            ]
        );
    }

    #[test]
    fn a_nested_options_struct_takes_its_defaults_from_the_constructor_its_parent_calls() {
        let (b, d) = analyze(&[
            (
                "cmd/knobd/main.go",
                "package main\n\nimport (\n\t\"github.com/spf13/pflag\"\n\n\t\"example.com/app/pkg/server\"\n)\n\nfunc main() {\n\tserver.NewOptions().AddFlags(pflag.CommandLine)\n}\n",
            ),
            (
                "pkg/server/options.go",
                r#"package server

import (
	"github.com/spf13/pflag"

	"example.com/app/pkg/logging"
)

type Options struct {
	Log *logging.Options
}

func NewOptions() *Options {
	return &Options{Log: logging.NewOptions()}
}

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Log.AddFlags(fs)
}
"#,
            ),
            (
                "pkg/logging/logging.go",
                r#"package logging

import "github.com/spf13/pflag"

const defaultLevel = 2

type Options struct {
	Level int
}

func NewOptions() *Options {
	return &Options{Level: defaultLevel}
}

func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVarP(&o.Level, "v", "v", o.Level, "Log verbosity.")
}
"#,
            ),
        ]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![r#"knobd --v,-v int "2" | Log verbosity. @pkg/logging/logging.go:16"#]
        );
    }

    #[test]
    fn flags_no_binary_reaches_stay_with_their_package() {
        let (b, _) = analyze(&[
            ("cmd/knobd/main.go", "package main\n\nfunc main() {\n}\n"),
            ("pkg/options/options.go", OPTIONS),
        ]);
        let rows = rows(&b);
        assert_eq!(
            rows,
            vec![
                r#"pkg:example.com/app/pkg/options --listen string "o.Listen"* | Address to listen on. @pkg/options/options.go:34"#,
                r#"pkg:example.com/app/pkg/options --log-format string "o.LogFormat"* | Log format. @pkg/options/options.go:37"#,
                r#"pkg:example.com/app/pkg/options --timeout duration "o.Timeout"* | Request timeout. @pkg/options/options.go:35"#,
                r#"pkg:example.com/app/pkg/options --token string "o.Token"* | API token. @pkg/options/options.go:38"#,
                r#"pkg:example.com/app/pkg/options --workers int "o.Workers"* | Worker count. @pkg/options/options.go:36"#,
                r#"pkg:example.com/app/pkg/options $KNOB_TOKEN @pkg/options/options.go:27"#,
            ]
        );
        assert_eq!(b[0].name, "knobd");
        assert!(b[0].flags.is_empty());
    }

    #[test]
    fn environment_reads_directly_through_helpers_and_package_initializers() {
        let (b, d) = analyze(&[
            (
                "cmd/knobd/main.go",
                r#"package main

import (
	"os"

	"example.com/app/pkg/env"
	"example.com/app/pkg/names"
)

func main() {
	os.Getenv("HOME")
	if v, ok := os.LookupEnv(names.Region); ok {
		_ = v
	}
	env.Int("KNOB_WORKERS", 4)
	name := "KNOB_ZONE"
	os.Getenv(name)
	key := "A"
	key = "B"
	os.Getenv(key)
	os.Getenv(prefix + suffix())
}
"#,
            ),
            (
                "pkg/env/env.go",
                r#"package env

import "os"

func Int(key string, def int) int {
	return parse(lookup(key), def)
}

func lookup(name string) string {
	v, _ := os.LookupEnv(name)
	return v
}
"#,
            ),
            (
                "pkg/names/names.go",
                "package names\n\nimport \"os\"\n\nconst Region = \"KNOB_\" + \"REGION\"\n\nvar Namespace = os.Getenv(\"POD_NAMESPACE\")\n",
            ),
        ]);
        assert_eq!(
            rows(&b),
            vec![
                "knobd $HOME @cmd/knobd/main.go:11",
                "knobd $KNOB_REGION @cmd/knobd/main.go:12",
                "knobd $KNOB_WORKERS @cmd/knobd/main.go:15",
                "knobd $KNOB_ZONE @cmd/knobd/main.go:17",
                "knobd $POD_NAMESPACE @pkg/names/names.go:7",
            ]
        );
        let lines: Vec<u32> = d.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![20, 21], "{d:?}");
        assert!(d[0].message.contains("`key`"), "{d:?}");
    }

    #[test]
    fn a_reconciler_set_up_from_main_reaches_its_reconcile() {
        let (b, _) = analyze(&[
            (
                "cmd/main.go",
                r#"package main

import "example.com/app/internal/controller"

func main() {
	(&controller.WidgetReconciler{}).SetupWithManager(mgr)
}
"#,
            ),
            (
                "internal/controller/widget.go",
                r#"package controller

import "os"

type WidgetReconciler struct{}

func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = os.Getenv("WIDGET_IMAGE")
	return ctrl.Result{}, nil
}
"#,
            ),
        ]);
        assert_eq!(
            rows(&b),
            vec!["cmd $WIDGET_IMAGE @internal/controller/widget.go:12"]
        );
    }

    #[test]
    fn binaries_are_named_after_their_folder_or_module_and_samples_are_marked() {
        let (b, _) = analyze(&[
            ("main.go", "package main\n\nfunc main() {}\n"),
            (
                "hack/gen/main.go",
                "package main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.Bool(\"check\", false, \"Only check.\")\n}\n",
            ),
            ("cmd/v2/main.go", "package main\n\nfunc main() {}\n"),
        ]);
        let names: Vec<(&str, &str, Area)> = b
            .iter()
            .map(|b| (b.name.as_str(), b.package.as_str(), b.area))
            .collect();
        assert_eq!(
            names,
            vec![
                ("app", "example.com/app", Area::Component),
                ("cmd", "example.com/app/cmd/v2", Area::Component),
                ("gen", "example.com/app/hack/gen", Area::Samples),
            ]
        );
    }

    #[test]
    fn defaults_are_shown_as_help_prints_them() {
        let (b, d) = analyze(&[
            (
                "cmd/knob/main.go",
                r#"package main

import (
	"os"
	"time"

	flag "github.com/spf13/pflag"

	"example.com/app/pkg/limits"
)

const retryEvery = time.Minute * 2

func main() {
	flag.Duration("sync", 15*time.Second, "Sync period.")
	flag.Duration("retry", retryEvery, "Retry period.")
	flag.Duration("grace", time.Hour, "Grace.")
	flag.Duration("poll", 90*time.Second, "Poll.")
	flag.Duration("tick", 500*time.Millisecond, "Tick.")
	flag.Duration("never", 0, "Never.")
	flag.Float64("qps", float64(limits.DefaultQPS), "QPS.")
	flag.Float32("ratio", limits.Ratio/2, "Ratio.")
	flag.Int("burst", limits.Burst*2, "Burst.")
	flag.Int("max-bytes", 1<<20, "Max bytes.")
	flag.String("image", os.Getenv("KNOB_IMAGE"), "Image.")
	flag.String("greeting", "hello world", "Greeting.")
	flag.IntSlice("ports", []int{}, "Ports.")
	flag.StringSlice("zones", nil, "Zones.")
	flag.StringSlice("names", []string{"a", limits.Second}, "Names.")
	flag.StringArray("pairs", []string{"x,y"}, "Pairs.")
	flag.DurationSlice("backoff", []time.Duration{time.Second, 3 * time.Minute}, "Backoff.")
	flag.Int("workers", runtimeWorkers(), "Workers.")
	flag.Duration("wait", limits.Unknown*time.Second, "Wait.")
}
"#,
            ),
            (
                "pkg/limits/limits.go",
                "package limits\n\nconst DefaultQPS = 20\n\nconst Ratio float32 = 0.5\n\nconst Burst = DefaultQPS + 10\n\nconst Second = \"b\"\n",
            ),
        ]);
        assert!(d.iter().all(|d| !d.file.starts_with("cmd")), "{d:?}");
        assert_eq!(
            rows(&b),
            vec![
                r#"knob --backoff durationSlice "[1s,3m0s]" | Backoff. @cmd/knob/main.go:31"#,
                r#"knob --burst int "60" | Burst. @cmd/knob/main.go:23"#,
                r#"knob --grace duration "1h0m0s" | Grace. @cmd/knob/main.go:17"#,
                r#"knob --greeting string "hello world" | Greeting. @cmd/knob/main.go:26"#,
                r#"knob --image string "$KNOB_IMAGE"$ | Image. @cmd/knob/main.go:25"#,
                r#"knob --max-bytes int "1048576" | Max bytes. @cmd/knob/main.go:24"#,
                r#"knob --names stringSlice "[a,b]" | Names. @cmd/knob/main.go:29"#,
                r#"knob --never duration "0s" | Never. @cmd/knob/main.go:20"#,
                r#"knob --pairs stringArray "[\"x,y\"]" | Pairs. @cmd/knob/main.go:30"#,
                r#"knob --poll duration "1m30s" | Poll. @cmd/knob/main.go:18"#,
                r#"knob --ports intSlice "[]" | Ports. @cmd/knob/main.go:27"#,
                r#"knob --qps float64 "20" | QPS. @cmd/knob/main.go:21"#,
                r#"knob --ratio float32 "0.25" | Ratio. @cmd/knob/main.go:22"#,
                r#"knob --retry duration "2m0s" | Retry period. @cmd/knob/main.go:16"#,
                r#"knob --sync duration "15s" | Sync period. @cmd/knob/main.go:15"#,
                r#"knob --tick duration "500ms" | Tick. @cmd/knob/main.go:19"#,
                r#"knob --wait duration "limits.Unknown*time.Second"* | Wait. @cmd/knob/main.go:33"#,
                r#"knob --workers int "runtimeWorkers()"* | Workers. @cmd/knob/main.go:32"#,
                r#"knob --zones stringSlice "[]" | Zones. @cmd/knob/main.go:28"#,
                "knob $KNOB_IMAGE @cmd/knob/main.go:25",
            ]
        );
    }

    const KLOG_ROWS: usize = 13;

    #[test]
    fn library_flags_on_a_go_flag_set_merged_into_pflag_are_the_programs() {
        let (b, d) = analyze(&[(
            "cmd/side/main.go",
            r#"package main

import (
	"flag"

	"github.com/spf13/pflag"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

func main() {
	var opts zap.Options
	addFlags(pflag.CommandLine, &opts)
	pflag.Parse()
}

func addFlags(fs *pflag.FlagSet, opts *zap.Options) {
	goFlags := flag.NewFlagSet("go", flag.ContinueOnError)
	opts.BindFlags(goFlags)
	fs.AddGoFlagSet(goFlags)
	fs.String("port", "8000", "The port.")
	kept := flag.NewFlagSet("kept", flag.ContinueOnError)
	opts.BindFlags(kept)
}
"#,
        )]);
        let side: Vec<String> = b
            .iter()
            .filter(|b| b.name == "side")
            .flat_map(|b| b.flags.iter().map(|f| format!("{} {}", f.name, f.library)))
            .collect();
        assert!(side.contains(&"port ".to_string()), "{side:?}");
        assert!(side.contains(&"zap-log-level zap".to_string()), "{side:?}");
        // The set never merged stays a diagnostic, its flags unlisted.
        let d: Vec<String> = d.iter().map(|d| format!("{}:{}", d.file, d.line)).collect();
        assert_eq!(d, vec!["cmd/side/main.go:22"]);
    }

    #[test]
    fn flags_libraries_register_are_listed_with_their_library() {
        let (b, d) = analyze(&[
            (
                "cmd/op/main.go",
                r#"package main

import (
	"flag"

	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"example.com/app/pkg/settings"
)

func main() {
	opts := zap.Options{Development: true}
	opts.BindFlags(flag.CommandLine)
	klog.InitFlags(nil)
	settings.Bind()
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))
}
"#,
            ),
            (
                "pkg/settings/settings.go",
                "package settings\n\nimport \"flag\"\n\nfunc Bind() {\n\tvar cfg Config\n\tcfg.BindFlags(flag.CommandLine)\n}\n",
            ),
            (
                "cmd/tool/main.go",
                "package main\n\nimport (\n\t\"flag\"\n\n\tlogzap \"sigs.k8s.io/controller-runtime/pkg/log/zap\"\n)\n\nfunc main() {\n\tvar o logzap.Options\n\to.BindFlags(flag.CommandLine)\n}\n",
            ),
            (
                "cmd/field/main.go",
                "package main\n\nimport (\n\t\"flag\"\n\n\t\"sigs.k8s.io/controller-runtime/pkg/log/zap\"\n)\n\ntype options struct {\n\tlog zap.Options\n\tother settings\n}\n\nfunc main() {\n\tvar o options\n\to.log.BindFlags(flag.CommandLine)\n\to.other.BindFlags(flag.CommandLine)\n}\n",
            ),
            (
                "cmd/quiet/main.go",
                "package main\n\nimport (\n\tgoflag \"flag\"\n\n\tklog \"k8s.io/klog/v2\"\n)\n\nfunc main() {\n\tvar local goflag.FlagSet\n\tklog.InitFlags(&local)\n\tklog.InitFlags(goflag.CommandLine)\n}\n",
            ),
        ]);
        let d: Vec<String> = d
            .iter()
            .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
            .collect();
        assert_eq!(
            d,
            vec![
                "cmd/quiet/main.go:11 klog registers its flags on `&local`, not on the program's command line; which of them the program exposes is not followed, so none is listed"
            ]
        );
        let quiet: Vec<&str> = b
            .iter()
            .filter(|b| b.name == "quiet")
            .flat_map(|b| b.flags.iter().map(|f| f.sources[0].line))
            .map(|l| if l == 12 { "12" } else { "other" })
            .collect();
        assert_eq!(quiet, vec!["12"; KLOG_ROWS]);
        let rows = rows(&b);
        let op: Vec<&str> = rows
            .iter()
            .filter(|r| r.starts_with("op "))
            .map(String::as_str)
            .collect();
        let names: Vec<String> = op
            .iter()
            .map(|r| r.split(" |").next().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            names,
            vec![
                r#"op [klog] --add_dir_header bool "false""#,
                r#"op [klog] --alsologtostderr bool "false""#,
                r#"op [controller-runtime] --kubeconfig string """#,
                r#"op [klog] --log_backtrace_at value ":0""#,
                r#"op [klog] --log_dir string """#,
                r#"op [klog] --log_file string """#,
                r#"op [klog] --log_file_max_size uint64 "1800""#,
                r#"op [klog] --logtostderr bool "true""#,
                r#"op [klog] --one_output bool "false""#,
                r#"op [klog] --skip_headers bool "false""#,
                r#"op [klog] --skip_log_headers bool "false""#,
                r#"op [klog] --stderrthreshold value "2""#,
                r#"op [klog] --v value "0""#,
                r#"op [klog] --vmodule value """#,
                r#"op [zap] --zap-devel bool "true""#,
                r#"op [zap] --zap-encoder value """#,
                r#"op [zap] --zap-log-level value """#,
                r#"op [zap] --zap-stacktrace-level value """#,
                r#"op [zap] --zap-time-encoding value """#,
            ]
        );
        assert!(op[2].ends_with("@cmd/op/main.go:7"), "{}", op[2]);
        assert!(op[0].ends_with("@cmd/op/main.go:16"), "{}", op[0]);
        assert!(op[14].ends_with("@cmd/op/main.go:15"), "{}", op[14]);
        let field: Vec<&str> = rows
            .iter()
            .filter(|r| r.starts_with("field "))
            .map(|r| r.split(" |").next().unwrap_or(""))
            .collect();
        assert_eq!(
            field,
            vec![
                r#"field [zap] --zap-devel bool "o.log.Development"*"#,
                r#"field [zap] --zap-encoder value """#,
                r#"field [zap] --zap-log-level value """#,
                r#"field [zap] --zap-stacktrace-level value """#,
                r#"field [zap] --zap-time-encoding value """#,
            ]
        );
        let tool: Vec<&str> = rows
            .iter()
            .filter(|r| r.starts_with("tool "))
            .map(|r| r.split(" |").next().unwrap_or(""))
            .collect();
        assert_eq!(
            tool,
            vec![
                r#"tool [zap] --zap-devel bool "false""#,
                r#"tool [zap] --zap-encoder value """#,
                r#"tool [zap] --zap-log-level value """#,
                r#"tool [zap] --zap-stacktrace-level value """#,
                r#"tool [zap] --zap-time-encoding value """#,
            ]
        );
        assert_eq!(rows.len(), op.len() + tool.len() + field.len() + KLOG_ROWS);
    }

    #[test]
    fn cobra_commands_form_a_tree_with_their_own_flags() {
        let (b, d) = analyze(&[
            (
                "cmd/main.go",
                "package main\n\nimport (\n\t\"os\"\n\n\t\"example.com/app/internal/cli\"\n)\n\nfunc main() {\n\tif err := cli.NewRootCmd().Execute(); err != nil {\n\t\tos.Exit(1)\n\t}\n}\n",
            ),
            (
                "internal/cli/root.go",
                r#"package cli

import (
	"github.com/spf13/cobra"
)

var verbose bool

func NewRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "op",
		Short: "Operates things.",
	}
	root.PersistentFlags().BoolVarP(&verbose, "verbose", "v", false, "Log more.")
	root.AddCommand(newServeCmd(), versionCmd)
	return root
}

var versionCmd = &cobra.Command{Use: "version", Short: "Print the version."}

func init() {
	versionCmd.Flags().Bool("short", false, "Only the number.")
}
"#,
            ),
            (
                "internal/cli/serve.go",
                r#"package cli

import (
	"time"

	"github.com/spf13/cobra"
)

func newServeCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "Serve the API.",
	}
	cmd.Flags().StringVar(&addr, "addr", ":8080", "Listen address.")
	flags := cmd.Flags()
	flags.Duration("grace", 10*time.Second, "Grace period.")
	cmd.AddCommand(&cobra.Command{Use: "check", Short: "Check the config."})
	cmd.AddCommand(newDebugCmd())
	return cmd
}

func newDebugCmd() *cobra.Command {
	debug := newBareDebugCmd()
	debug.Flags().Int("depth", 2, "How deep.")
	return debug
}

func newBareDebugCmd() *cobra.Command {
	return &cobra.Command{Use: "debug", Short: "Debug a server."}
}
"#,
            ),
        ]);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].name, "op");
        assert_eq!(
            b[0].name_from,
            vec![SourceRef::new("internal/cli/root.go", 10)]
        );
        let commands: Vec<String> = b[0]
            .commands
            .iter()
            .map(|c| {
                format!(
                    "{} ({}) [{}] {:?} @{}:{}",
                    c.path,
                    c.name,
                    c.flags.join(","),
                    c.short,
                    c.sources[0].file,
                    c.sources[0].line
                )
            })
            .collect();
        assert_eq!(
            commands,
            vec![
                r#"op (op) [verbose] "Operates things." @internal/cli/root.go:10"#,
                r#"op serve (serve) [addr,grace] "Serve the API." @internal/cli/serve.go:11"#,
                r#"op serve check (check) [] "Check the config." @internal/cli/serve.go:18"#,
                r#"op serve debug (debug) [depth] "Debug a server." @internal/cli/serve.go:30"#,
                r#"op version (version) [short] "Print the version." @internal/cli/root.go:19"#,
            ]
        );
        assert_eq!(
            rows(&b),
            vec![
                r#"op --addr string ":8080" | Listen address. @internal/cli/serve.go:15"#,
                r#"op --depth int "2" | How deep. @internal/cli/serve.go:25"#,
                r#"op --grace duration "10s" | Grace period. @internal/cli/serve.go:17"#,
                r#"op --short bool "false" | Only the number. @internal/cli/root.go:22"#,
                r#"op --verbose,-v bool "false" | Log more. @internal/cli/root.go:14"#,
            ]
        );
    }

    #[test]
    fn a_package_that_is_not_main_is_never_a_binary() {
        let (b, _) = analyze(&[
            (
                "cmd/helper/helper.go",
                "package helper\n\nimport \"flag\"\n\nfunc main() {\n\tflag.Bool(\"x\", false, \"X.\")\n}\n",
            ),
            ("cmd/run/main.go", "package main\n\nfunc main() {}\n"),
        ]);
        let names: Vec<(&str, &str)> = b
            .iter()
            .map(|b| (b.name.as_str(), b.package.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("run", "example.com/app/cmd/run"),
                ("", "example.com/app/cmd/helper"),
            ]
        );
    }

    #[test]
    fn unresolvable_flag_names_are_reported_not_guessed() {
        let (b, d) = analyze(&[(
            "cmd/x/main.go",
            "package main\n\nimport (\n\t\"flag\"\n\n\t\"example.com/other/authn\"\n)\n\nfunc main() {\n\tfor _, n := range names {\n\t\tflag.Bool(n, false, \"x\")\n\t}\n\tflag.Bool(fmt.Sprint(1), false, help())\n\tflag.String(authn.FlagIdentity, \"\", \"Identity to use.\")\n}\n",
        )]);
        assert!(b[0].flags.is_empty());
        let got: Vec<(u32, &str)> = d.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (
                    11,
                    "cannot resolve the name of this flag: `n` is not a string constant; the flag is not listed"
                ),
                (
                    13,
                    "cannot resolve the name of this flag: `fmt.Sprint(1)` is not a string constant; the flag is not listed"
                ),
                (
                    14,
                    "cannot resolve the name of this flag: `authn.FlagIdentity` is a constant of `example.com/other/authn`, a package outside the repository whose value portolan does not read; the flag is not listed"
                ),
            ]
        );
    }

    #[test]
    fn method_calls_that_look_like_flags_on_other_values_are_ignored() {
        let (b, _) = analyze(&[(
            "cmd/x/main.go",
            "package main\n\nfunc main() {\n\tb.String(\"a\", \"b\", \"c\")\n\tcfg.Bool(\"x\", false, \"y\")\n\tstore.StringVar(\"k\", \"v\", \"w\", \"z\")\n}\n",
        )]);
        assert!(b[0].flags.is_empty(), "{:?}", b[0].flags);
    }

    #[test]
    fn deeply_nested_arguments_do_not_overflow() {
        let mut src = String::from(
            "package main\n\nimport \"flag\"\n\nfunc main() {\n\tflag.String(\"deep\", ",
        );
        src.push_str(&"(".repeat(20_000));
        src.push_str("\"x\"");
        src.push_str(&")".repeat(20_000));
        src.push_str(", \"help\")\n}\n");
        let (b, _) = analyze(&[("cmd/x/main.go", &src)]);
        assert_eq!(b[0].flags.len(), 1);
    }
}
