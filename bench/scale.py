#!/usr/bin/env python3
"""The scale benchmark: how a build grows with the number of projects.

    python3 bench/scale.py PORTOLAN DIR --tree NAME=PATH [--tree ...] [--runs R]
                           [--ns 3,6,12,24,48] [--synthetic K] [--models M]

For each N of `--ns`, writes DIR/nN/projects.toml listing N projects: the `--tree`s in
turn under names `NAME-1`, `NAME-2`, … (the same trees under several names, as a platform
of look-alike operators would be), and with `--synthetic K` K more projects made by
`synthetic_project` below (a small operator of our own: a CRD with a nested schema, a
controller that owns a Deployment and watches the previous project's kind, RBAC, a
manager Deployment with flags, a Service, a README and docs, and a bundled copy of one
shared third-party CRD). Then runs `PORTOLAN build -q` cold (a fresh cache and output
folder per run) R times and prints one markdown row per N: wall, CPU (user + sys), peak
RSS, pages, site size, files, median of R runs.

With `--models M`, it also measures the CI-matrix path: every project of the largest N is
written once as a model (`PORTOLAN analyze --config … PROJECT > P.json`), and a
projects.toml of M `model = "P.json"` entries (the models cycled under new names) is
assembled R times.

A KServe tree needs `exclude = ["install/**"]` as in the committed projects.toml: give it
as `--tree kserve=PATH:install/**` (models are written by `analyze PATH`, which takes no
excludes: give a work tree without `install/` for those). Every folder this script writes is under DIR; it
removes only the `cache-*` and `site-*` folders it made there. Standard library only.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# ---------------------------------------------------------------------------------------
# Synthetic operators
# ---------------------------------------------------------------------------------------

FIELD_TYPES = ["string", "integer", "boolean"]


def schema_fields(seed, depth, width):
    """A nested openAPIV3Schema `properties` block as YAML lines."""
    lines = []
    for i in range(width):
        name = f"field{seed % 7}{i}"
        if depth > 0 and i % 3 == 0:
            lines.append(f"{name}:")
            lines.append(f"  description: Settings group {i} at depth {depth}.")
            lines.append("  type: object")
            lines.append("  properties:")
            lines.extend("    " + l for l in schema_fields(seed + i, depth - 1, width))
        else:
            t = FIELD_TYPES[(seed + i) % 3]
            lines.append(f"{name}:")
            lines.append(f"  description: Value {i} of the synthetic schema, depth {depth}.")
            lines.append(f"  type: {t}")
            if t == "integer":
                lines.append("  minimum: 0")
    return lines


def crd(group, kind, fields):
    plural = kind.lower() + "s"
    body = "\n".join("                " + l for l in fields)
    return f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.{group}
spec:
  group: {group}
  names:
    kind: {kind}
    listKind: {kind}List
    plural: {plural}
    singular: {kind.lower()}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources:
      status: {{}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
{body}
          status:
            type: object
            properties:
              ready:
                type: boolean
"""


