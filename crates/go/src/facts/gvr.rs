//! GroupVersionResources as written (`gvr`): shared by the features that read them
//! (informers, dynamic-client writes).

use crate::consts::ConstExpr;

/// A GroupVersionResource as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Gvr {
    /// `schema.GroupVersionResource{Group: …, Version: …, Resource: …}`, or
    /// `schema.GroupVersion{…}.WithResource(r)`.
    Literal {
        group: Option<ConstExpr>,
        version: Option<ConstExpr>,
        resource: Option<ConstExpr>,
    },
    /// `pkg.SchemeGroupVersion.WithResource(r)`: the group/version package `pkg` declares.
    Package {
        qualifier: String,
        var: String,
        resource: Option<ConstExpr>,
    },
    /// A package-level variable holding one (`name`, or `pkg.Name` of an in-repo package).
    Var {
        qualifier: Option<String>,
        name: String,
    },
}
