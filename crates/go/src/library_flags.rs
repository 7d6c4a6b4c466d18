//! Flags that libraries register on a program's behalf, kept as data: the program only
//! asks for them (`opts.BindFlags(flag.CommandLine)`, `klog.InitFlags(nil)`) or links a
//! package whose `init` registers them, so their names are not in the repository.
//!
//! Each table notes the library version it was read from; a library that renames a flag
//! in a later version makes its row stale, never invents one.

use tree_sitter::Node;

use super::calls::names_import;
use super::facts::Import;
use super::facts::library_flags::LibraryUse;
use super::scope::{Binding, Scope};
use super::syntax::callee;
use super::syntax::{FIELD, KindName, line_of, string_literal, text};
use super::types::type_ref;

/// controller-runtime's zap options (`sigs.k8s.io/controller-runtime/pkg/log/zap`).
pub const CR_ZAP: &str = "sigs.k8s.io/controller-runtime/pkg/log/zap";
/// klog's import paths.
pub const KLOG: [&str; 2] = ["k8s.io/klog/v2", "k8s.io/klog"];
/// Packages that link `sigs.k8s.io/controller-runtime/pkg/client/config`, whose `init`
/// registers `--kubeconfig` on `flag.CommandLine` (the root package aliases its
/// `GetConfigOrDie`).
pub const CR_CONFIG: [&str; 2] = [
    "sigs.k8s.io/controller-runtime/pkg/client/config",
    "sigs.k8s.io/controller-runtime",
];

/// (name, pflag type, default, help) of one library flag.
pub type Row = (&'static str, &'static str, &'static str, &'static str);

/// controller-runtime v0.19 `zap.Options.BindFlags`. `zap-devel` defaults to the options'
/// `Development` field, read from the literal when there is one.
pub const ZAP_FLAGS: &[Row] = &[
    (
        "zap-devel",
        "bool",
        "false",
        "Development Mode defaults(encoder=consoleEncoder,logLevel=Debug,stackTraceLevel=Warn). Production Mode defaults(encoder=jsonEncoder,logLevel=Info,stackTraceLevel=Error)",
    ),
    (
        "zap-encoder",
        "value",
        "",
        "Zap log encoding (one of 'json' or 'console')",
    ),
    (
        "zap-log-level",
        "value",
        "",
        "Zap Level to configure the verbosity of logging. Can be one of 'debug', 'info', 'error', or any integer value > 0 which corresponds to custom debug levels of increasing verbosity",
    ),
    (
        "zap-stacktrace-level",
        "value",
        "",
        "Zap Level at and above which stacktraces are captured (one of 'info', 'error', 'panic').",
    ),
    (
        "zap-time-encoding",
        "value",
        "",
        "Zap time encoding (one of 'epoch', 'millis', 'nano', 'iso8601', 'rfc3339' or 'rfc3339nano'). Defaults to 'epoch'.",
    ),
];

/// klog v2.130 `InitFlags`.
pub const KLOG_FLAGS: &[Row] = &[
    (
        "add_dir_header",
        "bool",
        "false",
        "If true, adds the file directory to the header of the log messages",
    ),
    (
        "alsologtostderr",
        "bool",
        "false",
        "log to standard error as well as files (no effect when -logtostderr=true)",
    ),
    (
        "log_backtrace_at",
        "value",
        ":0",
        "when logging hits line file:N, emit a stack trace",
    ),
    (
        "log_dir",
        "string",
        "",
        "If non-empty, write log files in this directory (no effect when -logtostderr=true)",
    ),
    (
        "log_file",
        "string",
        "",
        "If non-empty, use this log file (no effect when -logtostderr=true)",
    ),
    (
        "log_file_max_size",
        "uint64",
        "1800",
        "Defines the maximum size a log file can grow to (no effect when -logtostderr=true). Unit is megabytes. If the value is 0, the maximum file size is unlimited.",
    ),
    (
        "logtostderr",
        "bool",
        "true",
        "log to standard error instead of files",
    ),
    (
        "one_output",
        "bool",
        "false",
        "If true, only write logs to their native severity level (vs also writing to each lower severity level; no effect when -logtostderr=true)",
    ),
    (
        "skip_headers",
        "bool",
        "false",
        "If true, avoid header prefixes in the log messages",
    ),
    (
        "skip_log_headers",
        "bool",
        "false",
        "If true, avoid headers when opening log files (no effect when -logtostderr=true)",
    ),
    (
        "stderrthreshold",
        "value",
        "2",
        "logs at or above this threshold go to stderr when writing to files and stderr (no effect when -logtostderr=true or -alsologtostderr=true)",
    ),
    ("v", "value", "0", "number for the log level verbosity"),
    (
        "vmodule",
        "value",
        "",
        "comma-separated list of pattern=N settings for file-filtered logging",
    ),
];

