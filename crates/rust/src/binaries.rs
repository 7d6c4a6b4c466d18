//! Command-line flags and environment variables: clap-derive structs (`#[derive(Parser)]`
//! or `#[derive(Args)]`) with `#[arg(long, short, env = "X", default_value = …)]` (or the
//! older `#[clap(…)]`) fields, and `#[command(flatten)]` fields that pull in another
//! struct's arguments. Which binary parses which struct is settled per project.

use syn::{Fields, Item};

use super::attrs;
use super::syntax::{doc, line, text};
use super::uses::Uses;
use model::{EnvVar, Flag, SourceRef};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClapStruct {
    pub name: String,
    pub flags: Vec<Flag>,
    pub env: Vec<EnvVar>,
    /// Type names of `#[command(flatten)]` fields.
    pub flatten: Vec<String>,
}

pub fn extract(path: &str, items: &[Item], uses: &Uses) -> Vec<ClapStruct> {
    let mut out = Vec::new();
    for item in items {
        let Item::Struct(s) = item else { continue };
        let clap = |n: &str| attrs::derives(&s.attrs, n, &["clap"], uses);
        if !clap("Parser") && !clap("Args") {
            continue;
        }
        let Fields::Named(named) = &s.fields else {
            continue;
        };
        let mut c = ClapStruct {
            name: s.ident.to_string(),
            flags: Vec::new(),
            env: Vec::new(),
            flatten: Vec::new(),
        };
        for f in &named.named {
            let Some(ident) = &f.ident else { continue };
            let args = attrs::args(&f.attrs, &["arg", "clap", "command"]);
            let at = SourceRef::new(path, line(ident.span()));
            if attrs::has(&args, "flatten") {
                if let syn::Type::Path(p) = &f.ty
                    && let Some(seg) = p.path.segments.last()
                {
                    c.flatten.push(seg.ident.to_string());
                }
                continue;
            }
            if attrs::has(&args, "subcommand") {
                continue;
            }
            let field = ident.to_string();
            let field = field.strip_prefix("r#").unwrap_or(&field).to_string();
            if let Some(env) = attrs::value(&args, "env") {
                let name = match &env.value {
                    Some(v) if !env.is_expr => v.clone(),
                    Some(v) => format!("{{{v}}}"),
                    None => field.to_uppercase(),
                };
                c.env.push(EnvVar {
                    name,
                    sources: vec![at.clone()],
                });
            }
            let long = attrs::value(&args, "long").map(|a| match &a.value {
                Some(v) if !a.is_expr => v.clone(),
                Some(v) => format!("{{{v}}}"),
                None => field.replace('_', "-"),
            });
            let short = attrs::value(&args, "short").map(|a| match &a.value {
                Some(v) => v.clone(),
                None => field.chars().next().map(String::from).unwrap_or_default(),
            });
            let (name, shorthand) = match (long, short) {
                (Some(l), s) => (l, s.unwrap_or_default()),
                (None, Some(s)) => (s, String::new()),
                // A field without `long` or `short` is a positional argument, not a flag.
                (None, None) => continue,
            };
            let default = ["default_value", "default_value_t", "default_values_t"]
                .iter()
                .find_map(|k| attrs::value(&args, k));
            let (default, default_expr) = match default {
                Some(d) => match &d.value {
                    Some(v) => {
                        let literal = v.parse::<f64>().is_ok() || v == "true" || v == "false";
                        (v.clone(), d.is_expr && !literal)
                    }
                    None => ("Default::default()".to_string(), true),
                },
                None => (String::new(), false),
            };
            let help = match attrs::value(&args, "help").and_then(|a| a.value.clone()) {
                Some(h) => h,
                None => doc(&f.attrs),
            };
            c.flags.push(Flag {
                name,
                shorthand,
                kind: text(&f.ty),
                default,
                default_expr,
                default_env: false,
                help,
                help_expr: false,
                library: String::new(),
                sources: vec![at],
            });
        }
        out.push(c);
    }
    out
}
