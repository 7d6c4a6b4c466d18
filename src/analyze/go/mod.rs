//! Go analysis with tree-sitter-go: per-file extraction (`file`), then per-project
//! resolution against the package index (`resolve`), with built-in API tables (`kinds`).

pub mod file;
pub mod kinds;
pub mod resolve;

pub use file::{GoFile, extract};
pub use resolve::{GoInput, GoModule, module_path, resolve};
