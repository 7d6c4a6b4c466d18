use super::*;
use crate::file::extract;

/// (relation, qualifier.Type or expression, conditional, line) for each watch of each builder.
fn watches(src: &str) -> Vec<Vec<(Relation, String, bool, u32)>> {
    extract("x.go", src)
        .controllers
        .iter()
        .map(|c| {
            c.watches
                .iter()
                .map(|w| {
                    let obj = match &w.object {
                        ObjectRef::Type {
                            qualifier: Some(q),
                            name,
                        } => format!("{q}.{name}"),
                        ObjectRef::Type {
                            qualifier: None,
                            name,
                        } => name.clone(),
                        ObjectRef::Unknown(e) => format!("?{e}"),
                    };
                    (w.relation, obj, w.conditional, w.line)
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_generic_builder_with_type_arguments_is_a_controller() {
    // `builder.TypedControllerManagedBy[reconcile.Request](mgr)` parses as a conversion to
    // a generic type; Go 1.26's `new(false)` sits in its options.
    let src = "package c\nfunc (r *R) setup(mgr ctrl.Manager) (string, error) {\n\treturn \"n\", builder.TypedControllerManagedBy[reconcile.Request](mgr).\n\t\tNamed(\"alpha\").\n\t\tWatchesRawSource(source.TypedKind(mgr.GetCache(), &corev1.ConfigMap{}, h)).\n\t\tWatches(&corev1.Pod{}, h).\n\t\tWithOptions(controller.Options{NeedLeaderElection: new(false)}).\n\t\tComplete(r)\n}\n";
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::Watches, "corev1.ConfigMap".to_string(), false, 5),
            (Relation::Watches, "corev1.Pod".to_string(), false, 6),
        ]]
    );
    let file = extract("x.go", src);
    assert_eq!(file.controllers[0].name.as_deref(), Some("alpha"));
    assert_eq!(file.controllers[0].line, 3);
    assert!(!file.parse_errors);
}

#[test]
fn one_chain_reports_the_line_of_each_call() {
    let src = "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(&v1a.Widget{}).\n\t\tOwns(&appsv1.Deployment{}).\n\t\tWatches(\n\t\t\t&corev1.ConfigMap{},\n\t\t\thandler.EnqueueRequestsFromMapFunc(r.m),\n\t\t).\n\t\tComplete(r)\n}\n";
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::For, "v1a.Widget".into(), false, 4),
            (Relation::Owns, "appsv1.Deployment".into(), false, 5),
            (Relation::Watches, "corev1.ConfigMap".into(), false, 6),
        ]]
    );
    let f = extract("x.go", src);
    assert_eq!(f.controllers[0].reconciler.as_deref(), Some("R"));
    assert_eq!(f.controllers[0].line, 3);
}

#[test]
fn split_chains_follow_the_variable_and_mark_conditionals() {
    let src = r#"package c
func (r *R) SetupWithManager(mgr ctrl.Manager) error {
	b := builder.ControllerManagedBy(mgr).Named("gizmo").For(&v1.Gizmo{})
	if r.Secrets {
		b = b.Owns(&corev1.Secret{})
	} else {
		b.Owns(new(corev1.ConfigMap))
	}
	for _, x := range xs {
		b.Watches(x, nil)
	}
	switch mode {
	case 1:
		b.Owns(&Local{})
	}
	b.Watches(source.Kind(mgr.GetCache(), &corev1.Pod{}, h), nil)
	if err := b.Complete(r); err != nil {
		return err
	}
	return nil
}
"#;
    let f = extract("x.go", src);
    assert_eq!(f.controllers.len(), 1);
    assert_eq!(f.controllers[0].name.as_deref(), Some("gizmo"));
    assert_eq!(f.controllers[0].reconciler.as_deref(), Some("R"));
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::For, "v1.Gizmo".into(), false, 3),
            (Relation::Owns, "corev1.Secret".into(), true, 5),
            (Relation::Owns, "corev1.ConfigMap".into(), true, 7),
            (Relation::Watches, "?x".into(), true, 10),
            (Relation::Owns, "Local".into(), true, 14),
            (Relation::Watches, "corev1.Pod".into(), false, 16),
        ]]
    );
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    assert_eq!(f.diagnostics[0].line, 10);
}

/// Found by the fuzzer (seed 1001577): a chain of 1,000 calls took 107 s, because each
/// step's condition was looked up from the root (N³). The chain's steps share one.
#[test]
fn a_chain_of_thousands_of_calls_is_followed_in_linear_time() {
    let n = 3000;
    let src = format!(
        "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager) error {{\n\tif r.On {{\n\t\treturn ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{{}}).{}Complete(r)\n\t}}\n\treturn nil\n}}\n",
        "Owns(&corev1.ConfigMap{}).".repeat(n)
    );
    let found = watches(&src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), n + 1);
    assert_eq!(found[0][0], (Relation::For, "v1.Gadget".into(), true, 4));
    assert!(
        found[0][1..]
            .iter()
            .all(|w| *w == (Relation::Owns, "corev1.ConfigMap".into(), true, 4))
    );
}

#[test]
fn typed_variables_name_their_kind() {
    let src = "package c\nfunc (r *R) SetupWithManager(mgr ctrl.Manager, owned *appsv1.Deployment) error {\n\tsecret := &corev1.Secret{}\n\tvar cm corev1.ConfigMap\n\treturn ctrl.NewControllerManagedBy(mgr).\n\t\tFor(owned).\n\t\tWatches(secret, h).\n\t\tWatches(&cm, h).\n\t\tComplete(r)\n}\n";
    assert_eq!(
        watches(src),
        vec![vec![
            (Relation::For, "appsv1.Deployment".into(), false, 6),
            (Relation::Watches, "corev1.Secret".into(), false, 7),
            (Relation::Watches, "corev1.ConfigMap".into(), false, 8),
        ]]
    );
}

#[test]
fn webhook_builders_and_other_chains_are_not_controllers() {
    let src = "package c\nfunc setup(mgr ctrl.Manager) error {\n\tctrl.NewWebhookManagedBy(mgr).For(&v1.Widget{}).Complete()\n\tx.For(&v1.Widget{})\n\treturn nil\n}\n";
    assert!(extract("x.go", src).controllers.is_empty());
}

#[test]
fn malformed_and_deeply_nested_go_does_not_panic() {
    let mut deep = String::from("package p\nvar x = ");
    deep.push_str(&"(".repeat(20_000));
    deep.push('1');
    deep.push_str(&")".repeat(20_000));
    deep.push('\n');
    let f = extract("deep.go", &deep);
    assert!(f.controllers.is_empty());

    let broken = "package p\nfunc f() {\n\tctrl.NewControllerManagedBy(mgr).For(&v1.X{}).Owns(\n\ts := \"unterminated\n}\n";
    let f = extract("broken.go", broken);
    assert!(f.parse_errors);
}
