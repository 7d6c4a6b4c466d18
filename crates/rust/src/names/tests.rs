use super::*;
use model::Area;

/// The names crate-level resolution finds for each file of a synthetic crate, and its
/// diagnostics.
fn names_of(files: &[(&str, &str)]) -> (Vec<FileNames>, Vec<String>) {
    names_in_workspace(files, &[])
}

/// `names_of` for a repository whose packages are `(folder, name)`.
fn names_in_workspace(
    files: &[(&str, &str)],
    packages: &[(&str, &str)],
) -> (Vec<FileNames>, Vec<String>) {
    let facts: Vec<RustFile> = files
        .iter()
        .map(|(p, t)| crate::extract(p, t, Area::Component))
        .collect();
    let packages: Vec<CargoPackage> = packages
        .iter()
        .map(|(dir, name)| CargoPackage {
            dir: dir.to_string(),
            name: name.to_string(),
            bins: Vec::new(),
        })
        .collect();
    let crates = Crates::new(&facts, &packages);
    let mut diagnostics = Vec::new();
    let found = facts
        .iter()
        .map(|f| crates.file_names(f, &mut diagnostics))
        .collect();
    let d = diagnostics
        .iter()
        .map(|d| format!("{}:{}: {}", d.file, d.line, d.message))
        .collect();
    (found, d)
}

fn names(f: &FileNames) -> Vec<String> {
    f.names.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

const PRELUDE: &str = "pub use kube::{Api, Client as KubeClient};\n\
pub use kube::runtime::*;\n\
pub use self::inner::Deep;\n\
use k8s_openapi::api::apps::v1::Deployment;\n\
pub mod inner { pub use k8s_openapi::api::core::v1::Secret as Deep; }\n";

#[test]
fn re_exports_reach_globs_and_explicit_imports_through_chains() {
    let (found, diagnostics) = names_of(&[
        ("op/src/lib.rs", "pub mod prelude;\npub mod shop;\n"),
        ("op/src/prelude.rs", PRELUDE),
        (
            "op/src/shop/mod.rs",
            "pub mod shelf;\nuse super::prelude::*;\n",
        ),
        (
            "op/src/shop/shelf.rs",
            "use crate::prelude::{Api, KubeClient as C, Deep};\nuse crate::nowhere::Thing;\n",
        ),
        // A binary of the same package: its `crate::` paths fall back to the library's
        // modules when its own root has none.
        ("op/src/main.rs", "mod prelude;\nuse crate::prelude::Api;\n"),
    ]);
    // The glob brings the explicit re-exports (renamed, and through an inline module), and
    // the re-exported glob of kube's runtime; the parent's private import is not seen.
    assert_eq!(
        names(&found[2]),
        vec![
            "Api=kube::Api",
            "Deep=k8s_openapi::api::core::v1::Secret",
            "KubeClient=kube::Client",
        ]
    );
    assert_eq!(found[2].globs, vec!["kube::runtime".to_string()]);
    // Explicit imports of re-exported names, renamed again here.
    assert_eq!(
        names(&found[3]),
        vec![
            "Api=kube::Api",
            "C=kube::Client",
            "Deep=k8s_openapi::api::core::v1::Secret",
        ]
    );
    assert_eq!(names(&found[4]), vec!["Api=kube::Api"]);
    // The prelude itself learns what its inline module re-exports.
    assert_eq!(
        names(&found[1]),
        vec!["Deep=k8s_openapi::api::core::v1::Secret"]
    );
    assert!(found[1].globs.is_empty());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0].starts_with("op/src/shop/shelf.rs:2: `use crate::nowhere::{Thing}`"),
        "{diagnostics:?}"
    );
}

#[test]
fn private_imports_are_seen_by_descendants_and_ambiguous_globs_by_no_one() {
    let (found, _) = names_of(&[
        ("op/src/lib.rs", "mod a;\nmod b;\nmod user;\n"),
        (
            "op/src/a.rs",
            "pub use one::Widget;\nuse k8s_openapi::api::core::v1::Pod;\nmod child { use super::*; }\n",
        ),
        ("op/src/b.rs", "pub use two::Widget;\n"),
        ("op/src/user.rs", "use crate::a::*;\nuse crate::b::*;\n"),
    ]);
    // The inline child module sees its parent's private `Pod`; the file already imports
    // it, so nothing is added for the file as a whole.
    assert_eq!(found[1], FileNames::default());
    // `Widget` comes from two globs as two different paths: not used; `Pod` is private to
    // `a` and not seen from `user`.
    assert_eq!(found[3], FileNames::default());
}

#[test]
fn a_cycle_of_globs_ends() {
    let (found, diagnostics) = names_of(&[
        ("op/src/lib.rs", "pub mod a;\npub mod b;\n"),
        ("op/src/a.rs", "pub use crate::b::*;\npub use kube::Api;\n"),
        ("op/src/b.rs", "pub use crate::a::*;\n"),
    ]);
    assert_eq!(names(&found[2]), vec!["Api=kube::Api"]);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

#[test]
fn names_of_other_crates_taken_as_modules_and_paths_from_the_root() {
    let (found, diagnostics) = names_of(&[
        (
            "op/src/lib.rs",
            "pub use kube_core as core;\npub mod http;\nmod web;\nmod k8s { pub use k8s_openapi::api::core::v1 as corev1; }\n",
        ),
        ("op/src/http.rs", "pub struct Local;\n"),
        (
            "op/src/web.rs",
            "use crate::core::Resource;\nuse ::http::uri::Authority;\nuse crate::k8s::corev1::*;\nuse crate::k8s::corev1::Pod as P;\n",
        ),
    ]);
    // `crate::core` is kube_core (re-exported under another name); `::http` is the other
    // crate even beside a module `http`; an inline module's alias of another crate's
    // module leads into it, by name or by glob.
    assert_eq!(
        names(&found[2]),
        vec![
            "P=k8s_openapi::api::core::v1::Pod",
            "Resource=kube_core::Resource",
        ]
    );
    assert_eq!(
        found[2].globs,
        vec!["k8s_openapi::api::core::v1".to_string()]
    );
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

#[test]
fn crates_of_the_repository_are_followed_by_name_and_through_aliases() {
    let (found, diagnostics) = names_in_workspace(
        &[
            (
                "api/src/lib.rs",
                "pub mod policy;\npub use kube::{Api, Client};\npub use k8s_openapi::api::core::v1 as corev1;\n",
            ),
            (
                "api/src/policy.rs",
                "pub use kube::ResourceExt;\npub struct Rule;\n",
            ),
            (
                "runtime/src/lib.rs",
                "pub use shop_api as k8s;\nmod lease;\nmod admit;\n",
            ),
            (
                "runtime/src/lease.rs",
                "use crate::k8s;\nuse shop_api::{Client, corev1::Pod};\n",
            ),
            (
                "runtime/src/admit.rs",
                "use crate::k8s::policy::{ResourceExt, Rule};\n",
            ),
        ],
        &[("api", "shop-api"), ("runtime", "shop-runtime")],
    );
    // A module imported by name gives its names of other crates as `k8s::Api`; items of
    // another crate of the repository resolve through its re-exports.
    assert_eq!(
        names(&found[3]),
        vec![
            "Client=kube::Client",
            "Pod=k8s_openapi::api::core::v1::Pod",
            "k8s::Api=kube::Api",
            "k8s::Client=kube::Client",
            "k8s::corev1=k8s_openapi::api::core::v1",
        ]
    );
    // Through the alias into the other crate's module; its own struct stays its own.
    assert_eq!(names(&found[4]), vec!["ResourceExt=kube::ResourceExt"]);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}
