//! What follows from the analyzed models, model in and model out: links between projects,
//! the index of every kind, who may do what (RBAC) against what the code does, least
//! privilege, availability, CRD schemas and the differences between two models.

pub mod access;
pub mod availability;
pub mod diff;
pub mod kind_index;
pub mod least_privilege;
pub mod link;
pub mod schema;
