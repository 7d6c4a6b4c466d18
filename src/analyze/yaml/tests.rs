//! Tests of the per-project assembly.
