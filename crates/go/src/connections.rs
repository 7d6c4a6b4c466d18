//! External connections: the calls that open a connection to a database, a cache, a
//! queue, a gRPC or HTTP endpoint or an object store (`CONNECTORS`), with where the
//! target comes from.
//!
//! A call is one only when its qualifier names the import of the library's package
//! (`redis.NewClient` with `github.com/redis/go-redis/v9` imported as `redis`): a local
//! function called `Dial` or a method of any value is never one.
//!
//! Per file, `extract` records each call with its target as far as the file tells it
//! (`RawTarget`): a string constant expression, a constant prefix (`base + path`,
//! `fmt.Sprintf("http://host/%s", …)`), `os.Getenv(NAME)`, the flag registration a local
//! variable holds, a variable that may be bound to a flag elsewhere in the package, or the
//! expression as written. Per project, `resolve` evaluates constants, finds the flag a
//! variable is bound to (`flag_vars`, matched with the binaries' flags by registration
//! line) and the programs that reach the call; what stays unknown is `unresolved` with the
//! expression, never a guess.

use super::syntax::FIELD;
use super::syntax::KindName;
use std::collections::HashMap;

use tree_sitter::Node;

use super::binaries::programs::ProgramReach;
use super::binaries::values::{fold, getenv_arg, string_in_scope, unwrap_conversion};
use super::consts::{ConstExpr, const_expr};
use super::facts::calls::FuncId;
use super::facts::connections::{FlagVar, RawConnection, RawTarget};
use super::facts::{GoFile, Import};
use super::index::{GoIndex, GoInput};
use super::scope::Scope;
use super::syntax::{FuncCtx, call_arguments, callee, keyed_elements, line_of, text};
use model::{Binary, ConnectionTarget, ExternalConnection, SourceRef};

/// Where a connector's target is in its arguments.
#[derive(Clone, Copy)]
enum Place {
    /// The string argument at this position.
    Arg(usize),
    /// A field of the options struct literal at this position (`&redis.Options{Addr: …}`);
    /// a `[]string` field gives each address.
    Field(usize, &'static str),
    /// A key of the map literal at this position (`&kafka.ConfigMap{"bootstrap.servers": …}`).
    Key(usize, &'static str),
    /// No target argument: the library reads its endpoint from its own configuration
    /// (`storage.NewClient(ctx)`, `s3.NewFromConfig(cfg)`).
    Library,
}

/// One connecting function of a library.
struct Connector {
    /// The import paths without their major-version elements (`/v9`): a library's
    /// forks and renames (`github.com/IBM/sarama`, `github.com/Shopify/sarama`).
    paths: &'static [&'static str],
    /// The package's name, as an unaliased import names it.
    package: &'static str,
    funcs: &'static [&'static str],
    kind: &'static str,
    place: Place,
}

const fn c(
    paths: &'static [&'static str],
    package: &'static str,
    funcs: &'static [&'static str],
    kind: &'static str,
    place: Place,
) -> Connector {
    Connector {
        paths,
        package,
        funcs,
        kind,
        place,
    }
}

