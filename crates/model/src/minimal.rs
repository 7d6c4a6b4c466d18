//! Minimal values for tests: only the fields a test names are set, the rest empty.
//! Public so that the tests of every crate build the same values the same way.

use crate::{CelRule, CrdSchema, SchemaField};

/// A field at `path`, its depth counted from the path's dots, nothing else set.
pub fn field(path: &str, field_type: &str) -> SchemaField {
    SchemaField {
        path: path.into(),
        depth: path.matches('.').count() as u32,
        field_type: field_type.into(),
        ..SchemaField::default()
    }
}

/// A CEL rule with only its rule text.
pub fn rule(text: &str) -> CelRule {
    CelRule {
        rule: text.into(),
        message: String::new(),
        message_expression: String::new(),
        reason: String::new(),
        field_path: String::new(),
        each: false,
        from_marker: false,
    }
}

/// A version's schema with these fields and nothing else.
pub fn schema(version: &str, fields: Vec<SchemaField>) -> CrdSchema {
    CrdSchema {
        rules: Vec::new(),
        version: version.into(),
        description: String::new(),
        fields,
        preserve_unknown_fields: false,
        truncated: false,
        go_type: None,
    }
}
