#!/usr/bin/env python3
"""Precision and recall of CRD descriptions taken from Go doc comments.

For each operator whose CRDs carry descriptions, a copy of the repository is made with
every description removed from its CRD schemas (what a `crd:maxDescLen=0` build ships),
portolan analyzes both, and each description portolan took from the Go types
(`go_doc`) is compared with the one controller-gen wrote into the original CRD at the same
path (whitespace collapsed):
  recall    = fields described in the original that got a Go description
  precision = Go descriptions equal to the original's (same field path, same version)
  recall within the repo = the same, out of the fields not under Go types outside the
              repository (counted from portolan's diagnostics on the stripped copy)
Also counts fields whose sibling order changed (Go order) for information.

Usage: measure.py --bin target/debug/portolan NAME=/path/to/checkout [NAME=…]
Needs PyYAML. Writes nothing in the repository; work folders are under a fresh temp dir.
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile
import yaml

def strip_schema(node):
    """Removes descriptions from a schema node and its subschemas (not from properties
    that happen to be called `description`)."""
    if not isinstance(node, dict):
        return
    node.pop('description', None)
    for p in (node.get('properties') or {}).values():
        strip_schema(p)
    for key in ('items', 'additionalProperties', 'not'):
        strip_schema(node.get(key))
    for key in ('allOf', 'anyOf', 'oneOf'):
        for s in node.get(key) or []:
            strip_schema(s)

def strip_repo(root):
    changed = 0
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != '.git']
        for f in files:
            if not f.endswith(('.yaml', '.yml')):
                continue
            path = os.path.join(dirpath, f)
            try:
                text = open(path, encoding='utf-8').read()
            except (UnicodeDecodeError, OSError):
                continue
            if 'CustomResourceDefinition' not in text or '{{' in text:
                continue
            try:
                docs = list(yaml.safe_load_all(text))
            except yaml.YAMLError:
                continue
            touched = False
            for d in docs:
                if isinstance(d, dict) and d.get('kind') == 'CustomResourceDefinition':
                    for v in (d.get('spec') or {}).get('versions') or []:
                        s = ((v or {}).get('schema') or {}).get('openAPIV3Schema')
                        if s is not None:
                            strip_schema(s)
                            touched = True
            if touched:
                with open(path, 'w', encoding='utf-8') as out:
                    yaml.safe_dump_all(docs, out, sort_keys=False)
                changed += 1
    return changed

def analyze(binary, name, path, work):
    cfg = os.path.join(work, f'{name}.toml')
    with open(cfg, 'w') as c:
        c.write(f'[site]\ntitle = "m"\nbase_url = "/"\n\n[[project]]\nname = "{name}"\npath = "{path}"\n')
    out = os.path.join(work, f'site-{os.path.basename(path)}')
    subprocess.run([binary, 'build', '--config', cfg, '--out', out, '-q'], check=True,
                   stdout=subprocess.DEVNULL)
    return json.load(open(os.path.join(out, 'data', f'{name}.json')))

def norm(s):
    return re.sub(r'\s+', ' ', s or '').strip()

def fields_by_key(project):
    out = {}
    for crd in project['crds']:
        if crd.get('bundled'):
            continue
        for s in crd.get('schema', []):
            for f in s['fields']:
                out[(crd['group'], crd['kind'], s['version'], f['path'])] = f
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('repos', nargs='+')
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    print('| Operator | Fields | Described in CRD | Got a Go description | Recall | Under types outside the repo | Recall within the repo | Same text | Precision |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    with tempfile.TemporaryDirectory(prefix='crd-docs-') as work:
        for spec in a.repos:
            name, path = spec.split('=', 1)
            stripped = os.path.join(work, name + '-stripped')
            shutil.copytree(path, stripped, ignore=shutil.ignore_patterns('.git'), symlinks=True)
            strip_repo(stripped)
            original = fields_by_key(analyze(binary, name, path, work))
            bare_project = analyze(binary, name, stripped, work)
            bare = fields_by_key(bare_project)
            # Fields under Go types outside the repository, as portolan's diagnostics count
            # them: their docs are out of reach (controller-gen reads them from the module
            # cache, which portolan does not have).
            outside = sum(int(m.group(1)) for d in bare_project['diagnostics']
                          for m in [re.search(r'[:;] (\d+) under types outside the repository', d['message'])] if m)
            described = {k for k, f in original.items() if f.get('description')}
            go = {k for k, f in bare.items() if f.get('go_doc')}
            hit = described & go
            same = {k for k in hit if norm(bare[k]['description']) == norm(original[k]['description'])}
            wrong = sorted(hit - same)
            extra = sorted(go - described)
            with open(os.path.join(os.path.dirname(__file__), f'{name}.differ.txt'), 'w') as d:
                for k in wrong:
                    d.write(f'{k}\n  crd: {norm(original[k]["description"])[:300]}\n  go:  {norm(bare[k]["description"])[:300]}\n')
                for k in extra:
                    d.write(f'{k}\n  crd: (none)\n  go:  {norm(bare[k]["description"])[:300]}\n')
            r = len(hit) / len(described) if described else 0
            p = len(same) / len(hit) if hit else 0
            reach = len(bare) - outside
            rr = len(hit) / reach if reach else 0
            print(f'| {name} | {len(original)} | {len(described)} | {len(hit)} | {r:.1%} | {outside} | {rr:.1%} | {len(same)} | {p:.1%} |')
            sys.stdout.flush()

if __name__ == '__main__':
    main()
