use super::*;

#[test]
fn anchors_are_stable_slugs() {
    assert_eq!(
        anchor(&["watch", "widget", "Owns", "apps", "Deployment"]),
        "watch-widget-owns-apps-deployment"
    );
    assert_eq!(anchor(&["service", "", "a b"]), "service-a-b");
    assert_eq!(anchor(&["crd", "x.io", "<K>"]), "crd-x-io-k");
    assert_eq!(
        anchor(&["endpoint", "POST", "/v1/chat/completions"]),
        "endpoint-post-v1-chat-completions"
    );
}
