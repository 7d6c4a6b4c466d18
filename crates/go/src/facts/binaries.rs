//! Per-file facts of the `binaries` feature: flag registrations, environment reads and
//! constructors' struct literals, as written, for the per-project resolution.

use super::cobra::{CmdRef, CobraFacts};
use super::flag_default::NumTok;
use super::library_flags::LibraryUse;
use crate::consts::ConstExpr;
use crate::types::{Root, ValueType};

/// A Go expression as written, with what portolan can evaluate of it later.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawValue {
    /// The source text, whitespace runs folded to one space.
    pub text: String,
    /// The expression as a string constant expression, when it is one.
    pub string: Option<ConstExpr>,
    /// Built only from literals, operators, `time` units, conversions and the constant
    /// names in `names`.
    pub literal: bool,
    pub names: Vec<(Option<String>, String)>,
    /// `x.F` (or `x.A.F`): a field of a value whose origin may be known.
    pub field: Option<FieldRef>,
    /// `F(…)` or `pkg.F(…)`, possibly behind `*` or `&`: a value a function made.
    pub call: Option<(Option<String>, String)>,
    /// The expression as a numeric constant expression (`15*time.Second`), postfix.
    pub num: Option<Vec<NumTok>>,
    /// A slice literal's elements (`[]string{"a", "b"}`; `nil` and `[]T{}` have none).
    pub items: Option<Vec<RawValue>>,
    /// `os.Getenv(NAME)`: the flag defaults to an environment variable's value.
    pub env: Option<ConstExpr>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldRef {
    pub root: Root,
    pub path: Vec<String>,
}

/// One flag registration.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFlag {
    pub line: u32,
    /// Index of the enclosing function (or package-level entry) in `GoFile::functions`.
    pub func: usize,
    /// pflag's type name.
    pub kind: String,
    /// The cobra command whose flag set it is registered on (`cmd.Flags().…`).
    pub command: Option<CmdRef>,
    pub name: RawValue,
    pub shorthand: Option<RawValue>,
    /// None for flags without a default argument (`Count`, `Func`).
    pub default: Option<RawValue>,
    /// True when the default argument is a `flag.Value`, whose default is its `String()`.
    pub default_is_value: bool,
    pub help: RawValue,
    /// The variable or field the flag's value lands in (`&x` of `StringVar`, or `x` of
    /// `x := flag.String(…)`), so settings read from it can name the flag.
    pub target: Option<FlagTarget>,
}

/// Where a flag's value is kept, as a value read elsewhere can be matched against it.
#[derive(Debug, Clone, PartialEq)]
pub enum FlagTarget {
    /// A variable: a local of the function (`local`) or a package-level one.
    Var { name: String, local: bool },
    /// A field of a value (`o.Port`, `cfg.Server.Addr`), whose root's type tells which
    /// struct it is.
    Field(FieldRef),
}

#[derive(Debug, Clone, PartialEq)]
pub enum EnvName {
    Str(ConstExpr),
    /// The enclosing function's parameter: the function is a helper, and its callers name
    /// the variable.
    Param(usize),
    Other(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawEnv {
    pub line: u32,
    pub func: usize,
    pub name: EnvName,
}

/// A function whose one return statement returns a struct literal.
#[derive(Debug, Clone, PartialEq)]
pub struct Constructor {
    pub func: usize,
    pub line: u32,
    pub fields: Vec<LiteralField>,
}

impl Constructor {
    /// The value the literal gives a field path (`["Port"]`, or `["Config", "Port"]`); a
    /// one-element path also finds a field promoted from an embedded struct.
    pub fn field(&self, path: &[String]) -> Option<&RawValue> {
        self.fields
            .iter()
            .find(|f| f.path == path)
            .or_else(|| match path {
                [one] => self
                    .fields
                    .iter()
                    .find(|f| f.promoted && f.path.last() == Some(one)),
                _ => None,
            })
            .map(|f| &f.value)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LiteralField {
    /// `["Port"]`, or `["Config", "Port"]` inside an embedded `Config: Config{…}`.
    pub path: Vec<String>,
    /// True when every enclosing key is an embedded struct, so `o.Port` reaches it.
    pub promoted: bool,
    pub value: RawValue,
}

/// What one file contributes to binaries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BinaryFacts {
    pub flags: Vec<RawFlag>,
    pub env_reads: Vec<RawEnv>,
    pub constructors: Vec<Constructor>,
    /// Package-level constants that are not strings (`DefaultPort = 9002`).
    pub value_consts: Vec<(String, RawValue)>,
    /// Package-level `var x = strings.Join([]string{…}, sep)` of constants, which help
    /// texts use to list choices: (name, items, separator).
    pub joins: Vec<(String, Vec<ConstExpr>, ConstExpr)>,
    /// Calls that make a library register its flags (`klog.InitFlags(nil)`).
    pub library_uses: Vec<LibraryUse>,
    /// The line of an import whose package registers `--kubeconfig` in its `init`.
    pub kubeconfig_import: Option<u32>,
    pub cobra: CobraFacts,
    /// `kong.Parse(&cli, …)` (and `kong.New`, `kong.Must`): the command line is the struct
    /// `cli`'s tagged fields.
    pub kong: Vec<RawKong>,
    /// `envconfig.Process(prefix, &spec)`: the environment variables are the struct
    /// `spec`'s fields.
    pub envconfig: Vec<RawEnvconfig>,
    /// Calls of the global viper's environment API (`viper.AutomaticEnv()`,
    /// `viper.GetString(key)`, …): which read environment variables is per program.
    pub viper: Vec<RawViper>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawEnvconfig {
    pub func: usize,
    pub line: u32,
    /// The prefix as written (a string constant expression, or not one).
    pub prefix: RawValue,
    pub spec: ValueType,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawKong {
    pub func: usize,
    pub line: u32,
    /// The grammar value's type (`&cli{}`, a local of the struct type).
    pub grammar: ValueType,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawViper {
    pub func: usize,
    pub line: u32,
    pub call: ViperCall,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ViperCall {
    AutomaticEnv,
    /// `SetEnvPrefix(p)`: the prefix, when it is a constant.
    Prefix(Option<ConstExpr>),
    KeyReplacer,
    /// `Get…(key)`, `IsSet(key)`, `BindEnv(key)`: the key, when it is a constant.
    Key(Option<ConstExpr>),
    /// `BindEnv(key, names…)`: the variables named, each when it is a constant.
    Bound(Vec<Option<ConstExpr>>),
}