/// The connecting calls portolan knows, by library. `database/sql`'s first argument is the
/// driver name, kept with the library.
const CONNECTORS: &[Connector] = &[
    c(&["database/sql"], "sql", &["Open"], "sql", Place::Arg(1)),
    c(
        &["github.com/jmoiron/sqlx"],
        "sqlx",
        &["Open", "Connect", "MustOpen", "MustConnect"],
        "sql",
        Place::Arg(1),
    ),
    c(
        &["gorm.io/driver/postgres"],
        "postgres",
        &["Open"],
        "sql",
        Place::Arg(0),
    ),
    c(
        &["gorm.io/driver/mysql"],
        "mysql",
        &["Open"],
        "sql",
        Place::Arg(0),
    ),
    c(
        &["gorm.io/driver/sqlite"],
        "sqlite",
        &["Open"],
        "sql",
        Place::Arg(0),
    ),
    c(
        &["gorm.io/driver/sqlserver"],
        "sqlserver",
        &["Open"],
        "sql",
        Place::Arg(0),
    ),
    c(
        &["github.com/jackc/pgx/pgxpool"],
        "pgxpool",
        &["New", "Connect"],
        "sql",
        Place::Arg(1),
    ),
    c(
        &["github.com/jackc/pgx"],
        "pgx",
        &["Connect"],
        "sql",
        Place::Arg(1),
    ),
    c(
        &["github.com/redis/go-redis", "github.com/go-redis/redis"],
        "redis",
        &["NewClient"],
        "redis",
        Place::Field(0, "Addr"),
    ),
    c(
        &["github.com/redis/go-redis", "github.com/go-redis/redis"],
        "redis",
        &["NewClusterClient", "NewUniversalClient"],
        "redis",
        Place::Field(0, "Addrs"),
    ),
    c(
        &["github.com/redis/go-redis", "github.com/go-redis/redis"],
        "redis",
        &["ParseURL"],
        "redis",
        Place::Arg(0),
    ),
    c(
        &["github.com/gomodule/redigo/redis"],
        "redis",
        &["Dial"],
        "redis",
        Place::Arg(1),
    ),
    c(
        &["github.com/gomodule/redigo/redis"],
        "redis",
        &["DialURL"],
        "redis",
        Place::Arg(0),
    ),
    c(
        &["github.com/IBM/sarama", "github.com/Shopify/sarama"],
        "sarama",
        &[
            "NewClient",
            "NewSyncProducer",
            "NewAsyncProducer",
            "NewConsumer",
            "NewConsumerGroup",
            "NewClusterAdmin",
        ],
        "kafka",
        Place::Arg(0),
    ),
    c(
        &["github.com/segmentio/kafka-go"],
        "kafka",
        &["NewWriter", "NewReader"],
        "kafka",
        Place::Field(0, "Brokers"),
    ),
    c(
        &["github.com/segmentio/kafka-go"],
        "kafka",
        &["Dial"],
        "kafka",
        Place::Arg(1),
    ),
    c(
        &["github.com/segmentio/kafka-go"],
        "kafka",
        &["DialContext", "DialLeader"],
        "kafka",
        Place::Arg(2),
    ),
    c(
        &["github.com/confluentinc/confluent-kafka-go/kafka"],
        "kafka",
        &["NewProducer", "NewConsumer", "NewAdminClient"],
        "kafka",
        Place::Key(0, "bootstrap.servers"),
    ),
    c(
        &["github.com/nats-io/nats.go"],
        "nats",
        &["Connect"],
        "nats",
        Place::Arg(0),
    ),
    c(
        &["google.golang.org/grpc"],
        "grpc",
        &["Dial", "NewClient"],
        "grpc",
        Place::Arg(0),
    ),
    c(
        &["google.golang.org/grpc"],
        "grpc",
        &["DialContext"],
        "grpc",
        Place::Arg(1),
    ),
    c(
        &["net/http"],
        "http",
        &["Get", "Head", "Post", "PostForm"],
        "http",
        Place::Arg(0),
    ),
    c(
        &["net/http"],
        "http",
        &["NewRequest"],
        "http",
        Place::Arg(1),
    ),
    c(
        &["net/http"],
        "http",
        &["NewRequestWithContext"],
        "http",
        Place::Arg(2),
    ),
    c(
        &["github.com/aws/aws-sdk-go/service/s3"],
        "s3",
        &["New"],
        "object-store",
        Place::Library,
    ),
    c(
        &["github.com/aws/aws-sdk-go-v2/service/s3"],
        "s3",
        &["NewFromConfig"],
        "object-store",
        Place::Library,
    ),
    c(
        &["cloud.google.com/go/storage"],
        "storage",
        &["NewClient"],
        "object-store",
        Place::Library,
    ),
    c(
        &["github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"],
        "azblob",
        &[
            "NewClient",
            "NewClientWithNoCredential",
            "NewClientWithSharedKeyCredential",
        ],
        "object-store",
        Place::Arg(0),
    ),
    c(
        &["github.com/minio/minio-go"],
        "minio",
        &["New"],
        "object-store",
        Place::Arg(0),
    ),
];

