//! Per-file facts of webhooks (`webhooks`): webhook builders and the methods that decide
//! what they serve.

use crate::consts::ConstExpr;
use crate::syntax::ObjectRef;

/// One webhook builder and what was configured on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookBuilder {
    /// The line of the constructor call.
    pub line: u32,
    /// The type served (`For(&T{})` or the constructor's object), with the line it is given on.
    pub object: Option<(ObjectRef, u32)>,
    /// Lines of `WithDefaulter`/`WithCustomDefaulter`, `WithValidator`/`WithCustomValidator`
    /// and `WithConverter`.
    pub defaulter: Option<u32>,
    pub validator: Option<u32>,
    pub converter: Option<u32>,
    /// `WithCustomPath`, `WithDefaulterCustomPath`, `WithValidatorCustomPath`.
    pub custom_path: Option<PathArg>,
    pub defaulter_path: Option<PathArg>,
    pub validator_path: Option<PathArg>,
}

/// A custom path argument: its constant expression when it is one, and the text as written.
#[derive(Debug, Clone, PartialEq)]
pub struct PathArg {
    pub expr: Option<ConstExpr>,
    pub text: String,
    pub line: u32,
}

/// A method that decides what controller-runtime serves for a type: the legacy
/// `Default()`/`ValidateCreate()`, and the conversion `Hub()` and `ConvertTo(…)`.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodDecl {
    pub receiver: String,
    pub name: String,
    pub params: usize,
}
