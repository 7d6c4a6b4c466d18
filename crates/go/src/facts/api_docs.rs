//! Per-file facts of the CRD reference's Go doc comments (`api_docs`): each type
//! declaration with its doc, markers and serialized fields.

/// One level of collection around a Go type: `[]T` (and `[N]T`) or `map[K]T`; in a CRD
/// path `[]` and `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    Slice,
    Map,
}

/// A type as written: the named type inside its collections (`qualifier.name`), pointers
/// and type arguments dropped. `name` is empty for a type with no name (an anonymous
/// struct, an interface, a function); `[]byte` is a string in a CRD, so it has no name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub qualifier: Option<String>,
    pub name: String,
    pub wrappers: Vec<Wrap>,
}

/// A `type T …` declaration of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct DocDecl {
    pub name: String,
    pub line: u32,
    pub doc: String,
    pub markers: Vec<String>,
    /// A struct's fields; `None` for any other type.
    pub fields: Option<Vec<DocField>>,
    /// What a non-struct type is defined as (`type Hosts []Host`).
    pub underlying: Option<Shape>,
}

/// A serialized field of a struct.
#[derive(Debug, Clone, PartialEq)]
pub struct DocField {
    /// The json name; empty for an embedded struct whose fields are promoted.
    pub json: String,
    pub inline: bool,
    pub doc: String,
    pub markers: Vec<String>,
    pub shape: Shape,
}
