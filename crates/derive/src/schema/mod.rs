//! CRD schemas as the model lists them (`model::SchemaField`, flat and depth-first): walked
//! as a tree, and compared. Used by the API pages (examples, changes between served
//! versions) and by `diff` (a CRD at two commits).

pub mod diff;
pub mod tree;
