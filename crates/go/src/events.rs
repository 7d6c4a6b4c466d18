//! The Kubernetes Events a project's code emits: each call of an event recorder's
//! `Event`, `Eventf` or `AnnotatedEventf` (client-go's `tools/record`) or `Eventf`
//! (`tools/events`), with its reason and type.
//!
//! A call counts only when its receiver's declared type is one of those recorder
//! interfaces (or a repository interface or struct embedding one), followed through fields,
//! parameters and results by the value index: a method merely named `Eventf` is not an
//! Event. A call whose receiver's type cannot be followed is a diagnostic, not a row.

use model::{Diagnostic, TableRow, UNRESOLVED};
use tree_sitter::Node;

use super::consts::{ConstExpr, const_expr};
use super::extractor::{self, Extractor, Function, Project};
use super::facts::GoFile;
use super::index::{GoInput, dir_of};
use super::syntax::{call_arguments, line_of, shorten, text};
use super::types::{TypeRef, ValueType};

pub struct Events;

/// The calls of one file that may emit an Event.
#[derive(Debug, Clone, Default)]
pub struct Calls(Vec<Call>);

#[derive(Debug, Clone)]
struct Call {
    /// The type of the receiver as the function tells it.
    recorder: ValueType,
    method: String,
    /// Each argument as a string expression when it is one, and as written.
    args: Vec<(Option<ConstExpr>, String)>,
    line: u32,
    /// `Type.Method` or the function's name.
    function: String,
}

/// Where the type, reason and message are among the arguments, by recorder and method.
struct Shape {
    kind: usize,
    reason: usize,
    message: usize,
}

const RECORD: &str = "k8s.io/client-go/tools/record";
const EVENTS: &str = "k8s.io/client-go/tools/events";
const CORE_V1: &str = "k8s.io/api/core/v1";

/// The arguments of `method` of a recorder declared in `package`, when it emits Events.
fn shape(package: &str, method: &str) -> Option<Shape> {
    let at = |kind, reason, message| Some(Shape { kind, reason, message });
    match (package, method) {
        // Event(object, eventtype, reason, message), Eventf(object, eventtype, reason, format, …)
        (RECORD, "Event" | "Eventf") => at(1, 2, 3),
        // AnnotatedEventf(object, annotations, eventtype, reason, format, …)
        (RECORD, "AnnotatedEventf") => at(2, 3, 4),
        // Eventf(regarding, related, eventtype, reason, action, note, …)
        (EVENTS, "Eventf") => at(2, 3, 5),
        _ => None,
    }
}

impl Extractor for Events {
    type Facts = Calls;

    fn name(&self) -> &'static str {
        "events"
    }

    fn title(&self) -> &'static str {
        "Events"
    }

    fn about(&self) -> &'static str {
        "Kubernetes Events the code emits through client-go's event recorders, by reason: what kubectl describe and kubectl get events show for the objects it works on."
    }

    fn columns(&self) -> &'static [&'static str] {
        &["Reason", "Type", "Message", "Emitted in"]
    }

    fn function(&self, f: &Function<'_, '_>, facts: &mut Calls) {
        // Generated code counts: Knative's generated reconcilers emit the Events of every
        // reconciler built on them.
        for (call, operand, field) in f.ctx.method_calls() {
            let method = text(field, f.src);
            // Fewer arguments than any recorder method takes: not a recorder's call.
            let fewest = match method {
                "Event" | "Eventf" => 4,
                "AnnotatedEventf" => 5,
                _ => continue,
            };
            let args = call_arguments(call);
            if args.len() < fewest {
                continue;
            }
            let args = args
                .into_iter()
                .map(|a| (const_expr(a, f.src), written(a, f.src)))
                .collect();
            facts.0.push(Call {
                recorder: f.scope.type_of(operand, f.src, call.start_byte()),
                method: method.to_string(),
                args,
                line: line_of(call),
                function: match &f.ctx.receiver_type {
                    Some(t) => format!("{t}.{}", f.ctx.name),
                    None => f.ctx.name.clone(),
                },
            });
        }
    }

    fn resolve(
        &self,
        files: &[(&GoInput, &Calls)],
        project: &Project<'_, '_>,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Vec<TableRow> {
        let mut rows = Vec::new();
        for (input, calls) in files {
            let file = &input.facts;
            for call in &calls.0 {
                let package = match receiver(project, file, &call.recorder) {
                    Receiver::Recorder(package) => package,
                    Receiver::Other => continue,
                    Receiver::Unknown(why) => {
                        diagnostics.push(Diagnostic::new(
                            &file.path,
                            call.line,
                            format!(
                                "`{}` may emit a Kubernetes Event, but {why}: not listed under Events",
                                call.method
                            ),
                        ));
                        continue;
                    }
                };
                let Some(shape) = shape(package, &call.method) else {
                    continue; // A method of the recorder that emits no Event.
                };
                let Some(cells) = cells(project, file, call, &shape, diagnostics) else {
                    continue;
                };
                rows.push(extractor::row(input, cells, call.line));
            }
        }
        rows
    }
}

