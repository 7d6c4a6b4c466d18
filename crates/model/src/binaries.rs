//! Programs built from `package main` folders: their commands, flags and environment
//! variables.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A program of the repository: one `package main` folder, with the command-line flags it
/// registers and the environment variables it reads.
///
/// A flag or environment read belongs to a binary when it is in the binary's main package,
/// or in a function the main package is shown to reach through calls within the
/// repository (or in a package-level declaration or `init` of a package the binary
/// imports). Flags and reads that no binary is shown to reach are not guessed onto one:
/// they are kept in an entry with an empty `name` whose `package` is the import path of
/// the library package that holds them (its "flag set").
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    /// The main package folder's last element (the module's last element for a main
    /// package at a module root); empty for a library package's flag set.
    pub name: String,
    /// The Go import path of the main package, or of the library package.
    pub package: String,
    pub flags: Vec<Flag>,
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    /// Where `func main` is; for a library package's flag set, empty.
    #[serde(default)]
    pub sources: Vec<SourceRef>,
    /// Where `name` comes from when it is not the folder's: the build file line that
    /// names the binary (`go build -o bin/manager ./cmd`), or the cobra root command's
    /// `Use`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub name_from: Vec<SourceRef>,
    /// The cobra commands of the program, root first, each with its own flags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Command>,
}

/// A cobra command (`&cobra.Command{Use: "serve", …}`) with the flags registered on it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The first word of `Use`.
    pub name: String,
    /// The command line that runs it: the root's name, then each parent's (`op serve`).
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub short: String,
    /// Flags registered on this command's `Flags()` or `PersistentFlags()`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    pub sources: Vec<SourceRef>,
}

impl Binary {
    /// True for the entry holding a library package's flags and environment reads.
    pub fn is_package(&self) -> bool {
        self.name.is_empty()
    }
}

/// One command-line flag, registered with `flag`, `pflag` or cobra's `Flags()`.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    pub name: String,
    /// The one-letter pflag shorthand (`-n`), if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shorthand: String,
    /// pflag's type names: `string`, `bool`, `int`, `duration`, `float64`, `stringSlice`, ….
    #[serde(rename = "type")]
    pub kind: String,
    /// The default: a string flag's value with constants resolved (`:8080`), or the Go
    /// source text of any other default (`8080`, `true`, `5 * time.Second`) with a lone
    /// constant replaced by its value. See `default_expr`.
    pub default: String,
    /// True when `default` is Go source text portolan could not evaluate (a variable, a
    /// field, a function call): the flag defaults to whatever it evaluates to at run time.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default_expr: bool,
    /// True when the default is an environment variable's value (`os.Getenv("X")`),
    /// shown as `$X` in `default`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub default_env: bool,
    pub help: String,
    /// True when `help` is source text that is not a string constant.
    #[serde(default, skip_serializing_if = "is_false")]
    pub help_expr: bool,
    /// The library that registers this flag (`zap`, `klog`, `controller-runtime`) when the
    /// program's own code only asks for it (`opts.BindFlags(flag.CommandLine)`); empty for
    /// the program's own flags.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub library: String,
    pub sources: Vec<SourceRef>,
}

/// An environment variable a program reads (`os.Getenv`, `os.LookupEnv`, directly or
/// through a helper function that passes its parameter on to them).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct EnvVar {
    pub name: String,
    pub sources: Vec<SourceRef>,
}