def synthetic_project(root, i, previous):
    """Writes synthetic operator number i under root; `previous` is the kind of project
    i-1 (watched here, so projects link in a chain)."""
    name = f"synth-{i:03}"
    group = f"s{i:03}.example.com"
    kind = f"Gadget{i:03}"
    module = f"example.com/{name}"
    write(f"{root}/go.mod", f"module {module}\n\ngo 1.22\n\nrequire sigs.k8s.io/controller-runtime v0.19.0\n")
    write(f"{root}/api/v1alpha1/groupversion_info.go", f"""// Package v1alpha1 holds the {kind} API.
// +kubebuilder:object:generate=true
// +groupName={group}
package v1alpha1

import (
\t"k8s.io/apimachinery/pkg/runtime/schema"
\t"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
\tGroupVersion  = schema.GroupVersion{{Group: "{group}", Version: "v1alpha1"}}
\tSchemeBuilder = &scheme.Builder{{GroupVersion: GroupVersion}}
)
""")
    write(f"{root}/api/v1alpha1/types.go", f"""package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// {kind}Spec is what a user asks for.
type {kind}Spec struct {{
\t// Replicas is how many copies run.
\t// +kubebuilder:validation:Minimum=0
\tReplicas int32 `json:"replicas,omitempty"`
\t// Image is the container image.
\tImage string `json:"image"`
}}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// {kind} is the synthetic operator's resource.
type {kind} struct {{
\tmetav1.TypeMeta   `json:",inline"`
\tmetav1.ObjectMeta `json:"metadata,omitempty"`
\tSpec {kind}Spec `json:"spec,omitempty"`
}}
""")
    write(f"{root}/config/crd/bases/{group}_{kind.lower()}s.yaml",
          crd(group, kind, schema_fields(i, 3, 9)))
    # A third-party CRD every synthetic project ships for installation.
    write(f"{root}/config/thirdparty/shared-widgets.yaml",
          crd("widgets.thirdparty.example.org", "Widget", schema_fields(1000, 3, 10)))
    watch, prev_import = "", ""
    if previous:
        pgroup, pkind = previous
        # The previous project's kind, through its Go API package: a cross-project link.
        watch = f"\n\t\tWatches(&upstream.{pkind}{{}}, &handler.EnqueueRequestForObject{{}})."
        prev_import = (f'\t"sigs.k8s.io/controller-runtime/pkg/handler"\n'
                       f'\tupstream "example.com/{pkind_project(pkind)}/api/v1alpha1"\n')
    write(f"{root}/internal/controller/{kind.lower()}_controller.go", f"""package controller

import (
\t"context"

\tappsv1 "k8s.io/api/apps/v1"
\tcorev1 "k8s.io/api/core/v1"
\tctrl "sigs.k8s.io/controller-runtime"
\t"sigs.k8s.io/controller-runtime/pkg/client"

\tv1alpha1 "{module}/api/v1alpha1"
{prev_import})

// {kind}Reconciler runs {kind} objects.
type {kind}Reconciler struct {{
\tclient.Client
}}

// +kubebuilder:rbac:groups={group},resources={kind.lower()}s,verbs=get;list;watch;update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch

func (r *{kind}Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {{
\tobj := &v1alpha1.{kind}{{}}
\tif err := r.Get(ctx, req.NamespacedName, obj); err != nil {{
\t\treturn ctrl.Result{{}}, client.IgnoreNotFound(err)
\t}}
\tsettings := &corev1.ConfigMap{{}}
\t_ = r.Get(ctx, client.ObjectKey{{Namespace: req.Namespace, Name: "{name}-settings"}}, settings)
\tdeployment := &appsv1.Deployment{{}}
\treturn ctrl.Result{{}}, r.Update(ctx, deployment)
}}

func (r *{kind}Reconciler) SetupWithManager(mgr ctrl.Manager) error {{
\treturn ctrl.NewControllerManagedBy(mgr).
\t\tFor(&v1alpha1.{kind}{{}}).
\t\tOwns(&appsv1.Deployment{{}}).{watch}
\t\tComplete(r)
}}
""")
    write(f"{root}/cmd/main.go", f"""package main

import (
\t"flag"

\tctrl "sigs.k8s.io/controller-runtime"

\t"{module}/internal/controller"
)

func main() {{
\tvar metricsAddr string
\tvar leaderElect bool
\tflag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "The address the metrics endpoint binds to.")
\tflag.BoolVar(&leaderElect, "leader-elect", false, "Enable leader election.")
\tflag.Parse()
\tmgr, _ := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{{}})
\t_ = (&controller.{kind}Reconciler{{Client: mgr.GetClient()}}).SetupWithManager(mgr)
\t_ = mgr.Start(ctrl.SetupSignalHandler())
}}
""")
    write(f"{root}/config/rbac/role.yaml", f"""apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {name}-manager
rules:
- apiGroups: ["{group}"]
  resources: ["{kind.lower()}s"]
  verbs: ["get", "list", "watch", "update"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "update"]
""")
    write(f"{root}/config/manager/manager.yaml", f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}-controller
  namespace: {name}-system
spec:
  replicas: 1
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
      containers:
      - name: manager
        image: registry.example.com/{name}:v0.{i}.0
        args: ["--leader-elect", "--metrics-bind-address=:8080"]
        resources:
          requests:
            cpu: 10m
            memory: 64Mi
          limits:
            memory: 128Mi
---
apiVersion: v1
kind: Service
metadata:
  name: {name}-metrics
  namespace: {name}-system
spec:
  selector:
    app: {name}
  ports:
  - name: metrics
    port: 8080
    targetPort: 8080
