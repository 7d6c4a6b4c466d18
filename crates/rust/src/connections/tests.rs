use super::*;

fn expr(s: &str) -> Expr {
    syn::parse_str(s).unwrap()
}

#[test]
fn targets_from_literals_format_and_the_environment() {
    let t = |s: &str| target_of(&expr(s));
    assert_eq!(
        t("\"http://a:1\""),
        ConnectionTarget::Constant {
            value: "http://a:1".into(),
            prefix: false
        }
    );
    assert_eq!(
        t("format!(\"http://a/{}\", x)"),
        ConnectionTarget::Constant {
            value: "http://a/".into(),
            prefix: true
        }
    );
    assert_eq!(
        t("std::env::var(\"DB_URL\").unwrap()"),
        ConnectionTarget::Env {
            name: "DB_URL".into()
        }
    );
    assert!(matches!(t("url"), ConnectionTarget::Unresolved { .. }));
    // A request to a URL made at run time is not listed.
    assert!(of_request("get", &[&expr("url")], 1).is_none());
    assert!(of_call("reqwest::get", &[&expr("u")], 1).is_none());
    assert!(of_call("redis::Client::open", &[&expr("u")], 1).is_some());
}
