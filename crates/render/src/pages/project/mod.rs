//! The page types made for each project, one module each.

pub mod api;
pub mod changes;
pub mod configuration;
pub mod controllers;
pub mod data;
pub mod dataflow;
pub mod diagrams;
pub mod docs;
pub mod network;
pub mod overview;
pub mod security;