""")
    paras = "\n\n".join(
        f"## Section {s}\n\nThe {kind} controller reconciles step {s}: it reads the "
        f"settings ConfigMap, updates the Deployment and reports readiness."
        for s in range(1, 6))
    write(f"{root}/README.md", f"# {name}\n\nA synthetic operator for the scale benchmark.\n\n{paras}\n")
    for d in range(1, 4):
        write(f"{root}/docs/guide-{d}.md",
              f"# Guide {d}\n\nHow to run {kind} in setting {d}.\n\n```yaml\nkind: {kind}\n```\n")
    return name, (group, kind)


def pkind_project(kind):
    return "synth-" + kind[len("Gadget"):]


# ---------------------------------------------------------------------------------------
# Configurations and measurement
# ---------------------------------------------------------------------------------------

def project_entries(trees, n, synth_root, synthetic):
    entries = []
    for i in range(n):
        name, path, exclude = trees[i % len(trees)]
        entries.append((f"{name}-{i // len(trees) + 1}", path, exclude))
    previous = None
    for i in range(synthetic):
        root = os.path.join(synth_root, f"synth-{i:03}")
        name, previous = synthetic_project(root, i, previous)
        entries.append((name, root, None))
    return entries


def config_text(entries, kind="path"):
    out = ['[site]\ntitle = "Scale benchmark"\nbase_url = "/"\n']
    for name, path, exclude in entries:
        out.append(f'\n[[project]]\nname = "{name}"\n{kind} = {json.dumps(path)}\n')
        if exclude:
            out.append(f"exclude = [{json.dumps(exclude)}]\n")
    return "".join(out)


def measure(binary, config, workdir, run):
    cache = os.path.join(workdir, f"cache-{run}")
    site = os.path.join(workdir, f"site-{run}")
    for d in (cache, site):
        if os.path.isdir(d) and os.path.basename(d).startswith(("cache-", "site-")):
            shutil.rmtree(d)
    text = open(config, encoding="utf-8").read()
    text = text.replace("[site]\n", f"[site]\ncache_dir = {json.dumps(cache)}\n", 1)
    run_config = os.path.join(workdir, f"projects-{run}.toml")
    write(run_config, text)
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%e %U %S %M", binary, "build", "-q",
         "--config", run_config, "--out", site],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    last = proc.stderr.strip().splitlines()[-1]
    if proc.returncode != 0:
        sys.exit(f"build failed ({config}):\n{proc.stderr[-2000:]}")
    wall, user, sys_, rss = last.split()
    pages = files = size = 0
    for dirpath, _, names in os.walk(site):
        for f in names:
            files += 1
            size += os.path.getsize(os.path.join(dirpath, f))
            if f == "index.html":
                pages += 1
    return {
        "wall": float(wall), "cpu": float(user) + float(sys_), "rss": int(rss) / 1024,
        "pages": pages, "size": size / 1e6, "files": files,
    }


def median_row(results):
    return {k: statistics.median(r[k] for r in results) for k in results[0]}


def row(label, m, n):
    return (f"| {label} | {m['wall']:.1f} s | {m['cpu']:.1f} s | {m['rss']:.0f} MB | "
            f"{m['pages']:,.0f} | {m['size']:.1f} MB | {m['size'] / n:.2f} MB | {m['files']:,.0f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("portolan")
    ap.add_argument("dir")
    ap.add_argument("--tree", action="append", default=[])
    ap.add_argument("--ns", default="3,6,12,24,48")
    ap.add_argument("--synthetic", type=int, default=0)
    ap.add_argument("--models", type=int, default=0)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    binary = os.path.abspath(args.portolan)
    root = os.path.abspath(args.dir)
    trees = []
    for t in args.tree:
        name, _, rest = t.partition("=")
        path, _, exclude = rest.partition(":")
        trees.append((name, os.path.abspath(path), exclude or None))
    print("| projects | wall | CPU | peak RSS | pages | site | site per project | files |")
    print("|---|---|---|---|---|---|---|---|")
    last = None
    for n in [int(x) for x in args.ns.split(",")]:
        work = os.path.join(root, f"n{n}")
        entries = project_entries(trees, n, os.path.join(root, "synthetic"), args.synthetic)
        config = os.path.join(work, "projects.toml")
        write(config, config_text(entries))
        m = median_row([measure(binary, config, work, r) for r in range(args.runs)])
        print(row(str(len(entries)), m, len(entries)), flush=True)
        last = (work, entries)
    if args.models and last:
        work, entries = last
        models = os.path.join(root, "models")
        os.makedirs(models, exist_ok=True)
        for name, path, _ in entries:
            out = os.path.join(models, f"{name}.json")
            if not os.path.exists(out):
                subprocess.run([binary, "analyze", "-q", path, "--out", out], check=True)
        model_entries = []
        for i in range(args.models):
            name = entries[i % len(entries)][0]
            model_entries.append((f"m{i:03}-{name}", os.path.join(models, f"{name}.json"), None))
        work = os.path.join(root, f"models{args.models}")
        config = os.path.join(work, "projects.toml")
        write(config, config_text(model_entries, kind="model"))
        m = median_row([measure(binary, config, work, r) for r in range(args.runs)])
        print(row(f"{args.models} models", m, args.models), flush=True)


if __name__ == "__main__":
    main()
