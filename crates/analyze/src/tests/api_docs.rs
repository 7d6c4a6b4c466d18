use model::{CrdSchema, Findings};

use super::project;

const GROUP: &str = r#"// +groupName=pumps.example.io
package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

var GroupVersion = schema.GroupVersion{Group: "pumps.example.io", Version: "v1"}
"#;

const TYPES: &str = r#"package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:object:root=true

// Pump is the Schema for the pumps API.
type Pump struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec PumpSpec `json:"spec,omitempty"`
}

// PumpSpec is what a pump should do.
type PumpSpec struct {
	// Primary is the main outlet.
	Primary Outlet `json:"primary"`
	// Backup takes over when the primary fails.
	Backup Outlet `json:"backup,omitempty"`
	Stages StageList `json:"stages,omitempty"`
	Common `json:",inline"`
	// Resources of the pump's pod.
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
}

// Common holds fields every machine has.
type Common struct {
	// Paused stops the pump.
	Paused bool `json:"paused,omitempty"`
}

// Outlet is where water leaves.
type Outlet struct {
	// Zone of the outlet.
	Zone string `json:"zone"`
	// Rate in litres per second.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=500
	Rate int32 `json:"rate,omitempty"`
	// Valves in order.
	Valves []string `json:"valves,omitempty"`
}

// StageList is the stages, first to last.
type StageList []Stage

// Stage is one step of pumping.
type Stage struct {
	// Name of the stage.
	Name string `json:"name"`
}
"#;

fn crd(described_zone: bool) -> String {
    let zone_doc = if described_zone {
        "\n                      description: The CRD's own words."
    } else {
        ""
    };
    let outlet = |name: &str| {
        format!(
            "                {name}:
                  type: object
                  properties:
                    rate: {{type: integer, minimum: 0}}
                    valves: {{type: array, items: {{type: string}}}}
                    zone:
                      type: string{}\n",
            if name == "backup" { zone_doc } else { "" }
        )
    };
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pumps.pumps.example.io
spec:
  group: pumps.example.io
  names: {{kind: Pump, plural: pumps}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {{type: string}}
          kind: {{type: string}}
          metadata: {{type: object}}
          spec:
            type: object
            properties:
{}{}                paused: {{type: boolean}}
                retired: {{type: string}}
                resources:
                  type: object
                  properties:
                    limits: {{type: object, additionalProperties: {{type: string}}}}
                stages:
                  type: array
                  items:
                    type: object
                    properties:
                      name: {{type: string}}
",
        outlet("backup"),
        outlet("primary")
    )
}

fn pump(findings: &Findings) -> &CrdSchema {
    &findings.crds[0].schema[0]
}

#[test]
fn a_crd_without_descriptions_gets_the_go_doc_comments_in_go_order() {
    let crd = crd(false);
    let found = project(&[
        ("go.mod", "module example.com/pumps\n"),
        ("api/v1/groupversion_info.go", GROUP),
        ("api/v1/pump_types.go", TYPES),
        ("config/crd/pumps.yaml", &crd),
    ]);
    let schema = pump(&found);
    let origin = schema.go_type.as_ref().expect("matched with the Go type");
    assert_eq!(origin.name, "Pump");
    assert_eq!(origin.source.file, "api/v1/pump_types.go");
    assert_eq!(schema.description, "Pump is the Schema for the pumps API.");
    let rows: Vec<(&str, &str, Option<&str>)> = schema
        .fields
        .iter()
        .map(|f| {
            (
                f.path.as_str(),
                f.description.as_str(),
                f.same_as.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("metadata", "", None),
            ("spec", "PumpSpec is what a pump should do.", None),
            ("spec.primary", "Primary is the main outlet.", None),
            ("spec.primary.zone", "Zone of the outlet.", None),
            ("spec.primary.rate", "Rate in litres per second.", None),
            ("spec.primary.valves[]", "Valves in order.", None),
            // The first copy in Go order keeps the subtree; the other refers to it.
            (
                "spec.backup",
                "Backup takes over when the primary fails.",
                Some("spec.primary")
            ),
            // No field doc: the named type's doc (through `type StageList []Stage`).
            (
                "spec.stages[]",
                "StageList is the stages, first to last.",
                None
            ),
            ("spec.stages[].name", "Name of the stage.", None),
            // Promoted from the inline embedded struct, in its place.
            ("spec.paused", "Paused stops the pump.", None),
            ("spec.resources", "Resources of the pump's pod.", None),
            ("spec.resources.limits{}", "", None),
            ("spec.retired", "", None),
            ("apiVersion", "", None),
            ("kind", "", None),
        ]
    );
    assert!(
        schema
            .fields
            .iter()
            .filter(|f| !f.description.is_empty())
            .all(|f| f.go_doc)
    );
    let rate = schema.fields.iter().find(|f| f.path == "spec.primary.rate");
    // The schema states `minimum: 0` already; the Go field's Maximum is its own.
    assert_eq!(
        rate.map(|f| f.validation.clone()),
        Some(vec!["Maximum=500".to_string()])
    );
    let said: Vec<&str> = found
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .filter(|m| m.contains("no field descriptions"))
        .collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
            said[0].contains("10 of 15 fields")
                && said[0].contains("3 under types outside the repository (k8s.io/api/core/v1, k8s.io/apimachinery/pkg/apis/meta/v1)")
                && said[0].contains("1 the Go type does not have (spec.retired)")
                && said[0].contains("1 whose Go field has no doc comment (metadata)"),
            "{}",
            said[0]
        );
}

