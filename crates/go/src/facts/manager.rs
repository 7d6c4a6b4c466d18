//! Per-file facts of controller-runtime managers (`manager`): `NewManager` calls and the
//! functions that make options, each options value as its settings as written.

use super::binaries::{FlagTarget, RawValue};
use crate::syntax::ObjectRef;

/// The options types portolan reads, and the nested maps of `cache.Options`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `manager.Options` (`ctrl.Options`).
    Manager,
    /// `cache.Options`.
    Cache,
    /// `map[client.Object]cache.ByObject`.
    ByObjectMap,
    /// `cache.ByObject`.
    ByObject,
    /// `map[string]cache.Config`.
    NamespaceMap,
    /// `cache.Config`.
    CacheConfig,
    /// `client.Options`.
    Client,
    /// `client.CacheOptions`.
    ClientCache,
    /// `metricsserver.Options`.
    Metrics,
    /// `webhook.Options`.
    Webhook,
    /// A `webhook.Server`: `webhook.NewServer(webhook.Options{…})`.
    WebhookServer,
}

/// How a leaf is evaluated: as a flag of this pflag type prints its default, or specially.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaf {
    Str,
    Bool,
    Int,
    Duration,
    Strings,
    /// A label or field selector.
    Selector,
    /// A cache transform function.
    Transform,
    /// A list of objects (`DisableFor`): one setting per object.
    Objects,
    /// A function that replaces a part of the manager (`NewCache`): its effect is unknown.
    Func,
}

/// One setting of an options value, as written.
#[derive(Debug, Clone, PartialEq)]
pub struct RawSetting {
    /// Field names from the manager's options down (`Cache`, `ByObject`, `Label`).
    pub path: Vec<String>,
    pub object: Option<ObjectRef>,
    /// A `DefaultNamespaces`/`Namespaces` entry's key, and the flag target it may be.
    pub namespace: Option<RawValue>,
    pub namespace_target: Option<FlagTarget>,
    /// None for an entry with no settings of its own (`ns: {}`).
    pub value: Option<RawValue>,
    pub leaf: Option<Leaf>,
    /// A selector built from parts (`labels.SelectorFromSet(labels.Set{k: v})`): (key,
    /// operator, value); empty when the value is not one.
    pub selector: Vec<(RawValue, &'static str, Option<RawValue>)>,
    /// For a transform: it strips managed fields.
    pub strips: Option<bool>,
    pub target: Option<FlagTarget>,
    /// The function (`GoFile::call_facts` index) the value is written in.
    pub func: usize,
    pub line: u32,
    pub condition: String,
}

/// Options a function of the repository makes, spliced in under `prefix`.
#[derive(Debug, Clone, PartialEq)]
pub struct Splice {
    pub prefix: Vec<String>,
    pub qualifier: Option<String>,
    pub name: String,
    pub line: u32,
    pub condition: String,
}

/// What one options value is made of.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawOptions {
    pub settings: Vec<RawSetting>,
    pub splices: Vec<Splice>,
    /// The parts of the value that are not known.
    pub unknown: Vec<Unknown>,
}

/// A part of an options value portolan does not follow.
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown {
    pub line: u32,
    /// Where in the options (empty: the whole value).
    pub path: Vec<String>,
    /// The expression as written.
    pub text: String,
    pub why: String,
}

/// A `NewManager` call.
#[derive(Debug, Clone, PartialEq)]
pub struct RawManager {
    pub func: usize,
    pub function: String,
    pub line: u32,
    pub options: RawOptions,
}

/// A function whose first result is options of `shape`, with what it returns.
#[derive(Debug, Clone, PartialEq)]
pub struct RawBuilder {
    pub func: usize,
    pub name: String,
    pub receiver: Option<String>,
    pub shape: Shape,
    pub options: RawOptions,
}

/// What one file contributes to managers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ManagerFacts {
    pub managers: Vec<RawManager>,
    pub builders: Vec<RawBuilder>,
}
