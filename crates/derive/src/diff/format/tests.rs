use super::*;

#[test]
fn cells_carry_no_markup() {
    assert_eq!(
        cell("a|b `c` <script> [x](y) *z*\nnext"),
        "a\\|b \\`c\\` &lt;script&gt; \\[x\\](y) \\*z\\* next"
    );
}