#[test]
fn descriptions_the_crd_has_are_kept_and_only_missing_ones_filled() {
    let crd = crd(true);
    let found = project(&[
        ("go.mod", "module example.com/pumps\n"),
        ("api/v1/groupversion_info.go", GROUP),
        ("api/v1/pump_types.go", TYPES),
        ("config/crd/pumps.yaml", &crd),
    ]);
    let schema = pump(&found);
    // The outlets differ now (one described zone), so both are listed in full.
    let zone = |p: &str| schema.fields.iter().find(|f| f.path == p).expect(p);
    assert_eq!(zone("spec.backup.zone").description, "The CRD's own words.");
    assert!(!zone("spec.backup.zone").go_doc);
    assert_eq!(zone("spec.primary.zone").description, "Zone of the outlet.");
    assert!(zone("spec.primary.zone").go_doc);
    // The CRD has a description, so no diagnostic about missing ones.
    assert!(
        !found
            .diagnostics
            .iter()
            .any(|d| d.message.contains("no field descriptions"))
    );
}

#[test]
fn a_crd_with_no_go_type_says_so_and_is_left_alone() {
    let crd = crd(false);
    let found = project(&[
        ("go.mod", "module example.com/pumps\n"),
        ("api/v1/groupversion_info.go", GROUP),
        ("config/crd/pumps.yaml", &crd),
    ]);
    let schema = pump(&found);
    assert!(schema.go_type.is_none());
    assert!(schema.fields.iter().all(|f| f.description.is_empty()));
    // Schema order (alphabetical) is kept.
    assert_eq!(schema.fields[0].path, "apiVersion");
    assert!(found.diagnostics.iter().any(|d| {
        d.file == "config/crd/pumps.yaml"
            && d.message
                .contains("no Go type Pump was found in a package of its group and version")
    }));
}

#[test]
fn copies_from_different_go_types_are_listed_in_full_and_repeats_are_not_guessed() {
    let types = r#"package v1

// +kubebuilder:object:root=true

// Vault stores secrets.
type Vault struct {
	Spec VaultSpec `json:"spec"`
}

type VaultSpec struct {
	// Alpha logs in with a token.
	Alpha AlphaAuth `json:"alpha"`
	// Beta logs in with a password.
	Beta BetaAuth `json:"beta"`
	// Gamma is a second alpha.
	Gamma AlphaAuth `json:"gamma"`
	// Delta is an alpha by another name.
	Delta DeltaAuth `json:"delta"`
	Shared `json:",inline"`
	// Mode is declared here and in Shared.
	Mode string `json:"mode"`
}

type Shared struct {
	// Mode of the shared part.
	Mode string `json:"mode"`
}

type DeltaAuth struct {
	AlphaAuth `json:",inline"`
}

type AlphaAuth struct {
	// Path of the token.
	Path string `json:"path"`
	// Role to assume with the token.
	Role string `json:"role"`
	// Mount of the token engine.
	Mount string `json:"mount"`
}

type BetaAuth struct {
	// Path of the password.
	Path string `json:"path"`
	// Role to assume with the password.
	Role string `json:"role"`
	// Mount of the password engine.
	Mount string `json:"mount"`
}
"#;
    let auth = "type: object\n                  properties:\n                    mount: {type: string}\n                    path: {type: string}\n                    role: {type: string}";
    let crd = format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: vaults.pumps.example.io
spec:
  group: pumps.example.io
  names: {{kind: Vault, plural: vaults}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
                alpha:
                  {auth}
                beta:
                  {auth}
                gamma:
                  {auth}
                delta:
                  {auth}
                mode: {{type: string}}
"
    );
    let found = project(&[
        ("go.mod", "module example.com/pumps\n"),
        ("api/v1/groupversion_info.go", GROUP),
        ("api/v1/vault_types.go", types),
        ("config/crd/vaults.yaml", &crd),
    ]);
    let schema = pump(&found);
    let doc = |p: &str| {
        let f = schema.fields.iter().find(|f| f.path == p).expect(p);
        (f.description.as_str(), f.same_as.as_deref())
    };
    // The CRD lists beta and gamma as the same fields as alpha; beta's Go type differs.
    assert_eq!(
        doc("spec.alpha.role"),
        ("Role to assume with the token.", None)
    );
    assert_eq!(doc("spec.beta"), ("Beta logs in with a password.", None));
    assert_eq!(
        doc("spec.beta.role"),
        ("Role to assume with the password.", None)
    );
    assert_eq!(
        doc("spec.gamma"),
        ("Gamma is a second alpha.", Some("spec.alpha"))
    );
    assert!(
        !schema
            .fields
            .iter()
            .any(|f| f.path.starts_with("spec.gamma."))
    );
    assert_eq!(doc("spec.mode"), ("", None));
    assert!(found.diagnostics.iter().any(|d| {
        d.message
            .contains("1 declared twice in the Go type, by an inline struct (spec.mode)")
    }));
}
