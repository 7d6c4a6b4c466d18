use super::project;

#[test]
fn versioned_feature_gates_take_their_last_spec() {
    let go = "package features

import (
\t\"k8s.io/component-base/featuregate\"
\t\"k8s.io/apimachinery/pkg/util/version\"
)

const Fast featuregate.Feature = \"Fast\"

var gates = map[featuregate.Feature]featuregate.VersionedSpecs{
\tFast: {
\t\t{Version: version.MustParse(\"1.30\"), Default: false, PreRelease: featuregate.Alpha},
\t\t{Version: version.MustParse(\"1.32\"), Default: true, PreRelease: featuregate.Beta},
\t},
}
";
    let gates = project(&[("go.mod", "module example.com/f\n"), ("f.go", go)]).feature_gates;
    assert_eq!(gates.len(), 1);
    let g = &gates[0];
    assert_eq!(
        (
            g.name.as_str(),
            g.default.as_str(),
            g.stage.as_str(),
            g.version.as_str()
        ),
        ("Fast", "true", "Beta", "1.32")
    );
    assert_eq!(g.sources[0].line, 11);
}

#[test]
fn a_helper_that_tolerates_a_missing_kind_is_not_a_check_of_its_callers() {
    let go = "package p

import \"k8s.io/apimachinery/pkg/api/meta\"

func del(err error) bool {
\tif meta.IsNoMatchError(err) {
\t\treturn true
\t}
\treturn false
}

func f(err error) {
\tif del(err) {
\t}
}
";
    let checks = project(&[("go.mod", "module example.com/p\n"), ("p.go", go)]).platform_checks;
    let rows: Vec<(&str, &str, u32)> = checks
        .iter()
        .map(|c| (c.method.as_str(), c.function.as_str(), c.sources[0].line))
        .collect();
    assert_eq!(rows, [("no-kind-match", "p.del", 6)]);
}

#[test]
fn a_no_kind_match_check_names_the_kind_of_the_call_it_tests() {
    let go = "package p

import (
\t\"context\"

\tcorev1 \"k8s.io/api/core/v1\"
\t\"k8s.io/apimachinery/pkg/api/meta\"
\t\"sigs.k8s.io/controller-runtime/pkg/client\"
)

func ensure(ctx context.Context, c client.Client) error {
\tif err := c.Create(ctx, &corev1.Secret{}); err != nil && !meta.IsNoMatchError(err) {
\t\treturn err
\t}
\treturn nil
}
";
    let checks = project(&[("go.mod", "module example.com/p\n"), ("p.go", go)]).platform_checks;
    let rows: Vec<(&str, &str, u32)> = checks
        .iter()
        .map(|c| (c.method.as_str(), c.checks.as_str(), c.sources[0].line))
        .collect();
    assert_eq!(rows, [("no-kind-match", "Secret", 12)]);
}