/// controller-runtime v0.19 `pkg/client/config` `init`.
pub const KUBECONFIG_FLAGS: &[Row] = &[(
    "kubeconfig",
    "string",
    "",
    "Paths to a kubeconfig. Only required if out-of-cluster.",
)];

/// The argument as written, unless it is `flag.CommandLine` (or `nil`, which klog reads as
/// `flag.CommandLine`).
fn other_flag_set(call: Node, nil_ok: bool, src: &[u8], imports: &[Import]) -> Option<String> {
    let args = call.child_by_field_id(FIELD.arguments);
    let arg = args
        .filter(|a| a.named_child_count() == 1)
        .and_then(|a| a.named_child(0));
    let Some(arg) = arg else {
        return Some(args.map(|a| text(a, src).to_string()).unwrap_or_default());
    };
    let written = text(arg, src);
    if nil_ok && written == "nil" {
        return None;
    }
    let command_line = arg.kind_name() == "selector_expression"
        && arg
            .child_by_field_id(FIELD.field)
            .is_some_and(|f| text(f, src) == "CommandLine")
        && arg.child_by_field_id(FIELD.operand).is_some_and(|o| {
            o.kind_name() == "identifier" && names_import(imports, text(o, src), "flag")
        });
    let merged = arg.kind_name() == "identifier" && merged_into_pflag(call, written, src);
    (!command_line && !merged).then(|| written.to_string())
}

