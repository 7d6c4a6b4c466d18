#!/usr/bin/env python3
"""Generates the hostile inputs that once took quadratic (or exponential) time or space.

    python3 bench/hostile_scale.py CASE N DIR [--files K] [--isolated]

writes DIR/projects.toml and the project folders it lists; then time
`portolan build -q --config DIR/projects.toml --out DIR/site`. CASE is one of:

  headings    one project whose README is `# same heading` N times (heading-id uniquing)
  divs        one project whose README is N nested `<div>` around one word (raw HTML
              depth)
  configmaps  one project with K files (default 1) of N identical ConfigMap documents
              each (merging identical objects); portolan skips a file over 4 MiB, about
              44,000 documents
  projects    N tiny `path =` projects, each with a short README, the CRDs of its own
              kind and of one kind every project shares (`Widget`), and a Go controller
              for its own kind that owns Widgets, Deployments and ConfigMaps: every
              project defines and watches Widget, so every pair of projects is connected
              (the per-portal stages: link, home page, kind index, search). With
              --isolated there is no shared kind.
  controllers one project whose one Go file sets up N controllers all `Named("providerrevision")`
              (as crossplane's are), each watching, reading and writing kinds
  docs        one project with N one-line docs in one folder, all published
  dockerfile  one project whose Dockerfile has N lines `ARG A{i}=${A{i-1}}${A{i-1}}` and
              as many `ENV E{i}=$E{i-1}$E{i-1}` (each line doubles the value)

Nothing is read from elsewhere; DIR is created if missing and the files this script
writes are overwritten. Standard library only.
"""
import argparse
import os


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def config(projects):
    out = ['[site]\ntitle = "Hostile scale"\nbase_url = "/"\n']
    for name in projects:
        out.append(f'\n[[project]]\nname = "{name}"\npath = "{name}"\n')
    return "".join(out)


def headings(n, root):
    write(os.path.join(root, "p", "README.md"), "# same heading\n\n" * n)
    return ["p"]


def divs(n, root):
    # One raw HTML block: pulldown-cmark passes it through whole, so the sanitizer sees
    # N open elements.
    write(os.path.join(root, "p", "README.md"), "<div>" * n + "deep" + "</div>" * n + "\n")
    return ["p"]


CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: system
data:
  level: info
"""


def configmaps(n, root, files):
    for f in range(files):
        write(
            os.path.join(root, "p", "config", f"settings-{f}.yaml"),
            "---\n".join([CONFIGMAP] * n),
        )
    return ["p"]


CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.{group}
spec:
  group: {group}
  names:
    kind: {kind}
    listKind: {kind}List
    plural: {plural}
    singular: {kind_lower}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
"""

GO_MOD = """module example.com/p{i}

go 1.22

require sigs.k8s.io/controller-runtime v0.19.0
"""

GO_TYPES = """// +groupName={group}
package {package}

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var GroupVersion = schema.GroupVersion{{Group: "{group}", Version: "v1"}}

// +kubebuilder:object:root=true
type {kind} struct {{
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}}
"""

GO_CONTROLLER = """package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/p{i}/api/v1"{shared_import}
)

type Reconciler struct {{
	client.Client
}}

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{
	return ctrl.Result{{}}, r.Create(ctx, &corev1.ConfigMap{{}})
}}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {{
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1.Thing{i}{{}}).{shared_owns}
		Owns(&appsv1.Deployment{{}}).
		Owns(&corev1.ConfigMap{{}}).
		Complete(r)
}}
"""


