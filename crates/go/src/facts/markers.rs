//! Per-file facts of kubebuilder markers (`markers`): package-level and type-level markers
//! with their arguments as written.

/// One argument: its name (empty for the single value of `+name=value`) and its values
/// (one for a scalar, several for a list).
pub type Arg = (String, Vec<String>);

/// A marker this module understands, with its arguments as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    pub name: &'static str,
    pub args: Vec<Arg>,
    pub line: u32,
}

/// The type-level markers of one `type X …` declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeMarkers {
    pub type_name: String,
    /// The line of the type's name in its declaration.
    pub line: u32,
    pub markers: Vec<Marker>,
}
