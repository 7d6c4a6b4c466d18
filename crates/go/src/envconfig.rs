//! Environment variables read into a struct by envconfig
//! (`github.com/kelseyhightower/envconfig`): `envconfig.Process(prefix, &spec)` (or
//! `MustProcess`) reads one variable per field of `spec`, named as envconfig names it: the
//! `envconfig:` tag, else the field's name (split into words joined with `_` under
//! `split_words:"true"`), after `PREFIX_`, in upper case; with a prefix, a tagged field
//! is also read from its tag's name alone when the prefixed one is not set. A struct field of the
//! repository's types is read field by field (an embedded one with the same prefix, a
//! named one with its own name as the prefix); `ignored:"true"` fields are not read. A
//! field of another module's struct type is not followed (a diagnostic says so).

use tree_sitter::Node;

use super::binaries::values::value_of;
use super::facts::Import;
use super::facts::binaries::RawEnvconfig;
use super::index::{GoIndex, GoInput};
use super::kong::{Structs, exported_fields};
use super::scope::Scope;
use super::syntax::{call_arguments, line_of};
use super::types::{StructDecl, tag_lookup};
use model::{Diagnostic, EnvVar, SourceRef};

const ENVCONFIG: &str = "github.com/kelseyhightower/envconfig";
const MAX_DEPTH: usize = 8;
const MAX_FIELDS: usize = 2_000;

/// Go's types envconfig decodes from one variable.
const SCALARS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "float32", "float64", "Duration", "byte", "rune",
];

/// `envconfig.Process(prefix, &spec)`, `envconfig.MustProcess(prefix, &spec)`.
pub fn process_call(
    call: Node,
    operand: Node,
    method: &str,
    scope: &Scope,
    func: usize,
    src: &[u8],
    imports: &[Import],
) -> Option<RawEnvconfig> {
    if !matches!(method, "Process" | "MustProcess")
        || !super::calls::is_package(operand, scope, src, imports, ENVCONFIG)
    {
        return None;
    }
    let args = call_arguments(call);
    let (prefix, spec) = (*args.first()?, *args.get(1)?);
    Some(RawEnvconfig {
        func,
        line: line_of(call),
        prefix: value_of(prefix, scope, src, imports),
        spec: scope.type_of(spec, src, call.start_byte()),
    })
}

/// The variables one `Process` call reads.
pub(crate) fn resolve(
    files: &[GoInput],
    index: &GoIndex,
    structs: &Structs,
    fi: usize,
    raw: &RawEnvconfig,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<EnvVar> {
    let file = &files[fi].facts;
    let say = |diagnostics: &mut Vec<Diagnostic>, why: &str| {
        diagnostics.push(Diagnostic::new(
            &file.path,
            raw.line,
            format!("envconfig reads environment variables here, but {why}: they are not listed"),
        ));
    };
    let Some(prefix) = raw.prefix.string.as_ref().and_then(|e| index.eval(file, e)) else {
        say(
            diagnostics,
            &format!("its prefix `{}` is not a string constant", raw.prefix.text),
        );
        return Vec::new();
    };
    let Some(root) = structs.of_value(index, file, &raw.spec) else {
        say(diagnostics, "the struct it reads into is not followed");
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut walk = Walk {
        index,
        files,
        structs,
        out: &mut out,
        fields: 0,
        unfollowed: Vec::new(),
    };
    walk.fields_of(root, &prefix, 0);
    for name in walk.unfollowed {
        say(
            diagnostics,
            &format!(
                "the field `{name}` has a struct type of another module, whose fields are not followed"
            ),
        );
    }
    out
}

struct Walk<'w, 'a> {
    index: &'a GoIndex<'a>,
    files: &'a [GoInput],
    structs: &'w Structs<'a>,
    out: &'w mut Vec<EnvVar>,
    fields: usize,
    unfollowed: Vec<String>,
}

impl Walk<'_, '_> {
    fn fields_of(&mut self, (fi, decl): (usize, &StructDecl), prefix: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let file = &self.files[fi].facts;
        for (f, tag) in exported_fields(decl) {
            self.fields += 1;
            if self.fields > MAX_FIELDS {
                return;
            }
            if tag_lookup(tag, "ignored") == Some("true") {
                continue;
            }
            let alt = tag_lookup(tag, "envconfig").filter(|a| !a.is_empty());
            let mut key = match alt {
                Some(alt) => alt.to_string(),
                _ if tag_lookup(tag, "split_words") == Some("true") => split_words(&f.name),
                _ => f.name.clone(),
            };
            if !prefix.is_empty() {
                key = format!("{prefix}_{key}");
            }
            let key = key.to_uppercase();
            let scalar = f.ty.collection || SCALARS.contains(&f.ty.name.as_str());
            if !scalar {
                let nested = self
                    .index
                    .type_package(file, f.ty.qualifier.as_deref())
                    .and_then(|p| self.structs.get(&p, &f.ty.name));
                match nested {
                    Some(inner) => {
                        let inner_prefix = if f.embedded { prefix.to_string() } else { key };
                        self.fields_of(inner, &inner_prefix, depth + 1);
                    }
                    // Another module's type: a struct (read field by field) or a type
                    // decoding itself from one variable, which cannot be told here.
                    None => self.unfollowed.push(f.name.clone()),
                }
                continue;
            }
            let at = vec![SourceRef::new(&file.path, f.line)];
            // With a prefix, a tagged field falls back to its tag's name unprefixed.
            if let Some(alt) = alt.filter(|_| !prefix.is_empty()) {
                self.out.push(EnvVar {
                    name: alt.to_uppercase(),
                    sources: at.clone(),
                });
            }
            self.out.push(EnvVar {
                name: key,
                sources: at,
            });
        }
    }
}

/// envconfig's `split_words`: runs of lower case, capitals followed by lower case, or
/// capitals; an acronym run followed by a word splits before the word's capital
/// (`QueueServingTLSPort` → `Queue_Serving_TLS_Port`).
fn split_words(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        if !chars[i].is_ascii_uppercase() {
            while i < chars.len() && !chars[i].is_ascii_uppercase() {
                i += 1;
            }
            words.push(chars[start..i].iter().collect());
            continue;
        }
        while i < chars.len() && chars[i].is_ascii_uppercase() {
            i += 1;
        }
        let capitals = i;
        while i < chars.len() && !chars[i].is_ascii_uppercase() {
            i += 1;
        }
        // `TLSPort`: the acronym, then the word starting at its last capital.
        if i > capitals && capitals - start > 1 {
            words.push(chars[start..capitals - 1].iter().collect());
            words.push(chars[capitals - 1..i].iter().collect());
        } else {
            words.push(chars[start..i].iter().collect());
        }
    }
    words.join("_")
}

#[cfg(test)]
mod tests;
