use super::*;

#[test]
fn script_goes_before_the_last_body_end() {
    let out = inject(b"<html><body><p>x</p></BODY></html>".to_vec());
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("<html><body><p>x</p><script>"));
    assert!(text.ends_with("</script>\n</BODY></html>"));
    let out = String::from_utf8(inject(b"<p>no body end</p>".to_vec())).unwrap();
    assert!(out.starts_with("<p>no body end</p><script>"));
}

#[test]
fn the_overlay_shows_text_never_markup() {
    assert!(SCRIPT.contains("b.textContent="));
    assert!(!SCRIPT.contains("innerHTML"));
}
