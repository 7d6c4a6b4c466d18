use super::*;

#[test]
fn loopback_names_and_addresses_only() {
    for ok in [
        "localhost",
        "localhost:8000",
        "LOCALHOST.:8000",
        "app.localhost:1",
        "127.0.0.1",
        "127.0.0.1:8000",
        "192.168.1.20:8000",
        "[::1]:8000",
        "[::1]",
    ] {
        assert!(allowed(Some(ok)), "{ok}");
    }
    for bad in [
        "evil.example",
        "evil.example:8000",
        "localhost.evil.example",
        "127.0.0.1.nip.io:8000",
        "[::1]x",
        "[evil]:80",
        "localhost:80:80",
        "localhost:",
        "",
        "\u{0}",
    ] {
        assert!(!allowed(Some(bad)), "{bad}");
    }
    assert!(allowed(None));
}
