//! Helm's template syntax as far as portolan reads it without rendering: where the
//! `{{ … }}` actions of a text are.

/// Byte ranges of `{{ … }}` actions. An action left open runs to the end of the text.
pub fn action_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("{{") {
        let start = from + open;
        let end = match text[start + 2..].find("}}") {
            Some(close) => start + 2 + close + 2,
            None => text.len(),
        };
        spans.push((start, end));
        from = end;
    }
    spans
}
