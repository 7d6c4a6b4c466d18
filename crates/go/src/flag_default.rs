//! Flag defaults as `--help` prints them: numeric constant expressions (`15*time.Second`,
//! `float64(pkg.DefaultQPS)`, `1 << 20`) kept per file as a postfix token list and
//! evaluated per project, then formatted the way Go's `flag` and `pflag` packages format
//! a default: `time.Duration.String` (`1m30s`), `strconv.FormatFloat(f, 'g', -1, 64)`
//! (`0.5`, `1e+06`), and pflag's `[a,b]` for slices.

use tree_sitter::Node;

use super::calls::names_import;
use super::facts::Import;
use super::facts::flag_default::NumTok;
use super::scope::Scope;
use super::syntax::callee;
use super::syntax::{FIELD, KindName, text};

/// Longest token list kept; longer expressions stay Go source text.
const MAX_TOKENS: usize = 64;

/// The value of a numeric constant expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

/// `time`'s units in nanoseconds.
const TIME_UNITS: &[(&str, i128)] = &[
    ("Nanosecond", 1),
    ("Microsecond", 1_000),
    ("Millisecond", 1_000_000),
    ("Second", 1_000_000_000),
    ("Minute", 60_000_000_000),
    ("Hour", 3_600_000_000_000),
];

const INT_CONVERSIONS: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "byte", "rune", "uintptr",
];