/// True when the function around `call` hands the Go flag set `set` (a local variable)
/// to a pflag set's `AddGoFlagSet(set)`: its flags then join the flags the function
/// registers on that pflag set (llm-d's sidecar binds zap's flags this way).
fn merged_into_pflag(call: Node, set: &str, src: &[u8]) -> bool {
    let mut body = call.parent();
    while let Some(n) = body {
        if matches!(
            n.kind_name(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            break;
        }
        body = n.parent();
    }
    let Some(body) = body else {
        return false;
    };
    // An explicit stack: a function body is bounded by the file, never recursed into.
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind_name() == "call_expression"
            && let Some(f) = callee(n).filter(|f| f.kind_name() == "selector_expression")
            && f.child_by_field_id(FIELD.field)
                .is_some_and(|m| text(m, src) == "AddGoFlagSet")
            && n.child_by_field_id(FIELD.arguments).is_some_and(|a| {
                a.named_child_count() == 1 && a.named_child(0).is_some_and(|x| text(x, src) == set)
            })
        {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// The rows a library registers.
pub fn table(library: &str) -> &'static [Row] {
    match library {
        "zap" => ZAP_FLAGS,
        "klog" => KLOG_FLAGS,
        "controller-runtime" => KUBECONFIG_FLAGS,
        _ => &[],
    }
}

/// `opts.BindFlags(…)` on controller-runtime zap options, or `klog.InitFlags(…)`.
pub fn library_use(
    call: Node,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> Option<LibraryUse> {
    let f = callee(call).filter(|f| f.kind_name() == "selector_expression")?;
    let operand = f.child_by_field_id(FIELD.operand)?;
    let method = text(f.child_by_field_id(FIELD.field)?, src);
    let line = line_of(call);
    match method {
        "InitFlags" => {
            let q = text(operand, src);
            (operand.kind_name() == "identifier"
                && scope.lookup(q, operand.start_byte()).is_none()
                && KLOG.iter().any(|p| imports_as(imports, q, p)))
            .then(|| LibraryUse {
                line,
                func,
                library: "klog",
                devel: Ok(false),
                field: None,
                other_flag_set: other_flag_set(call, true, src, imports),
            })
        }
        "BindFlags" => {
            let is_zap = |q: &Option<String>| {
                q.as_deref()
                    .is_some_and(|q| names_import(imports, q, CR_ZAP))
            };
            // The options value: a literal (`zap.Options{…}`, `&zap.Options{…}`) or a
            // variable declared with the type.
            let mut n = scope.resolve_value(operand, src);
            if n.kind_name() == "unary_expression" {
                n = n.child_by_field_id(FIELD.operand)?;
            }
            let receiver = text(operand, src);
            let unknown = || Err(format!("{receiver}.Development"));
            let mut field = None;
            let devel = match n.kind_name() {
                "composite_literal" => {
                    let t = type_ref(n.child_by_field_id(FIELD.ty)?, src)?;
                    if t.name != "Options" || !is_zap(&t.qualifier) {
                        return None;
                    }
                    development(n, src)
                }
                "identifier" => match scope.lookup(text(n, src), n.start_byte()) {
                    // A declared variable starts at the zero value.
                    Some(Binding::Typed(t)) if t.name == "Options" && is_zap(&t.qualifier) => {
                        Ok(false)
                    }
                    Some(Binding::Param(_, Some(t)))
                        if t.name == "Options" && is_zap(&t.qualifier) =>
                    {
                        unknown()
                    }
                    _ => return None,
                },
                // `opts.zapOpts.BindFlags(…)`: a struct field, checked per project.
                "selector_expression" if imports.iter().any(|i| i.path == CR_ZAP) => {
                    field = Some(text(n.child_by_field_id(FIELD.field)?, src).to_string());
                    unknown()
                }
                _ => return None,
            };
            Some(LibraryUse {
                line,
                func,
                library: "zap",
                devel,
                field,
                other_flag_set: other_flag_set(call, false, src, imports),
            })
        }
        _ => None,
    }
}

/// True when `q` names the import of `path`: its alias, or its package name, which for a
/// `…/v2` major-version path is the element before the version.
fn imports_as(imports: &[Import], q: &str, path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or(path);
    let is_major =
        last.len() > 1 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit());
    let name = if is_major {
        parts.next().unwrap_or(last)
    } else {
        last
    };
    imports.iter().any(|imp| {
        imp.path == path
            && match &imp.alias {
                Some(a) => a == q,
                None => name == q,
            }
    })
}

/// `Development: true|false` in an options literal (absent: the zero value, false).
fn development(lit: Node, src: &[u8]) -> Result<bool, String> {
    let Some(body) = lit.child_by_field_id(FIELD.body) else {
        return Ok(false);
    };
    for (k, v) in super::syntax::keyed_elements(body) {
        if text(k, src) == "Development" {
            return match text(v, src) {
                "true" => Ok(true),
                "false" => Ok(false),
                other => Err(other.to_string()),
            };
        }
    }
    Ok(false)
}

/// True when a struct of the package declares field `name` as controller-runtime's
/// `zap.Options` (each file's own imports name the package).
pub fn zap_options_field<'a>(
    files: impl Iterator<Item = (&'a [super::types::StructDecl], &'a [Import])>,
    name: &str,
) -> bool {
    let mut found = false;
    for (structs, imports) in files {
        found |= structs.iter().flat_map(|s| &s.fields).any(|f| {
            f.name == name
                && f.ty.name == "Options"
                && f.ty
                    .qualifier
                    .as_deref()
                    .is_some_and(|q| names_import(imports, q, CR_ZAP))
        });
    }
    found
}

/// The line of an import of a package whose `init` registers `--kubeconfig`.
pub fn kubeconfig_import(decl: Node, src: &[u8]) -> Option<u32> {
    let mut stack = vec![decl];
    let mut steps = 0;
    while let Some(node) = stack.pop() {
        steps += 1;
        if steps > 10_000 {
            return None;
        }
        if node.kind_name() == "import_spec" {
            let path = node
                .child_by_field_id(FIELD.path)
                .and_then(|p| string_literal(p, src));
            if path.is_some_and(|p| CR_CONFIG.contains(&p.as_str())) {
                return Some(line_of(node));
            }
        } else {
            let mut c = node.walk();
            stack.extend(node.named_children(&mut c));
        }
    }
    None
}
