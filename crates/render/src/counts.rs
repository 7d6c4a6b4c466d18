//! Counts as the home page cards, the totals and a project's overview show them: the
//! project's own rows (exactly the rows of its own tables), and after them the rows its
//! pages list apart, "+10 in samples", "+2 bundled", so every number is one the pages
//! list.

use serde::Serialize;

use super::table::counted;
use model::{Counts, Rows};

/// One count: `6 Services`, and what is listed apart, `+10 in samples, +1 bundled`.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CountItem {
    pub text: String,
    /// Empty when nothing of this is listed apart.
    pub apart: String,
    /// Where the rows listed apart are, for a `title` attribute.
    pub title: String,
}

/// What the home page says once about the numbers in parentheses.
pub const NOTE: &str = "Counts are of each project's own rows. Rows from its tests, docs, examples and tooling (+N in samples) and copies of other projects' manifests it ships (+N bundled) are listed apart, at the end of its pages.";

/// Which counts a list shows.
#[derive(Clone, Copy, PartialEq)]
pub enum Detail {
    /// A home page card: the headline counts.
    Card,
    /// A project's overview and the totals: every count.
    Full,
}

/// The counts of `c` as items, in page order.
pub fn items(c: &Counts, detail: Detail) -> Vec<CountItem> {
    let s = &c.samples;
    let b = &c.bundled;
    let mut out = vec![
        item(
            c.own.controllers,
            "controller",
            "controllers",
            s.controllers,
            0,
        ),
        plain(c.watches, "watch", "watches"),
        item(c.own.crds, "CRD", "CRDs", s.crds, b.crds),
        item(
            c.own.webhooks,
            "webhook",
            "webhooks",
            s.webhooks,
            b.webhooks,
        ),
        item(
            c.own.services,
            "Service",
            "Services",
            s.services,
            b.services,
        ),
        item(
            c.own.configmaps,
            "ConfigMap",
            "ConfigMaps",
            s.configmaps,
            b.configmaps,
        ),
    ];
    if detail == Detail::Full {
        out.extend([
            item(
                c.own.http_endpoints,
                "HTTP or gRPC endpoint",
                "HTTP and gRPC endpoints",
                s.http_endpoints,
                0,
            ),
            item(
                c.own.helm_charts,
                "Helm chart",
                "Helm charts",
                s.helm_charts,
                0,
            ),
            item(c.own.rbac, "RBAC rule", "RBAC rules", s.rbac, b.rbac),
            item(c.own.binaries, "binary", "binaries", s.binaries, 0),
            plain(c.flags, "flag", "flags"),
            plain(c.env_vars, "environment variable", "environment variables"),
            item(c.own.metrics, "metric", "metrics", s.metrics, 0),
        ]);
    }
    out.push(plain(c.diagnostics, "diagnostic", "diagnostics"));
    out
}

fn plain(n: usize, one: &str, many: &str) -> CountItem {
    item(n, one, many, 0, 0)
}

fn item(n: usize, one: &str, many: &str, samples: usize, bundled: usize) -> CountItem {
    let mut apart = Vec::new();
    let mut title = Vec::new();
    if samples > 0 {
        apart.push(format!("+{samples} in samples"));
        title.push(format!(
            "{samples} more under \u{201c}Samples and tooling\u{201d} (tests, docs, examples, tooling)"
        ));
    }
    if bundled > 0 {
        apart.push(format!("+{bundled} bundled"));
        title.push(format!(
            "{bundled} more under \u{201c}Bundled\u{201d} (another project's manifests shipped with this one)"
        ));
    }
    CountItem {
        text: counted(n, one, many),
        apart: apart.join(", "),
        title: if title.is_empty() {
            String::new()
        } else {
            format!("Listed apart on the project's pages: {}.", title.join("; "))
        },
    }
}

/// Whether any count of `a` is not zero.
pub fn any(a: &Rows) -> bool {
    *a != Rows::default()
}

#[cfg(test)]
mod tests;
