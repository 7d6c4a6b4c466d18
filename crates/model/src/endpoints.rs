//! What programs serve and where they connect: HTTP and gRPC routes, connections to
//! services outside the cluster's API.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Area, SourceRef, is_false};

/// A route a Go program serves.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct HttpEndpoint {
    /// `GET`, `POST`, …, `ANY` for a route that matches every method, or `GRPC` for a
    /// gRPC method.
    pub method: String,
    /// The path with group prefixes applied. A prefix-matching route (gorilla's
    /// `PathPrefix`, chi's `Mount`) ends in `*`; unresolved parts are shown as `{expr}`.
    /// A gRPC method is `/package.Service/Method` (`/package.Service/*` when its methods
    /// are not known).
    pub path: String,
    /// The host of a `ServeMux` pattern such as `"example.com/x"`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// The handler as written, shortened (`s.handleChat`, `promhttp.Handler()`).
    pub handler: String,
    /// `net/http`, `gorilla/mux`, `gin`, `echo`, `chi`, `go-restful`, `controller-runtime`,
    /// `grpc`, `grpc-gateway`, `axum`, `actix-web` or `tonic`.
    #[serde(default)]
    pub framework: String,
    /// True for an endpoint served without a registration in the code: `/metrics`,
    /// `/healthz`, `/readyz` of a controller-runtime manager, or what a well-known library
    /// helper or import registers (`healthz.InstallLivezHandler`, `net/http/pprof`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub implicit: bool,
    /// True when part of the method or path is not a string constant (shown as `{expr}`),
    /// or the router's prefix is unknown; a diagnostic says which.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unresolved: bool,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// A connection the code opens to a service: one constructor or dial call
/// (`sql.Open`, `redis.NewClient`, `grpc.NewClient`, `http.Get`, `s3.NewFromConfig`,
/// `reqwest::get`, tonic's `Channel::from_static`, …), matched by the import path of the
/// package it calls, never by the function's name alone.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
pub struct ExternalConnection {
    /// `sql`, `redis`, `kafka`, `nats`, `grpc`, `http` or `object-store`.
    pub kind: String,
    /// The library called, by import path or crate (`github.com/redis/go-redis/v9`,
    /// `database/sql`, `reqwest`), with the driver name for `database/sql` (`postgres`).
    pub library: String,
    /// The call as written (`redis.NewClient`, `grpc.NewClient`).
    pub call: String,
    pub target: ConnectionTarget,
    /// The `package main` folders (`Binary::package`) of the programs shown to reach the
    /// call; empty when no program is shown to reach it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<String>,
    #[serde(default, skip_serializing_if = "Area::is_component")]
    pub area: Area,
    pub sources: Vec<SourceRef>,
}

/// Where a connection goes, as far as the code establishes it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum ConnectionTarget {
    /// A constant, evaluated (`postgres://db:5432/app`, `https://api.example.com/v1/`
    /// for a constant prefix, with `prefix` set).
    Constant {
        value: String,
        /// True when only the start of the target is constant (`base + path`).
        #[serde(default, skip_serializing_if = "is_false")]
        prefix: bool,
    },
    /// A command-line flag's value: its name and default as the binaries table shows them.
    Flag { name: String, default: String },
    /// An environment variable's value.
    Env { name: String },
    /// Nothing the analyzer can establish; the expression as written.
    Unresolved { expression: String },
    /// The library's own default: no target argument and no option that could set one
    /// (`storage.NewClient(ctx)` and `s3.NewFromConfig(cfg)` take the endpoint from the
    /// environment or the cloud configuration).
    LibraryDefault,
}
