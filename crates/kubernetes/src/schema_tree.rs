//! A CRD schema's fields as the model lists them: a pre-order list of fields with their
//! depths, at most `MAX_DEPTH` levels deep.

/// Field nesting deeper than this is not listed. Real CRDs nest up to 16 levels; the YAML
/// parser's own depth budget (64) stops much deeper schemas before they get here.
pub const MAX_DEPTH: u32 = 24;

/// The parent of each entry of a pre-order list given by depths: the nearest earlier
/// entry one level up.
pub fn parents_by_depth(depths: impl Iterator<Item = u32>) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    let mut open: Vec<(usize, u32)> = Vec::new();
    for (i, depth) in depths.enumerate() {
        while open.last().is_some_and(|&(_, d)| d >= depth) {
            open.pop();
        }
        out.push(open.last().map(|&(j, _)| j));
        open.push((i, depth));
    }
    out
}
