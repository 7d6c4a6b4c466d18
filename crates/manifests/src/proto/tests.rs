use super::*;

fn rpc(name: &str, line: u32, http: &[(&str, &str)]) -> ProtoRpc {
    ProtoRpc {
        name: name.into(),
        line,
        http: http
            .iter()
            .map(|(m, p)| (m.to_string(), p.to_string()))
            .collect(),
    }
}

#[test]
fn services_rpcs_and_http_rules() {
    let text = r#"syntax = "proto3";
// service Commented { rpc X(A) returns (B); }
package shop.catalog.v1;
import "google/api/annotations.proto";
option go_package = "example.com/shop/gen/catalog/v1;catalogv1";

message Item { message Inner { string x = 1; } map<string, string> labels = 2; }

service ItemStore {
  option (custom.service_option) = { a: "b" };
  rpc GetItem(GetItemRequest) returns (Item) {
    option (google.api.http) = {
      get: "/v1/items/{id}"
      additional_bindings {
        get: "/v1/shelves/{shelf}/items/{id}"
      }
      additional_bindings { post: "/v1/items:lookup" body: "*" }
    };
  }
  rpc ListItems(ListItemsRequest) returns (stream Item);
  rpc Touch(TouchRequest) returns (Item) {
    option (google.api.http) = { custom: { kind: "TOUCH" path: "/v1/items/{id}:touch" } };
  }
  rpc Rename(RenameRequest) returns (Item) {
    option (google.api.http).patch = "/v1/items/{id}";
    option deprecated = true;
  }
}

service Health { rpc Check(CheckRequest) returns (CheckResponse) {} }
"#;
    let f = parse("api/catalog.proto", text);
    assert_eq!(f.package, "shop.catalog.v1");
    assert_eq!(f.go_package, "example.com/shop/gen/catalog/v1");
    assert!(f.diagnostics.is_empty());
    assert_eq!(
        f.services,
        vec![
            ProtoService {
                name: "ItemStore".into(),
                line: 9,
                rpcs: vec![
                    rpc(
                        "GetItem",
                        11,
                        &[
                            ("GET", "/v1/items/{id}"),
                            ("GET", "/v1/shelves/{shelf}/items/{id}"),
                            ("POST", "/v1/items:lookup"),
                        ]
                    ),
                    rpc("ListItems", 20, &[]),
                    rpc("Touch", 21, &[("TOUCH", "/v1/items/{id}:touch")]),
                    rpc("Rename", 24, &[("PATCH", "/v1/items/{id}")]),
                ],
            },
            ProtoService {
                name: "Health".into(),
                line: 30,
                rpcs: vec![rpc("Check", 30, &[])],
            },
        ]
    );
    assert_eq!(f.full_name(&f.services[1]), "shop.catalog.v1.Health");
}

#[test]
fn broken_and_hostile_files_end_quietly() {
    let deep = "service S {".to_string() + &"{".repeat(200_000) + "rpc X(A) returns (B);";
    let f = parse("deep.proto", &deep);
    assert_eq!(f.services.len(), 1);
    assert!(f.services[0].rpcs.is_empty());
    let f = parse(
        "cut.proto",
        "service S { rpc X(A) returns (B) { option (google.api.http) = { get: \"/x\" ",
    );
    assert_eq!(f.services[0].rpcs, vec![rpc("X", 1, &[("GET", "/x")])]);
    let f = parse("str.proto", "package p; service \"S\" { } /* never closed");
    assert_eq!(f.package, "p");
    assert!(f.services.is_empty());
    assert_eq!(full_name_of("", "S"), "S");
}

fn full_name_of(package: &str, name: &str) -> String {
    let f = ProtoFile {
        package: package.into(),
        ..ProtoFile::default()
    };
    f.full_name(&ProtoService {
        name: name.into(),
        line: 0,
        rpcs: Vec::new(),
    })
}