/// The postfix tokens of `node` when it is built only from number literals, constant
/// names, `time` units, arithmetic and numeric conversions. Iterative (no recursion over
/// the syntax tree) and capped at [`MAX_TOKENS`].
pub fn num_expr(node: Node, scope: &Scope, src: &[u8], imports: &[Import]) -> Option<Vec<NumTok>> {
    let is_time = |q: &str| names_import(imports, q, "time");
    let local = |n: Node| scope.lookup(text(n, src), n.start_byte()).is_some();
    let mut out = Vec::new();
    // (node, its children were pushed already: emit its operator now)
    let mut stack: Vec<(Node, bool)> = vec![(node, false)];
    while let Some((n, done)) = stack.pop() {
        if out.len() + stack.len() > MAX_TOKENS {
            return None;
        }
        match n.kind_name() {
            "int_literal" => out.push(NumTok::Int(parse_int(text(n, src))?)),
            "float_literal" => {
                let t: String = text(n, src).chars().filter(|c| *c != '_').collect();
                if t.starts_with("0x") || t.starts_with("0X") {
                    return None;
                }
                out.push(NumTok::Float(t.parse().ok()?));
            }
            "identifier" => {
                let name = text(n, src);
                if local(n) || matches!(name, "true" | "false" | "nil" | "iota") {
                    return None;
                }
                out.push(NumTok::Ref(None, name.to_string()));
            }
            "selector_expression" => {
                let operand = n.child_by_field_id(FIELD.operand)?;
                let field = text(n.child_by_field_id(FIELD.field)?, src);
                if operand.kind_name() != "identifier" || local(operand) {
                    return None;
                }
                let q = text(operand, src);
                if is_time(q) {
                    let (_, ns) = TIME_UNITS.iter().find(|(u, _)| *u == field)?;
                    out.push(NumTok::Int(*ns));
                } else {
                    out.push(NumTok::Ref(Some(q.to_string()), field.to_string()));
                }
            }
            "parenthesized_expression" => stack.push((n.named_child(0)?, false)),
            "unary_expression" => {
                let op = text(n.child_by_field_id(FIELD.operator)?, src);
                let operand = n.child_by_field_id(FIELD.operand)?;
                match (op, done) {
                    ("+", _) => stack.push((operand, false)),
                    ("-", false) => {
                        stack.push((n, true));
                        stack.push((operand, false));
                    }
                    ("-", true) => out.push(NumTok::Neg),
                    _ => return None,
                }
            }
            "binary_expression" => {
                let op = text(n.child_by_field_id(FIELD.operator)?, src);
                if !matches!(op, "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "&" | "|") {
                    return None;
                }
                if done {
                    out.push(NumTok::Op(op.to_string()));
                } else {
                    stack.push((n, true));
                    stack.push((n.child_by_field_id(FIELD.right)?, false));
                    stack.push((n.child_by_field_id(FIELD.left)?, false));
                }
            }
            "call_expression" => {
                let f = callee(n)?;
                let to = match f.kind_name() {
                    "identifier" if !local(f) => match text(f, src) {
                        "float32" | "float64" => NumTok::ToFloat,
                        t if INT_CONVERSIONS.contains(&t) => NumTok::ToInt,
                        _ => return None,
                    },
                    "selector_expression" => {
                        let o = f.child_by_field_id(FIELD.operand)?;
                        let m = text(f.child_by_field_id(FIELD.field)?, src);
                        if o.kind_name() != "identifier"
                            || !is_time(text(o, src))
                            || m != "Duration"
                        {
                            return None;
                        }
                        NumTok::ToInt
                    }
                    _ => return None,
                };
                if done {
                    out.push(to);
                } else {
                    let args = n.child_by_field_id(FIELD.arguments)?;
                    if args.named_child_count() != 1 {
                        return None;
                    }
                    stack.push((n, true));
                    stack.push((args.named_child(0)?, false));
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A Go integer literal: decimal, `0x`, `0o`, `0b`, a leading-`0` octal, `_` separators.
fn parse_int(t: &str) -> Option<i128> {
    let t: String = t.chars().filter(|c| *c != '_').collect();
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(o) = lower.strip_prefix("0o") {
        (o.to_string(), 8)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower, 10)
    };
    i128::from_str_radix(&digits, radix).ok()
}

/// Evaluates postfix tokens; `lookup` gives a constant's value. None on an unknown name,
/// overflow, division by zero or a malformed list.
pub fn eval(
    tokens: &[NumTok],
    lookup: &mut dyn FnMut(Option<&str>, &str) -> Option<Num>,
) -> Option<Num> {
    let mut stack: Vec<Num> = Vec::new();
    for t in tokens {
        let v = match t {
            NumTok::Int(i) => Num::Int(*i),
            NumTok::Float(f) => Num::Float(*f),
            NumTok::Ref(q, name) => lookup(q.as_deref(), name)?,
            NumTok::Neg => match stack.pop()? {
                Num::Int(i) => Num::Int(i.checked_neg()?),
                Num::Float(f) => Num::Float(-f),
            },
            NumTok::ToFloat => match stack.pop()? {
                Num::Int(i) => Num::Float(i as f64),
                f => f,
            },
            NumTok::ToInt => match stack.pop()? {
                Num::Float(f) if f.fract() == 0.0 && f.abs() < 1e30 => Num::Int(f as i128),
                Num::Float(_) => return None,
                i => i,
            },
            NumTok::Op(op) => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                binary(op, a, b)?
            }
        };
        stack.push(v);
    }
    match stack.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

fn binary(op: &str, a: Num, b: Num) -> Option<Num> {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => Some(Num::Int(match op {
            "+" => x.checked_add(y)?,
            "-" => x.checked_sub(y)?,
            "*" => x.checked_mul(y)?,
            "/" => x.checked_div(y)?,
            "%" => x.checked_rem(y)?,
            "<<" => x.checked_shl(u32::try_from(y).ok().filter(|s| *s < 127)?)?,
            ">>" => x.checked_shr(u32::try_from(y).ok().filter(|s| *s < 127)?)?,
            "&" => x & y,
            "|" => x | y,
            _ => return None,
        })),
        _ => {
            let f = |n: Num| match n {
                Num::Int(i) => i as f64,
                Num::Float(f) => f,
            };
            let (x, y) = (f(a), f(b));
            let r = match op {
                "+" => x + y,
                "-" => x - y,
                "*" => x * y,
                "/" if y != 0.0 => x / y,
                _ => return None,
            };
            // The flag's type decides how it prints: an integral float is a valid
            // duration or integer (`1.5 * time.Second`).
            Some(Num::Float(r))
        }
    }
}

/// A value formatted as a flag of pflag type `kind` prints it, if that kind is numeric.
pub fn format(kind: &str, v: Num) -> Option<String> {
    let int = || match v {
        Num::Int(i) => Some(i),
        Num::Float(f) if f.fract() == 0.0 && f.abs() < 1e30 => Some(f as i128),
        Num::Float(_) => None,
    };
    let float = || match v {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    };
    match kind {
        "duration" => Some(go_duration(i64::try_from(int()?).ok()?)),
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "count" => {
            let i = int()?;
            (!kind.starts_with('u') || i >= 0).then(|| i.to_string())
        }
        "float64" => Some(go_float(float(), false)),
        "float32" => Some(go_float(float(), true)),
        _ => None,
    }
}

/// The element kind of a pflag slice kind (`intSlice` → `int`), if it is one.
pub fn slice_element(kind: &str) -> Option<&str> {
    kind.strip_suffix("Slice")
        .or_else(|| kind.strip_suffix("Array"))
}

/// pflag's `[a,b]`: the items joined by commas in brackets; string slices are written
/// as one line of Go's `encoding/csv` (a field with a comma, quote, line break or
/// leading space is quoted, its quotes doubled).
pub fn format_slice(kind: &str, items: &[String]) -> String {
    let strings = matches!(kind, "stringSlice" | "stringArray");
    let field = |i: &String| {
        let quote = !i.is_empty()
            && (i == "\\."
                || i.contains([',', '"', '\n', '\r'])
                || i.chars().next().is_some_and(char::is_whitespace));
        if strings && quote {
            format!("\"{}\"", i.replace('"', "\"\""))
        } else {
            i.clone()
        }
    };
    format!(
        "[{}]",
        items.iter().map(field).collect::<Vec<_>>().join(",")
    )
}

/// Go's `time.Duration.String`: `1h0m0s`, `1m30s`, `500ms`, `1.5µs`, `0s`.
pub fn go_duration(d: i64) -> String {
    if d == 0 {
        return "0s".to_string();
    }
    let neg = d < 0;
    let u = d.unsigned_abs();
    let sign = if neg { "-" } else { "" };
    if u < 1_000_000_000 {
        // Below a second: the largest unit that keeps the integer part non-zero.
        let (unit, scale) = if u < 1_000 {
            ("ns", 1)
        } else if u < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        return format!("{sign}{}{unit}", fraction(u, scale));
    }
    let hours = u / 3_600_000_000_000;
    let rest = u % 3_600_000_000_000;
    let minutes = rest / 60_000_000_000;
    let secs = fraction(rest % 60_000_000_000, 1_000_000_000);
    if hours > 0 {
        format!("{sign}{hours}h{minutes}m{secs}s")
    } else if minutes > 0 {
        format!("{sign}{minutes}m{secs}s")
    } else {
        format!("{sign}{secs}s")
    }
}

/// `v / scale` with its fraction's trailing zeros removed (`1500, 1000` → `1.5`).
fn fraction(v: u64, scale: u64) -> String {
    let whole = v / scale;
    let frac = v % scale;
    if frac == 0 {
        return whole.to_string();
    }
    let width = scale.to_string().len() - 1;
    let digits = format!("{frac:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// Go's `strconv.FormatFloat(f, 'g', -1, bits)` (what `flag` and `pflag` print): the
/// shortest digits that round-trip, in `%e` form when the exponent is below -4 or at
/// least 6 (Go's threshold for the shortest form).
pub fn go_float(f: f64, single: bool) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Rust's `{:e}` prints the shortest round-tripping digits: `1.5e-7`, `1e6`.
    let sci = if single {
        format!("{:e}", f as f32)
    } else {
        format!("{f:e}")
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let nd = digits.len() as i32;
    // strconv: "if precision was the shortest possible, use precision 6 for this decision".
    let eprec = 6;
    let sign = if neg { "-" } else { "" };
    if exp < -4 || exp >= eprec {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}{rest}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1;
    if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else if point >= nd {
        format!("{sign}{digits}{}", "0".repeat((point - nd) as usize))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{sign}{a}.{b}")
    }
}

#[cfg(test)]
mod tests;
