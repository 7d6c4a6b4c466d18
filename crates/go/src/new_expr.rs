//! Go 1.26's `new(expr)` (`new(false)`, `new(int32(6443))`, `new("name")`) for a grammar
//! that only knows `new(Type)`.
//!
//! tree-sitter-go 0.25 parses `new` with a type-only argument list, so `new(false)` is a
//! syntax error, and its recovery can swallow the construct around it: a whole controller
//! builder chain with `NeedLeaderElection: new(false)` in its options was lost. When a file
//! has errors, each `new(` whose argument is lexically an expression is respelled `NEW(`, a
//! plain call of the same length, and the file is parsed again. Byte offsets and lines do not
//! move and node text is still read from the original source, so every row keeps its place
//! and reads `new(…)`; the respelled tree is kept only when it has fewer errors.

use tree_sitter::Node;

/// `source` with every `new(` whose argument is an expression respelled `NEW(`, or None when
/// there is no such call.
pub fn respell(source: &str) -> Option<String> {
    let bytes = source.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut from = 0;
    while let Some(found) = find(bytes, b"new(", from) {
        from = found + 4;
        let standalone = found == 0 || !is_ident_byte(bytes[found - 1]) && bytes[found - 1] != b'.';
        if standalone && argument_is_expression(bytes, found + 4) {
            out.get_or_insert_with(|| bytes.to_vec())[found..found + 3].copy_from_slice(b"NEW");
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, so the text is still UTF-8.
    out.and_then(|b| String::from_utf8(b).ok())
}

/// How many ERROR and MISSING nodes a tree has, counted without recursion.
pub fn error_count(root: Node) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        let mut cursor = node.walk();
        stack.extend(
            node.children(&mut cursor)
                .filter(|c| c.has_error() || c.is_missing()),
        );
    }
    count
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// Whether `word` occurs in `text` as a whole word (`struct`, not `Infrastructure`).
fn has_word(text: &[u8], word: &[u8]) -> bool {
    let mut from = 0;
    while let Some(at) = find(text, word, from) {
        let before = at.checked_sub(1).map(|i| text[i]);
        let after = text.get(at + word.len()).copied();
        if !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte) {
            return true;
        }
        from = at + 1;
    }
    false
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Words that begin a type literal: `new(map[string]int)` and `new(func())` are types unless
/// followed by a composite literal's body, which the closing-brace rule below catches for
/// `map`, `[]` and named types; `struct`/`interface`/`func`/`chan` stay types.
const TYPE_KEYWORDS: &[&str] = &["struct", "interface", "func", "chan"];
/// Identifiers that are values, never types.
const VALUE_WORDS: &[&str] = &["true", "false", "nil", "iota"];

/// Whether the argument starting at `start` (just after `new(`) is lexically an expression
/// rather than a type. Unsure means no: such a call is left as the grammar reads it.
fn argument_is_expression(bytes: &[u8], start: usize) -> bool {
    let Some(arg) = argument(bytes, start) else {
        return false;
    };
    let arg = arg.trim_ascii();
    let Some(&first) = arg.first() else {
        return false;
    };
    if matches!(
        first,
        b'"' | b'`' | b'\'' | b'-' | b'+' | b'!' | b'&' | b'^' | b'('
    ) || first.is_ascii_digit()
    {
        return true;
    }
    let word_len = arg.iter().take_while(|b| is_ident_byte(**b)).count();
    let word = &arg[..word_len];
    if VALUE_WORDS.iter().any(|w| w.as_bytes() == word) && word_len == arg.len() {
        return true;
    }
    if TYPE_KEYWORDS.iter().any(|w| w.as_bytes() == word) || first == b'<' || first == b'*' {
        return false;
    }
    // `map[string]struct{}` ends with a brace but is a type.
    if has_word(arg, b"struct") || has_word(arg, b"interface") {
        return false;
    }
    // A conversion or call (`int32(6443)`, `ptr.To(x)`), a composite literal
    // (`map[string]bool{}`, `T{A: 1}`), a binary expression, a selector of a selector
    // (`in.Spec.Name`: a type is at most `pkg.T`) or of an index or call result
    // (`items[0].Name`), at the top level.
    let mut depth = 0i32;
    let mut saw_call = false;
    let mut dots = 0;
    let mut i = 0;
    while i < arg.len() {
        let b = arg[i];
        match b {
            b'"' | b'`' | b'\'' => i = skip_literal(arg, i),
            b'(' | b'[' | b'{' => {
                if depth == 0 && b == b'(' && i > 0 {
                    saw_call = true;
                }
                depth += 1;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 && b != b'}' && arg.get(i + 1) == Some(&b'.') {
                    return true;
                }
            }
            b'.' if depth == 0 => {
                dots += 1;
                if dots >= 2 {
                    return true;
                }
            }
            b'+' | b'-' | b'/' | b'%' | b'<' | b'>' | b'=' | b'|' | b'^' | b'*' | b'&'
                if depth == 0 =>
            {
                return true;
            }
            _ => {}
        }
        i += 1;
    }
    saw_call || arg.last() == Some(&b'}')
}

/// The text between `new(` and its closing parenthesis, or None when it is not closed
/// within a line-spanning but bounded stretch.
fn argument(bytes: &[u8], start: usize) -> Option<&[u8]> {
    const MAX_ARGUMENT: usize = 4096;
    let mut depth = 0i32;
    let mut i = start;
    let end = bytes.len().min(start + MAX_ARGUMENT);
    while i < end {
        match bytes[i] {
            b'"' | b'`' | b'\'' => i = skip_literal(bytes, i),
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => return bytes.get(start..i),
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the closing quote of the literal opening at `open` (or the last byte).
fn skip_literal(bytes: &[u8], open: usize) -> usize {
    let quote = bytes[open];
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote != b'`' => i += 1,
            b'\n' if quote != b'`' => return i,
            b if b == quote => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len().saturating_sub(1)
}

#[cfg(test)]
mod tests;
