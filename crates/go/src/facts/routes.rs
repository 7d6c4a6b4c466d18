//! Per-file facts of HTTP and gRPC routes (`routes`): calls that may register routes as
//! chains of method calls, the evidence that tells what a receiver is, and the gRPC service
//! descriptors and gateway patterns of generated files.

use crate::consts::ConstExpr;

/// Everything one file contributes to route analysis.
#[derive(Debug, Default, Clone)]
pub struct RouteFacts {
    /// Calls that may register a route or create a controller-runtime manager.
    pub calls: Vec<RouteCall>,
    /// Calls of functions that pass something router-like as an argument.
    pub call_sites: Vec<CallSite>,
    /// Struct fields declared with a type, or assigned a value, by field name.
    pub fields: Vec<(String, Chain)>,
    /// Package-level variables, by name.
    pub vars: Vec<(String, Chain)>,
    /// The declared (first) result type of each top-level function, by function name.
    pub funcs: Vec<(String, Chain)>,
    /// gRPC service descriptors and grpc-gateway patterns of generated files.
    pub grpc: GrpcFacts,
}

/// An expression reduced to where its value comes from and the method calls applied to it:
/// `mux.HandleFunc("/x", h)` after `mux := http.NewServeMux()` is the base `http` with the
/// steps `NewServeMux()` and `HandleFunc("/x", h)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub base: Base,
    pub steps: Vec<Step>,
}

/// Where a chain starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    /// An identifier that is not a local variable: an import qualifier or a package-level
    /// variable.
    Name(String),
    /// `x.f` where `x` is not a call: a struct field (or, when `x` is an import qualifier,
    /// another package's variable). `operand` is `x` when it is a plain, non-local name.
    Selector {
        operand: Option<String>,
        field: String,
    },
    /// A value of a declared type: `var m *http.ServeMux`, `&http.ServeMux{}`.
    Type {
        qualifier: Option<String>,
        name: String,
    },
    /// Parameter `index` of the top-level function or method `func`, declared with a type.
    Param {
        func: String,
        index: usize,
        qualifier: Option<String>,
        name: String,
    },
    /// The result of calling a function of the same package, `newRouter()`.
    Call(String),
    /// Anything else: nothing is known about it.
    Opaque,
}

/// One method call in a chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub method: String,
    pub args: Vec<Arg>,
    /// The line of the method name, which is where a route is reported.
    pub line: u32,
}

/// One argument of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The argument as a string expression, when it is built from literals and names.
    pub expr: Option<ConstExpr>,
    /// The elements of a `[]string{…}` literal (or a local variable holding one).
    pub list: Vec<ConstExpr>,
    /// The argument's text, shortened for display as a handler name.
    pub text: String,
    /// True when the argument is (or names) a composite literal that sets
    /// `BindAddress: "0"`, which turns controller-runtime's metrics server off.
    pub disables_metrics: bool,
    /// Where the argument comes from, for the server and mux arguments of a gRPC or
    /// grpc-gateway registration (`pb.RegisterXServer(s, impl)`).
    pub chain: Option<Box<Chain>>,
}

/// A call that may register routes. Steps before `own_from` come from the variable the call
/// starts from (they are evaluated, but report nothing); the rest belong to this call.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteCall {
    pub chain: Chain,
    pub own_from: usize,
    /// Enclosing `for _, v := range []string{…}` loops: the variable and its values.
    pub loops: Vec<(String, Vec<ConstExpr>)>,
}

/// A call `f(…)`, `pkg.F(…)` or `x.M(…)` with the arguments that may be routers.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSite {
    /// `pkg` in `pkg.F(…)`, or `x` in `x.M(…)`; None for `f(…)`.
    pub qualifier: Option<String>,
    pub func: String,
    pub args: Vec<(usize, Chain)>,
}

/// What one file says about gRPC services and gateway routes.
#[derive(Debug, Default, Clone)]
pub struct GrpcFacts {
    /// `grpc.ServiceDesc` literals of a generated file.
    pub services: Vec<ServiceDesc>,
    /// grpc-gateway `pattern_…` variables of a generated file, with their path.
    pub patterns: Vec<(String, String)>,
    /// `mux.Handle(method, pattern_…, …)` calls in generated gateway registrations.
    pub handles: Vec<GatewayHandle>,
    /// Top-level functions whose names have the form of a generated registration.
    pub declared: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServiceDesc {
    /// `X` of `X_ServiceDesc` (or of the older `_X_serviceDesc`).
    pub go_name: String,
    pub full_name: String,
    /// Method and stream names, in declaration order.
    pub methods: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GatewayHandle {
    /// The generated function the call is in, `RegisterXHandlerClient`.
    pub func: String,
    /// The HTTP method, when it is a literal or a `http.Method…` constant.
    pub method: Option<String>,
    pub pattern: String,
}
