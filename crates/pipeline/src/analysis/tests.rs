use super::*;

#[test]
fn a_panicking_analyzer_is_a_diagnostic_for_its_file() {
    assert_eq!(caught("a.go", || 7), Ok(7));
    let failed = caught("b.go", || -> u8 { panic!("index out of bounds") }).unwrap_err();
    assert_eq!(failed.file, "b.go");
    assert!(
        failed
            .message
            .starts_with("analyzer failed on this file (index out of bounds); it is skipped."),
        "{}",
        failed.message
    );
    let formatted = caught("c.go", || -> u8 { panic!("line {}", 3) }).unwrap_err();
    assert!(formatted.message.contains("(line 3)"));
}
