//! Why the site could not be rendered: a theme that cannot be read or whose templates do
//! not compile or render, a model that cannot be written as JSON, two pages on one path,
//! or the [`crate::Sink`] refusing a file.

use std::path::PathBuf;

use files::regular::ReadError;

/// What a [`crate::Sink`] reports when it cannot take a file (its own error, boxed).
pub type SinkError = Box<dyn std::error::Error + Send + Sync>;

/// What [`crate::Theme::load`], [`crate::render_site`] and [`crate::render_content`] report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file of the site's theme folder could not be read.
    #[error("{}: {source}", path.display())]
    ThemeRead {
        path: PathBuf,
        #[source]
        source: ReadError,
    },
    /// A theme template is not UTF-8.
    #[error("theme template {path} is not UTF-8")]
    ThemeEncoding { path: String },
    /// The theme's templates do not compile. `message` is tera's, with the file of each
    /// overridden template it points into.
    #[error("{message}")]
    Templates {
        message: String,
        #[source]
        source: tera::Error,
    },
    /// A template failed to render. `message` names the template and tera's reasons, with
    /// the file of each overridden template it points into.
    #[error("{message}")]
    Template {
        template: String,
        message: String,
        #[source]
        source: tera::Error,
    },
    /// A page's view could not be handed to the templates.
    #[error("cannot prepare a page: {0}")]
    Context(#[source] tera::Error),
    /// A data file could not be serialized.
    #[error("cannot serialize the model: {0}")]
    Json(#[source] serde_json::Error),
    /// Two pages were made for one path (a bug).
    #[error(
        "two pages of the site have the path {path}: this is a bug in portolan, please report it with the projects that were built"
    )]
    DuplicatePath { path: String },
    /// `mermaid_js = true` without the script in the site's theme.
    #[error(
        "mermaid_js = true needs the script at themes/{theme}/static/{script} (copy dist/mermaid.min.js of the npm package `mermaid`); portolan loads nothing from other sites"
    )]
    MermaidScript { theme: String, script: String },
    /// The sink could not take a file; its own error says why.
    #[error("{0}")]
    Sink(#[source] SinkError),
}