/// An import path without major-version elements (`/v9`, `/v5`), which the table leaves out.
fn base_path(path: &str) -> String {
    path.split('/')
        .enumerate()
        .filter(|(i, e)| {
            *i == 0
                || !(e.len() > 1
                    && e.starts_with('v')
                    && e[1..].bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|(_, e)| e)
        .collect::<Vec<_>>()
        .join("/")
}

/// The connector `qualifier.name` calls, with the import path as written.
fn connector<'i>(
    imports: &'i [Import],
    qualifier: &str,
    name: &str,
) -> Option<(&'static Connector, &'i str)> {
    // Most calls are of no connector's function: passed over before any path is read.
    if !CONNECTORS.iter().any(|k| k.funcs.contains(&name)) {
        return None;
    }
    imports
        .iter()
        .filter(|imp| imp.alias.as_deref().is_none_or(|a| a == qualifier))
        .find_map(|imp| {
            let base = base_path(&imp.path);
            CONNECTORS
                .iter()
                .find(|k| {
                    k.paths.contains(&base.as_str())
                        && k.funcs.contains(&name)
                        && (imp.alias.is_some() || k.package == qualifier)
                })
                .map(|k| (k, imp.path.as_str()))
        })
}

/// Records the connecting calls of one function (or of package-level initializers, with
/// the package-level scope) and the flag variables it binds.
pub fn extract(ctx: &FuncCtx, scope: &Scope, func: usize, src: &[u8], file: &mut GoFile) {
    let flag_lines: Vec<u32> = file.binaries.flags.iter().map(|f| f.line).collect();
    for (&call, &sel) in ctx.calls.iter().zip(&ctx.selectors) {
        visit(call, sel, scope, func, src, &flag_lines, file);
    }
}

/// The same for a package-level declaration's calls.
pub fn extract_package_level(nodes: &[Node], func: usize, src: &[u8], file: &mut GoFile) {
    let flag_lines: Vec<u32> = file.binaries.flags.iter().map(|f| f.line).collect();
    let scope = Scope::package_level();
    for &call in nodes.iter().filter(|n| n.kind_name() == "call_expression") {
        let sel = super::syntax::selector_callee(call);
        visit(call, sel, &scope, func, src, &flag_lines, file);
    }
}

/// `sel` is the call's `operand.field` callee (`FuncCtx::selectors`).
fn visit(
    call: Node,
    sel: Option<(Node, Node)>,
    scope: &Scope,
    func: usize,
    src: &[u8],
    flag_lines: &[u32],
    file: &mut GoFile,
) {
    let line = line_of(call);
    if flag_lines.contains(&line) {
        flag_var(call, scope, func, src, &mut file.connections.flag_vars);
    }
    let Some((operand, field)) = sel else {
        return;
    };
    let qualifier = text(operand, src);
    if operand.kind_name() != "identifier"
        || scope.lookup(qualifier, operand.start_byte()).is_some()
    {
        return;
    }
    let name = text(field, src);
    let Some((k, library)) = connector(&file.imports, qualifier, name) else {
        return;
    };
    let args = call_arguments(call);
    let imports = &file.imports;
    let target = match k.place {
        Place::Arg(i) => args
            .get(i)
            .map(|a| target_of(*a, scope, func, src, imports))
            .unwrap_or_else(|| RawTarget::Unresolved(text(call, src).to_string())),
        Place::Field(i, name) => args
            .get(i)
            .map(|a| literal_entry(*a, scope, func, src, imports, name, false))
            .unwrap_or_else(|| RawTarget::Unresolved(text(call, src).to_string())),
        Place::Key(i, key) => args
            .get(i)
            .map(|a| literal_entry(*a, scope, func, src, imports, key, true))
            .unwrap_or_else(|| RawTarget::Unresolved(text(call, src).to_string())),
        Place::Library => library_endpoint(&args, scope, func, src, imports),
    };
    // `http.NewRequest` and friends are connections only to a target the code fixes: a
    // URL built at run time (a pod's address, a configured backend) is a request, not a
    // dependency on a service.
    if k.kind == "http"
        && matches!(
            target,
            RawTarget::Unresolved(_) | RawTarget::Var(..) | RawTarget::Items(_)
        )
    {
        return;
    }
    let driver = (k.paths.contains(&"database/sql")
        || k.paths.contains(&"github.com/jmoiron/sqlx"))
    .then(|| {
        args.first()
            .map(|a| target_of(*a, scope, func, src, imports))
    })
    .flatten();
    let connection = RawConnection {
        line,
        func,
        kind: k.kind,
        library: library.to_string(),
        driver,
        call: format!("{}.{name}", k.package),
        target,
    };
    file.connections.calls.push(connection);
}

/// The variable a flag registration binds (`fs.StringVar(&x, …)`, `x := flag.String(…)`,
/// `var x = flag.String(…)`).
fn flag_var(call: Node, scope: &Scope, func: usize, src: &[u8], out: &mut Vec<FlagVar>) {
    let line = line_of(call);
    let root_func = |n: Node| {
        let mut root = n;
        while root.kind_name() == "selector_expression" {
            match root.child_by_field_id(FIELD.operand) {
                Some(o) => root = o,
                None => break,
            }
        }
        scope
            .lookup(text(root, src), root.start_byte())
            .map(|_| func)
    };
    if let Some(first) = call_arguments(call).first()
        && first.kind_name() == "unary_expression"
        && text(*first, src).starts_with('&')
        && let Some(target) = first.child_by_field_id(FIELD.operand)
        && matches!(target.kind_name(), "identifier" | "selector_expression")
    {
        out.push(FlagVar {
            text: text(target, src).to_string(),
            func: root_func(target),
            line,
        });
        return;
    }
    if let Some(name) = super::syntax::assigned_variable(call, src) {
        // A local holding the registration is followed by `Scope` at the use.
        let local = call
            .parent()
            .and_then(|l| l.parent())
            .is_some_and(|s| s.kind_name() == "short_var_declaration")
            || scope.lookup(&name, call.start_byte()).is_some();
        out.push(FlagVar {
            text: name,
            func: local.then_some(func),
            line,
        });
    }
}

/// `option.WithEndpoint(x)` among a cloud SDK constructor's arguments; else, when every
/// argument after the first (the context or the loaded config) is another
/// `google.golang.org/api/option` setting, the library's own configuration; an argument
/// it cannot read (`s3.NewFromConfig(cfg, opts)`, whose options may set `BaseEndpoint`)
/// leaves the target unresolved.
fn library_endpoint(
    args: &[Node],
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> RawTarget {
    let mut unread = Vec::new();
    for a in args.iter().skip(1) {
        let option = (a.kind_name() == "call_expression")
            .then(|| callee(*a))
            .flatten()
            .filter(|f| f.kind_name() == "selector_expression")
            .filter(|f| {
                f.child_by_field_id(FIELD.operand).is_some_and(|o| {
                    super::calls::names_import(
                        imports,
                        text(o, src),
                        "google.golang.org/api/option",
                    )
                })
            });
        match option {
            Some(f)
                if f.child_by_field_id(FIELD.field)
                    .is_some_and(|m| text(m, src) == "WithEndpoint") =>
            {
                if let Some(endpoint) = call_arguments(*a).first() {
                    return target_of(*endpoint, scope, func, src, imports);
                }
            }
            Some(_) => {}
            None => unread.push(fold(text(*a, src))),
        }
    }
    if unread.is_empty() {
        RawTarget::Library
    } else {
        RawTarget::Unresolved(format!("options {}", unread.join(", ")))
    }
}

/// The value of field `name` (or map key `name`) of the struct or map literal `node`
/// denotes (`&redis.Options{Addr: …}`, through a local holding it); a missing entry is
/// unresolved with the literal's text.
fn literal_entry(
    node: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
    name: &str,
    map_key: bool,
) -> RawTarget {
    let mut n = scope.resolve_value(node, src);
    if n.kind_name() == "unary_expression"
        && text(n, src).starts_with('&')
        && let Some(o) = n.child_by_field_id(FIELD.operand)
    {
        n = o;
    }
    let body = (n.kind_name() == "composite_literal")
        .then(|| n.child_by_field_id(FIELD.body))
        .flatten();
    let Some(body) = body else {
        return RawTarget::Unresolved(fold(text(node, src)));
    };
    for (key, value) in keyed_elements(body) {
        let matches = if map_key {
            super::syntax::string_literal(key, src).as_deref() == Some(name)
        } else {
            key.kind_name() == "identifier" && text(key, src) == name
        };
        if !matches {
            continue;
        }
        if let Some(items) = string_items(value, scope, func, src, imports) {
            return RawTarget::Items(items);
        }
        return target_of(value, scope, func, src, imports);
    }
    RawTarget::Unresolved(fold(text(node, src)))
}

/// The elements of a `[]string{…}` literal, each as a target.
fn string_items(
    node: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> Option<Vec<RawTarget>> {
    let n = scope.resolve_value(node, src);
    if n.kind_name() != "composite_literal"
        || n.child_by_field_id(FIELD.ty)
            .is_none_or(|t| t.kind_name() != "slice_type")
    {
        return None;
    }
    let body = n.child_by_field_id(FIELD.body)?;
    let mut c = body.walk();
    let items: Vec<Node> = body
        .named_children(&mut c)
        .filter(|e| e.kind_name() == "literal_element")
        .filter_map(|e| e.named_child(0))
        .collect();
    Some(
        items
            .into_iter()
            .map(|e| target_of(e, scope, func, src, imports))
            .collect(),
    )
}

/// Where a string expression's value comes from, as far as this file tells it.
fn target_of(node: Node, scope: &Scope, func: usize, src: &[u8], imports: &[Import]) -> RawTarget {
    let written = || RawTarget::Unresolved(fold(text(node, src)));
    if let Some(items) = string_items(node, scope, func, src, imports) {
        return RawTarget::Items(items);
    }
    let n = unwrap_conversion(scope.resolve_value(node, src), src);
    if let Some(name) = getenv_arg(n, scope, src, imports) {
        return RawTarget::Env(name);
    }
    // `*p` of a flag's pointer: a local holding the registration, or a variable.
    if n.kind_name() == "unary_expression"
        && text(n, src).starts_with('*')
        && let Some(operand) = n.child_by_field_id(FIELD.operand)
    {
        let held = scope.resolve_value(operand, src);
        if held.kind_name() == "call_expression" {
            return RawTarget::FlagAt(line_of(held), fold(text(n, src)));
        }
        return var_target(operand, scope, func, src).unwrap_or_else(written);
    }
    if let Some(expr) = string_in_scope(n, scope, src) {
        return match expr {
            ConstExpr::Ref { .. } => {
                var_target(n, scope, func, src).unwrap_or(RawTarget::Const(expr))
            }
            _ => RawTarget::Const(expr),
        };
    }
    if let Some(prefix) = constant_prefix(n, scope, src, imports) {
        return prefix;
    }
    if matches!(n.kind_name(), "identifier" | "selector_expression") {
        return var_target(n, scope, func, src).unwrap_or_else(written);
    }
    written()
}

/// A variable or field that may hold a flag's value: a package-level name, or a field of
/// a value local to the function (matched only with bindings in the same function).
fn var_target(node: Node, scope: &Scope, func: usize, src: &[u8]) -> Option<RawTarget> {
    let mut root = node;
    while root.kind_name() == "selector_expression" {
        root = root.child_by_field_id(FIELD.operand)?;
    }
    if root.kind_name() != "identifier" {
        return None;
    }
    let local = scope.lookup(text(root, src), root.start_byte()).is_some();
    // A bare local whose value `Scope` could not follow is not a variable to match.
    if local && node.kind_name() == "identifier" {
        return None;
    }
    let expr = const_expr(node, src).unwrap_or(ConstExpr::Str(String::new()));
    Some(RawTarget::Var(
        text(node, src).to_string(),
        local.then_some(func),
        expr,
    ))
}

/// `CONST + rest` or `fmt.Sprintf("http://host/%s", …)`: the constant start of a string.
fn constant_prefix(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<RawTarget> {
    match node.kind_name() {
        "binary_expression" => {
            // The leftmost operand of a `+` chain, walked down without recursion.
            let mut left = node;
            let mut steps = 0;
            while left.kind_name() == "binary_expression" && steps < 10_000 {
                if left
                    .child_by_field_id(FIELD.operator)
                    .is_none_or(|o| text(o, src) != "+")
                {
                    return None;
                }
                // The longest left part that is constant.
                if let Some(e) = string_in_scope(left, scope, src) {
                    return Some(RawTarget::Prefix(e));
                }
                left = left.child_by_field_id(FIELD.left)?;
                steps += 1;
            }
            string_in_scope(left, scope, src).map(RawTarget::Prefix)
        }
        "call_expression" => {
            let f = callee(node).filter(|f| f.kind_name() == "selector_expression")?;
            let operand = f.child_by_field_id(FIELD.operand)?;
            if !super::calls::names_import(imports, text(operand, src), "fmt")
                || text(f.child_by_field_id(FIELD.field)?, src) != "Sprintf"
            {
                return None;
            }
            let format = call_arguments(node).into_iter().next()?;
            let literal = super::syntax::string_literal(format, src)?;
            Some(match literal.find('%') {
                None => RawTarget::Const(ConstExpr::Str(literal)),
                Some(0) => return None,
                Some(i) => RawTarget::Prefix(ConstExpr::Str(literal[..i].to_string())),
            })
        }
        _ => None,
    }
}

/// Resolves every file's connecting calls: targets evaluated, flags named with their
/// defaults (from the binaries' flags, by registration line), programs that reach them.
pub fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    programs: &[ProgramReach],
    packages: &[String],
    binaries: &[Binary],
) -> Vec<ExternalConnection> {
    // A flag by its registration's source line.
    let mut flags: HashMap<(&str, u32), (&str, &str)> = HashMap::new();
    for b in binaries {
        for f in &b.flags {
            for s in &f.sources {
                flags.insert((s.file.as_str(), s.line), (&f.name, &f.default));
            }
        }
    }
    let mut out = Vec::new();
    for (fi, input) in files.iter().enumerate() {
        let file = &input.facts;
        for raw in &file.connections.calls {
            let ctx = Ctx {
                files,
                index,
                packages,
                flags: &flags,
                fi,
            };
            let mut target = ctx.target(&raw.target);
            let library = match raw.driver.as_ref().map(|d| ctx.target(d)) {
                Some(ConnectionTarget::Constant {
                    value,
                    prefix: false,
                }) => {
                    format!("{} ({value})", raw.library)
                }
                _ => raw.library.clone(),
            };
            if raw.kind == "http" && matches!(target, ConnectionTarget::Unresolved { .. }) {
                // A variable that is no flag and no constant: a URL made at run time.
                continue;
            }
            if let ConnectionTarget::Constant { value, .. } = &mut target
                && value.is_empty()
            {
                target = ConnectionTarget::Unresolved {
                    expression: "\"\"".to_string(),
                };
            }
            let pkg = packages[fi].as_str();
            let reached: Vec<String> = programs
                .iter()
                .filter(|p| p.package == pkg || p.reach.contains(FuncId::new(fi, raw.func)))
                .map(|p| p.package.to_string())
                .collect();
            out.push(ExternalConnection {
                kind: raw.kind.to_string(),
                library,
                call: raw.call.clone(),
                target,
                programs: reached,
                area: input.area,
                sources: vec![SourceRef::new(&file.path, raw.line)],
            });
        }
    }
    out
}

struct Ctx<'a> {
    files: &'a [GoInput],
    index: &'a GoIndex<'a>,
    packages: &'a [String],
    flags: &'a HashMap<(&'a str, u32), (&'a str, &'a str)>,
    fi: usize,
}

impl Ctx<'_> {
    fn file(&self) -> &GoFile {
        &self.files[self.fi].facts
    }

    fn flag_at(&self, path: &str, line: u32) -> Option<ConnectionTarget> {
        self.flags
            .get(&(path, line))
            .map(|(name, default)| ConnectionTarget::Flag {
                name: name.to_string(),
                default: default.to_string(),
            })
    }

    fn target(&self, raw: &RawTarget) -> ConnectionTarget {
        let file = self.file();
        let unresolved = |e: &str| ConnectionTarget::Unresolved {
            expression: e.to_string(),
        };
        match raw {
            RawTarget::Const(e) => match self.index.eval(file, e) {
                Some(value) => ConnectionTarget::Constant {
                    value,
                    prefix: false,
                },
                None => unresolved(&e.written()),
            },
            RawTarget::Prefix(e) => match self.index.eval(file, e) {
                Some(value) if !value.is_empty() => ConnectionTarget::Constant {
                    value,
                    prefix: true,
                },
                _ => unresolved(&format!("{} + …", e.written())),
            },
            RawTarget::Env(e) => match self.index.eval(file, e) {
                Some(name) => ConnectionTarget::Env { name },
                None => unresolved(&format!("os.Getenv({})", e.written())),
            },
            RawTarget::FlagAt(line, written) => self
                .flag_at(&file.path, *line)
                .unwrap_or_else(|| unresolved(written)),
            RawTarget::Var(name, func, expr) => {
                if let Some(flag) = self.bound_flag(name, *func) {
                    return flag;
                }
                if func.is_none()
                    && let Some(value) = self.index.eval(file, expr)
                {
                    return ConnectionTarget::Constant {
                        value,
                        prefix: false,
                    };
                }
                unresolved(name)
            }
            RawTarget::Items(items) => {
                let resolved: Vec<ConnectionTarget> =
                    items.iter().map(|i| self.target(i)).collect();
                let constants: Option<Vec<&str>> = resolved
                    .iter()
                    .map(|t| match t {
                        ConnectionTarget::Constant {
                            value,
                            prefix: false,
                        } => Some(value.as_str()),
                        _ => None,
                    })
                    .collect();
                match (constants, resolved.as_slice()) {
                    (Some(values), _) if !values.is_empty() => ConnectionTarget::Constant {
                        value: values.join(","),
                        prefix: false,
                    },
                    (_, [one]) => one.clone(),
                    _ => unresolved(&format!("{} addresses", items.len())),
                }
            }
            RawTarget::Unresolved(e) => unresolved(e),
            RawTarget::Library => ConnectionTarget::LibraryDefault,
        }
    }

    /// The flag a variable of this file's package is bound to: a binding of the same text
    /// in the same package (package-level roots), or in the same function of this file.
    fn bound_flag(&self, name: &str, func: Option<usize>) -> Option<ConnectionTarget> {
        let pkg = &self.packages[self.fi];
        let mut found = Vec::new();
        for (fi, input) in self.files.iter().enumerate() {
            if &self.packages[fi] != pkg {
                continue;
            }
            for v in &input.facts.connections.flag_vars {
                let same_scope = match (func, v.func) {
                    (None, None) => true,
                    (Some(a), Some(b)) => fi == self.fi && a == b,
                    _ => false,
                };
                if v.text == name && same_scope {
                    found.extend(self.flag_at(&input.facts.path, v.line));
                }
            }
        }
        found.dedup();
        // Bound to several flags: which one the call sees depends on run time.
        match found.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}