/// What a call's receiver is.
enum Receiver {
    /// An event recorder of this package (`RECORD` or `EVENTS`).
    Recorder(&'static str),
    /// A type of the repository that neither is nor embeds one.
    Other,
    /// Not known, and why.
    Unknown(String),
}

/// What the receiver of a call is, from its declared type: a recorder interface, or a
/// repository interface or struct that embeds one (`type Recorder interface {
/// record.EventRecorder; … }`, `struct { record.EventRecorder }`).
fn receiver(project: &Project<'_, '_>, file: &GoFile, recorder: &ValueType) -> Receiver {
    let Some((declared_in, t)) =
        project
            .values
            .declared_type(file, dir_of(&file.path), recorder)
    else {
        return Receiver::Unknown("the type of its receiver is not known here".into());
    };
    if let Some(package) = recorder_interface(project, declared_in, &t) {
        return Receiver::Recorder(package);
    }
    let dir = project.index.package_dir(declared_in, t.qualifier.as_deref());
    let Some(dir) = dir else {
        let name = match &t.qualifier {
            Some(q) => format!("{q}.{}", t.name),
            None => t.name.clone(),
        };
        return Receiver::Unknown(format!(
            "its receiver's type, {name}, is declared outside the repository"
        ));
    };
    let values = project.values;
    let embedded: Vec<(&GoFile, TypeRef)> = values
        .interface_embeds(&dir, &t.name)
        .into_iter()
        .map(|(f, e)| (f, e.clone()))
        .chain(values.struct_field(&dir, &t.name, "EventRecorder"))
        .chain(values.struct_field(&dir, &t.name, "EventRecorderLogger"))
        .collect();
    embedded
        .iter()
        .find_map(|(f, e)| recorder_interface(project, f, e))
        .map_or(Receiver::Other, Receiver::Recorder)
}

/// `RECORD` or `EVENTS` when `t`, written in `file`, is that package's recorder interface.
fn recorder_interface(project: &Project<'_, '_>, file: &GoFile, t: &TypeRef) -> Option<&'static str> {
    if t.collection || !matches!(t.name.as_str(), "EventRecorder" | "EventRecorderLogger") {
        return None;
    }
    let package = project.index.import_for(file, t.qualifier.as_deref()?)?;
    [RECORD, EVENTS].into_iter().find(|p| *p == package)
}

/// The row's cells; None (with a diagnostic) when the call has too few arguments.
fn cells(
    project: &Project<'_, '_>,
    file: &GoFile,
    call: &Call,
    shape: &Shape,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    let (Some(kind), Some(reason), Some(message)) = (
        call.args.get(shape.kind),
        call.args.get(shape.reason),
        call.args.get(shape.message),
    ) else {
        diagnostics.push(Diagnostic::new(
            &file.path,
            call.line,
            format!("`{}` with too few arguments for an event recorder: not listed under Events", call.method),
        ));
        return None;
    };
    let value = |(expr, _): &(Option<ConstExpr>, String)| {
        expr.as_ref().and_then(|e| project.index.eval(file, e))
    };
    let reason = value(reason).unwrap_or_else(|| {
        diagnostics.push(Diagnostic::new(
            &file.path,
            call.line,
            format!(
                "the reason of this Event, `{}`, is not a constant portolan can evaluate: listed as {UNRESOLVED}",
                reason.1
            ),
        ));
        UNRESOLVED.to_string()
    });
    let kind = event_type(project, file, kind).unwrap_or_else(|| {
        diagnostics.push(Diagnostic::new(
            &file.path,
            call.line,
            format!(
                "the type of this Event, `{}`, is not a constant portolan can evaluate: listed as {UNRESOLVED}",
                kind.1
            ),
        ));
        UNRESOLVED.to_string()
    });
    // A message that is no constant is shown as written: it is text, not a name.
    let message = value(message).unwrap_or_else(|| message.1.clone());
    Some(vec![reason, kind, message, call.function.clone()])
}

/// `Normal` or `Warning`: core/v1's `EventTypeNormal` and `EventTypeWarning` (a package
/// outside the repository, so not in the constant index), or a constant of the repository.
fn event_type(
    project: &Project<'_, '_>,
    file: &GoFile,
    (expr, _): &(Option<ConstExpr>, String),
) -> Option<String> {
    let expr = expr.as_ref()?;
    if let ConstExpr::Ref {
        qualifier: Some(q),
        name,
    } = expr
        && project.index.import_for(file, q).as_deref() == Some(CORE_V1)
    {
        return match name.as_str() {
            "EventTypeNormal" => Some("Normal".into()),
            "EventTypeWarning" => Some("Warning".into()),
            _ => None,
        };
    }
    project.index.eval(file, expr)
}

/// An argument as written, on one line and at most 80 characters.
fn written(node: Node, src: &[u8]) -> String {
    shorten(text(node, src), 80)
}

#[cfg(test)]
mod tests;