def projects(n, root, isolated):
    names = []
    for i in range(n):
        name = f"p{i}"
        p = os.path.join(root, name)
        write(os.path.join(p, "README.md"), f"# Project {i}\n\nOperator number {i}.\n")
        own = dict(group=f"g{i}.example.io", kind=f"Thing{i}", plural=f"things{i}")
        kinds = [("v1", own)]
        if not isolated:
            kinds.append(
                ("shared", dict(group="shared.example.io", kind="Widget", plural="widgets"))
            )
        for package, k in kinds:
            write(
                os.path.join(p, "config", "crd", f"{k['plural']}.yaml"),
                CRD.format(kind_lower=k["kind"].lower(), **k),
            )
            write(
                os.path.join(p, "api", package, "types.go"),
                GO_TYPES.format(package=package, **k),
            )
        write(os.path.join(p, "go.mod"), GO_MOD.format(i=i))
        write(
            os.path.join(p, "controller", "controller.go"),
            GO_CONTROLLER.format(
                i=i,
                shared_import="" if isolated else f'\n\tshared "example.com/p{i}/api/shared"',
                shared_owns="" if isolated else "\n\t\tOwns(&shared.Widget{}).",
            ),
        )
        names.append(name)
    return names


CONTROLLER = """
type Reconciler{i} struct{{ client.Client }}

func (r *Reconciler{i}) SetupWithManager(mgr ctrl.Manager) error {{
\treturn ctrl.NewControllerManagedBy(mgr).Named("providerrevision").For(&corev1.ConfigMap{{}}).Owns(&appsv1.Deployment{{}}).Complete(r)
}}

func (r *Reconciler{i}) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{
\tvar cm corev1.ConfigMap
\t_ = r.Get(ctx, req.NamespacedName, &cm)
\t_ = r.Create(ctx, &appsv1.Deployment{{}})
\t_ = r.Delete(ctx, &corev1.Secret{{}})
\treturn ctrl.Result{{}}, nil
}}
"""


def controllers(n, root):
    p = os.path.join(root, "p")
    write(os.path.join(p, "go.mod"), "module example.com/p\n\ngo 1.22\n")
    head = (
        'package controller\n\nimport (\n\t"context"\n\n\tappsv1 "k8s.io/api/apps/v1"\n'
        '\tcorev1 "k8s.io/api/core/v1"\n\tctrl "sigs.k8s.io/controller-runtime"\n'
        '\t"sigs.k8s.io/controller-runtime/pkg/client"\n)\n'
    )
    body = "".join(CONTROLLER.format(i=i) for i in range(n))
    write(os.path.join(p, "internal", "controller", "controllers.go"), head + body)
    return ["p"]


def docs(n, root):
    p = os.path.join(root, "p")
    write(os.path.join(p, "README.md"), "# P\n")
    for i in range(n):
        write(os.path.join(p, "docs", f"d{i:05}.md"), f"# Doc {i}\n")
    return ["p"]


def dockerfile(n, root):
    p = os.path.join(root, "p")
    lines = ["ARG A0=abcdefgh", "ENV E0=abcdefgh"]
    for i in range(1, n + 1):
        lines.append(f"ARG A{i}=${{A{i-1}}}${{A{i-1}}}")
        lines.append(f"ENV E{i}=$E{i-1}$E{i-1}")
    lines.append(f"FROM golang:${{A{n}}}")
    write(os.path.join(p, "Dockerfile"), "\n".join(lines) + "\n")
    write(os.path.join(p, "go.mod"), "module example.com/p\n\ngo 1.22\n")
    return ["p"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "case",
        choices=["headings", "divs", "configmaps", "projects", "controllers", "docs", "dockerfile"],
    )
    parser.add_argument("n", type=int)
    parser.add_argument("dir")
    parser.add_argument("--files", type=int, default=1, help="configmaps: files of N documents")
    parser.add_argument("--isolated", action="store_true", help="projects: no shared kind")
    args = parser.parse_args()
    root = args.dir
    os.makedirs(root, exist_ok=True)
    if args.case == "headings":
        names = headings(args.n, root)
    elif args.case == "divs":
        names = divs(args.n, root)
    elif args.case == "configmaps":
        names = configmaps(args.n, root, args.files)
    elif args.case == "controllers":
        names = controllers(args.n, root)
    elif args.case == "docs":
        names = docs(args.n, root)
    elif args.case == "dockerfile":
        names = dockerfile(args.n, root)
    else:
        names = projects(args.n, root, args.isolated)
    text = config(names)
    if args.case == "docs":
        text += 'docs = ["README.md", "docs/**/*.md"]\n'
    write(os.path.join(root, "projects.toml"), text)


if __name__ == "__main__":
    main()
