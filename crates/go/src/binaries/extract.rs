//! Per file: each flag registration with its arguments as unevaluated values, each
//! environment read, the struct literal a constructor returns, and non-string constants.

use crate::syntax::FIELD;
use crate::syntax::KindName;

use tree_sitter::Node;

use super::values::{flag_target, fold, string_in_scope, value_of};
use crate::calls::names_import;
use crate::cobra;
use crate::consts::{ConstExpr, const_expr, spec_values};
use crate::facts::binaries::{
    BinaryFacts, Constructor, EnvName, FlagTarget, LiteralField, RawEnv, RawFlag,
};
use crate::facts::{GoFile, Import};
use crate::kingpin;
use crate::library_flags;
use crate::scope::{Binding, Scope};
use crate::syntax::{FuncCtx, line_of, text};
use crate::syntax::{callee, selector_callee};

const STD_FLAG: &str = "flag";

const PFLAG: &str = "github.com/spf13/pflag";

/// The variable a `x := flag.String(…)` (or `var x = …`) call's result is assigned to.
fn result_target(call: Node, scope: &Scope, src: &[u8]) -> Option<FlagTarget> {
    let name = crate::syntax::assigned_variable(call, src)?;
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
    for (&node, &sel) in ctx.calls.iter().zip(&ctx.selectors) {
        visit_call(node, sel, scope, func, src, &imports, &mut file.binaries);
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
pub fn extract_package_level(nodes: &[Node], func: usize, src: &[u8], file: &mut GoFile) {
    let imports = std::mem::take(&mut file.imports);
    let scope = Scope::package_level();
    nodes.iter().for_each(|&node| match node.kind_name() {
        "call_expression" => visit_call(
            node,
            selector_callee(node),
            &scope,
            func,
            src,
            &imports,
            &mut file.binaries,
        ),
        "composite_literal" => {
            let out = &mut file.binaries.cobra;
            cobra::literal(node, func, true, &[], src, &imports, out);
        }
        "var_spec" => {
            let names: Vec<Node> = crate::syntax::field_children(node, FIELD.name)
                .into_iter()
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
        for (name, value) in spec_values(spec, src) {
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

/// `sel` is the call's `operand.field` callee (`FuncCtx::selectors`).
fn visit_call(
    node: Node,
    sel: Option<(Node, Node)>,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
    out: &mut BinaryFacts,
) {
    let Some((operand, field)) = sel else {
        return;
    };
    let method = text(field, src);
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
    if let Some(k) =
        super::super::kong::parse_call(node, operand, method, scope, func, src, imports)
    {
        out.kong.push(k);
        return;
    }
    if let Some(e) =
        super::super::envconfig::process_call(node, operand, method, scope, func, src, imports)
    {
        out.envconfig.push(e);
        return;
    }
    if let Some(v) =
        super::super::viper::viper_call(node, operand, method, scope, func, src, imports)
    {
        out.viper.push(v);
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
    if env_read && crate::calls::is_package(operand, scope, src, imports, "os") {
        if let Some(arg) = args.first() {
            // `for _, key := range []string{"A", "B"} { os.Getenv(key) }`: each name.
            if let Some(names) = ranged_constants(*arg, scope, src) {
                for name in names {
                    out.env_reads.push(RawEnv {
                        line: line_of(node),
                        func,
                        name: EnvName::Str(name),
                    });
                }
                return;
            }
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
                Some(crate::scope::Binding::Param(_, Some(t)))
                | Some(crate::scope::Binding::Typed(t)) => {
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
        for (key, value) in crate::syntax::keyed_elements(body) {
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
                    .and_then(|t| crate::types::type_ref(t, src));
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

/// Elements of a `range` loop's literal collection this is the value variable of, when
/// every one is a constant string (at most `MAX_RANGED`).
fn ranged_constants(node: Node, scope: &Scope, src: &[u8]) -> Option<Vec<ConstExpr>> {
    const MAX_RANGED: usize = 64;
    if node.kind_name() != "identifier" {
        return None;
    }
    let Some(Binding::Elem(collection)) = scope.lookup(text(node, src), node.start_byte()) else {
        return None;
    };
    let body = (collection.kind_name() == "composite_literal")
        .then(|| collection.child_by_field_id(FIELD.body))??;
    let mut c = body.walk();
    let elements: Vec<Node> = body
        .named_children(&mut c)
        .filter(|e| e.kind_name() != "comment")
        .collect();
    if elements.is_empty() || elements.len() > MAX_RANGED {
        return None;
    }
    elements
        .into_iter()
        .map(|e| {
            let value = if e.kind_name() == "literal_element" {
                e.named_child(0)?
            } else {
                e
            };
            string_in_scope(value, scope, src)
        })
        .collect()
}
