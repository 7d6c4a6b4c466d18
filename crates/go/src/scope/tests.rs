use super::*;
use crate::syntax::{Kinds, receiver_name, receiver_type};
use crate::types::signature;
use tree_sitter::Parser;

/// The type `Scope::type_of` gives the argument of the last `use(…)` call in function
/// `name` of `src`.
fn type_of_use(src: &str, name: &str) -> ValueType {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .expect("Go grammar");
    let tree = parser.parse(src, None).expect("parsed");
    let root = tree.root_node();
    let kinds = Kinds::of(root);
    let bytes = src.as_bytes();
    let mut c = root.walk();
    let decl = root
        .named_children(&mut c)
        .find(|d| {
            d.child_by_field_id(FIELD.name)
                .is_some_and(|n| text(n, bytes) == name)
        })
        .expect("function");
    let body = decl.child_by_field_id(FIELD.body).expect("body");
    let ctx = kinds.func(
        name.to_string(),
        body,
        Some(decl),
        receiver_type(decl, bytes),
        receiver_name(decl, bytes),
    );
    let scope = Scope::of(&ctx, signature(decl, bytes), bytes);
    let call = ctx
        .calls
        .iter()
        .rev()
        .find(|c| callee(**c).is_some_and(|f| text(f, bytes) == "use"))
        .expect("a use(…) call");
    let arg = call
        .child_by_field_id(FIELD.arguments)
        .and_then(|a| a.named_child(0))
        .expect("an argument");
    scope.type_of(arg, bytes, arg.start_byte())
}

fn ty(qualifier: Option<&str>, name: &str) -> ValueType {
    ValueType::Type(TypeRef::named(qualifier, name))
}

#[test]
fn a_parameter_given_a_value_of_unknown_type_stays_the_parameter() {
    let src = "package p\nfunc f(obj client.Object) {\n\tobj = build()\n\tuse(obj)\n}\n";
    assert_eq!(
        type_of_use(src, "f"),
        ValueType::Param {
            index: 0,
            ty: Some(TypeRef::named(Some("client"), "Object")),
        }
    );
}

#[test]
fn a_concrete_assignment_replaces_the_declared_type() {
    let src =
        "package p\nfunc f() {\n\tvar obj client.Object\n\tobj = &corev1.Pod{}\n\tuse(obj)\n}\n";
    assert_eq!(type_of_use(src, "f"), ty(Some("corev1"), "Pod"));
}

#[test]
fn later_results_of_a_call_keep_their_position() {
    let src =
        "package p\nfunc f() {\n\tpod, cm, err := build()\n\t_ = pod\n\t_ = err\n\tuse(cm)\n}\n";
    assert_eq!(
        type_of_use(src, "f"),
        ValueType::Result {
            func: FuncRef {
                receiver: None,
                name: "build".into(),
            },
            index: 1,
        }
    );
}

#[test]
fn a_range_variable_named_like_its_collection_is_an_element_of_the_outer_one() {
    let src = "package p\nfunc f() {\n\tx := &corev1.PodList{}\n\tfor _, x := range x.Items {\n\t\tuse(x)\n\t}\n}\n";
    assert_eq!(
        type_of_use(src, "f"),
        ValueType::Elem(Box::new(ValueType::Field {
            base: Box::new(ty(Some("corev1"), "PodList")),
            field: "Items".into(),
        }))
    );
}

#[test]
fn a_closure_parameter_has_its_declared_type() {
    let src =
        "package p\nfunc f() {\n\tgo func(cm *corev1.ConfigMap) {\n\t\tuse(cm)\n\t}(nil)\n}\n";
    assert_eq!(type_of_use(src, "f"), ty(Some("corev1"), "ConfigMap"));
}

#[test]
fn a_type_parameter_is_known_only_at_the_call_site() {
    let src = "package p\nfunc f[T client.Object](obj T) {\n\tuse(obj)\n}\n";
    assert_eq!(
        type_of_use(src, "f"),
        ValueType::Param { index: 0, ty: None }
    );
}

#[test]
fn a_long_chain_of_copies_ends_unknown_instead_of_recursing() {
    let mut body = String::from("\tv0 := &corev1.Pod{}\n");
    for i in 1..200 {
        body.push_str(&format!("\tv{i} := v{}\n", i - 1));
    }
    let src = format!("package p\nfunc f() {{\n{body}\tuse(v199)\n}}\n");
    assert!(matches!(type_of_use(&src, "f"), ValueType::Unknown(_)));
    // Within the bound, the copy is followed.
    let src = "package p\nfunc f() {\n\ta := &corev1.Pod{}\n\tb := a\n\tuse(b)\n}\n";
    assert_eq!(type_of_use(src, "f"), ty(Some("corev1"), "Pod"));
}
