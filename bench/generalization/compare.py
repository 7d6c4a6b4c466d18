#!/usr/bin/env python3
"""Compare portolan's project model with hand-checked ground truth.

For each operator folder /work/eval/NAME (with truth-{watches,writes,routes,flags,controllers,reads,metrics,env}.tsv;
a category without a truth file for an operator is skipped for it, not counted as 0):
  * optionally reruns `BIN analyze /tmp/real/NAME` (--bin), writing NAME/<tag>.json;
  * matches tool rows with truth rows per category and prints a table:
      tool rows (in scope), truth rows (scored), matched, recall, precision.
  * precision = correct / checked, where a tool row is correct when it matches a truth row
    or is listed as `correct` in NAME/judged-CATEGORY.tsv, wrong when listed in
    NAME/wrong-CATEGORY.tsv (or judged `wrong`); unmatched rows nobody judged are
    "unchecked" and written to NAME/unmatched-CATEGORY.<tag>.tsv for hand checking.
  * misses (truth rows not found) are written to NAME/misses-CATEGORY.<tag>.tsv.

Usage:
  python3 compare.py                       # use NAME/base.json
  python3 compare.py --bin PATH [--tag new] # rerun analyze with PATH, write NAME/new.json
  python3 compare.py --json-tag new         # reuse NAME/new.json
  python3 compare.py --ops kueue,keda -v    # subset, verbose (list misses)
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

EVAL = os.path.dirname(os.path.abspath(__file__))
REAL = '/tmp/real'
OPS = ['source-controller', 'keda', 'external-secrets', 'cert-manager', 'kueue', 'prometheus-operator',
       'sample-controller', 'postgres-operator', 'knative-serving', 'tekton-pipeline', 'crossplane', 'kyverno']
CATS = ['watches', 'writes', 'routes', 'flags', 'controllers', 'reads', 'metrics', 'env']

# Product code only: the same exclusions the truth files use.
EXCLUDE = re.compile(r'(^|/)(test|tests|e2e|hack|docs|examples|testdata|vendor|testing|testingjobs|commontest)/'
                     r'|_test\.go$|zz_generated|(^|/)site/')
LINE_TOL = {'watches': 3, 'writes': 2, 'routes': 6, 'flags': 3, 'controllers': 3, 'reads': 2, 'metrics': 4, 'env': 3}


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline='') as f:
        return list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))


def norm_group(g):
    g = (g or '').strip().strip('"')
    return '' if g in ('core', '""') else g


def in_scope(sources):
    return any(not EXCLUDE.search(s['file']) for s in sources) if sources else True


def srcs(item):
    return [{'file': s.get('file', ''), 'line': int(s.get('line', 0) or 0)} for s in item.get('sources', [])]


def src_str(sources):
    return ','.join(f"{s['file']}:{s['line']}" for s in sources[:3])


# ---------------------------------------------------------------- tool rows per category
def tool_watches(p):
    rows = []
    for c in p.get('controllers', []):
        for w in c.get('watches', []):
            rows.append({'controller': c.get('name', ''), 'relation': w.get('relation', ''),
                         'group': w.get('group', ''), 'version': w.get('version', ''),
                         'kind': w.get('kind', ''), 'sources': srcs(w)})
    for i in p.get('informers', []):
        rows.append({'controller': '-', 'relation': 'informer', 'group': i.get('group', ''),
                     'version': i.get('version', ''), 'kind': i.get('kind', ''), 'sources': srcs(i)})
    return rows


def steps(op):
    return [{'file': s.get('file', ''), 'line': int(s.get('line', 0) or 0)} for s in op.get('via', [])]


def tool_writes(p):
    rows = []
    for c in p.get('controllers', []):
        for o in c.get('operations', []):
            rows.append({'controller': c.get('name', ''), 'verb': o.get('verb', ''), 'group': o.get('group', ''),
                         'version': o.get('version', ''), 'kind': o.get('kind', ''),
                         'sources': srcs(o), 'via': steps(o)})
    for o in p.get('package_operations', []):
        rows.append({'controller': '-', 'verb': o.get('verb', ''), 'group': o.get('group', ''),
                     'version': o.get('version', ''), 'kind': o.get('kind', ''), 'sources': srcs(o), 'via': []})
    return rows


def tool_routes(p):
    rows, seen = [], set()
    for e in p.get('http_endpoints', []):
        r = {'method': e.get('method', ''), 'path': e.get('path', ''), 'framework': e.get('framework', ''),
             'implicit': e.get('implicit', False), 'sources': srcs(e)}
        rows.append(r)
        seen.add((r['path'], tuple((s['file']) for s in r['sources'])))
    for w in p.get('webhooks', []):
        if w.get('origin') != 'code' or not w.get('path'):
            continue
        s = srcs(w)
        if (w['path'], tuple(x['file'] for x in s)) in seen:
            continue
        rows.append({'method': 'POST', 'path': w['path'], 'framework': 'webhook(code)', 'implicit': False, 'sources': s})
    return rows


def tool_flags(p):
    rows = []
    for b in p.get('binaries', []):
        for f in b.get('flags', []):
            rows.append({'binary': b.get('name', ''), 'flag': f.get('name', ''), 'default': f.get('default', ''),
                         'sources': srcs(f)})
    return rows


def tool_controllers(p):
    rows = []
    for c in p.get('controllers', []):
        fors = [(w.get('group', ''), w.get('kind', '')) for w in c.get('watches', []) if w.get('relation') == 'for']
        rows.append({'name': c.get('name', ''), 'shape': c.get('shape', 'builder') or 'builder',
                     'reconciler': c.get('reconciler', ''), 'entries': list(c.get('entries', [])),
                     'fors': fors, 'sources': srcs(c), 'entry_locs': []})
    return rows


def tool_reads(p):
    rows = []
    for c in p.get('controllers', []):
        for o in c.get('reads', []):
            rows.append({'controller': c.get('name', ''), 'verb': o.get('verb', ''), 'group': o.get('group', ''),
                         'version': o.get('version', ''), 'kind': o.get('kind', ''),
                         'sources': srcs(o), 'via': steps(o)})
    for o in p.get('package_reads', []):
        rows.append({'controller': '-', 'verb': o.get('verb', ''), 'group': o.get('group', ''),
                     'version': o.get('version', ''), 'kind': o.get('kind', ''), 'sources': srcs(o), 'via': []})
    return rows


def tool_metrics(p):
    return [{'name': m.get('name', ''), 'type': m.get('type', ''), 'api': m.get('api') or 'prometheus',
             'sources': srcs(m)} for m in p.get('metrics', [])]


def tool_env(p):
    """One row per variable and set of places: a package read by several binaries is
    listed under each of them by the tool, counted once here."""
    rows, seen = [], set()
    for b in p.get('binaries', []):
        for e in b.get('env', []):
            s = srcs(e)
            key = (e.get('name', ''), tuple(sorted((x['file'], x['line']) for x in s)))
            if key in seen:
                continue
            seen.add(key)
            rows.append({'binary': b.get('name', ''), 'name': e.get('name', ''), 'sources': s})
    return rows


TOOL = {'watches': tool_watches, 'writes': tool_writes, 'routes': tool_routes, 'flags': tool_flags,
        'controllers': tool_controllers, 'reads': tool_reads, 'metrics': tool_metrics, 'env': tool_env}


# ---------------------------------------------------------------- controller entries -> declarations
_DECLS = {}
FUNC_DECL = re.compile(r'^func\s+(?:\(\s*(?:\w+\s+)?\*?(\w+)(?:\[[^\]]*\])?\s*\)\s*)?(\w+)\s*[\[(]', re.M)


def method_decls(op):
    """`Receiver.Method` (and plain `Func`) -> [(file, line)] over the operator's product Go files."""
    if op in _DECLS:
        return _DECLS[op]
    index = {}
    root = os.path.join(REAL, op)
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if not d.startswith('.')]
        for f in fn:
            if not f.endswith('.go'):
                continue
            rel = os.path.relpath(os.path.join(dp, f), root)
            if EXCLUDE.search(rel):
                continue
            try:
                txt = open(os.path.join(dp, f), errors='replace').read()
            except OSError:
                continue
            for m in FUNC_DECL.finditer(txt):
                line = txt.count('\n', 0, m.start()) + 1
                key = f'{m.group(1)}.{m.group(2)}' if m.group(1) else m.group(2)
                index.setdefault(key, []).append((rel, line))
    _DECLS[op] = index
    return index


def resolve_entries(op, r):
    """Declaration places of a non-builder controller's entries (`Type.method`), kept to the
    directories of its sources when it has any (a Go method lives in its type's package)."""
    if r['shape'] == 'builder' or not r['entries']:
        return []
    index = method_decls(op)
    dirs = {os.path.dirname(s['file']) for s in r['sources']}
    out = []
    for e in r['entries']:
        cands = index.get(e, [])
        if not cands and '.' in e:
            cands = index.get(e.split('.', 1)[1], [])
        if dirs:
            near_dirs = [c for c in cands if os.path.dirname(c[0]) in dirs]
            cands = near_dirs or cands
        out.extend({'file': f, 'line': l} for f, l in cands)
    return out


# ---------------------------------------------------------------- matching
def near(sources, file, line, tol):
    return any(s['file'] == file and abs(s['line'] - line) <= tol for s in sources)


REL = {'for': 'for', 'owns': 'owns', 'watches': 'watches', 'watches_raw': 'watches',
       'watches_metadata': 'watches', 'informer': 'informer'}
VERB = {'create': 'create', 'update': 'update', 'status_update': 'update', 'patch': 'patch',
        'status_patch': 'patch', 'apply': 'patch', 'status_apply': 'patch', 'delete': 'delete',
        'delete_all_of': 'delete', 'create_or_update': 'cou', 'create_or_patch': 'cou'}


def kind_ok(truth_kind, tool_kind):
    if truth_kind.startswith('?'):
        return True
    if truth_kind == '-':
        # Known only at run time: the right answer is the tool's `?` (with a diagnostic),
        # never a kind.
        return tool_kind.startswith('?')
    return truth_kind == tool_kind


def group_ok(truth, tool):
    if truth['kind'].startswith('?') or truth['kind'] == '-':
        return True
    return norm_group(truth['group']) == norm_group(tool['group'])


def truth_locs(t):
    locs = [(t['file'], int(t['line']))]
    for a in (t.get('alt') or '').split(','):
        a = a.strip()
        if a:
            f, l = a.rsplit(':', 1)
            locs.append((f, int(l)))
    return locs


def grpc_method_of(service, path):
    """True when `path` is `/SERVICE/METHOD` for the truth's service name."""
    prefix = f'/{service}/'
    return not service.startswith('/') and path.startswith(prefix) and '/' not in path[len(prefix):]


def parse_reconciled(s):
    """`group/version/Kind` (`core/v1/Pod`, `-`) -> (group, kind) or None."""
    s = (s or '').strip()
    if s in ('', '-'):
        return None
    parts = s.split('/')
    if len(parts) == 3:
        return norm_group(parts[0]), parts[2]
    return '', parts[-1]


def match(cat, t, r):
    tol = LINE_TOL[cat]
    if cat == 'controllers':
        if t['shape'] != r['shape']:
            return False
        locs = r['sources'] + (r.get('entry_locs', []) if r['shape'] != 'builder' else [])
        if near(locs, t['file'], int(t['line']), tol):
            return True
        if t['shape'] == 'work_queue' and t.get('receiver'):
            # The same queue-owning type: the tool roots a work-queue controller at the
            # worker taking from the queue, the truth may name the sync handler it calls.
            tdir = os.path.dirname(t['file'])
            same_type = t['receiver'] == r['reconciler'] or any(
                e.split('.')[0] == t['receiver'] for e in r['entries'])
            if same_type and any(os.path.dirname(s['file']) == tdir for s in r['sources'] + r.get('entry_locs', [])):
                return True
        if t['shape'] == 'builder':
            # The builder chain itself, where the truth records it.
            b = t.get('builder') or ''
            if ':' in b:
                bf, bl = b.rsplit(':', 1)
                if bl.isdigit() and near(r['sources'], bf, int(bl), tol):
                    return True
            rec = parse_reconciled(t.get('reconciled'))
            bfile = (t.get('builder') or '').rsplit(':', 1)[0] or t['file']
            if rec and any(norm_group(g) == rec[0] and k == rec[1] for g, k in r['fors']) \
                    and any(s['file'] == bfile for s in r['sources']):
                return True
        return False
    if cat == 'watches':
        rel_t, rel_r = REL.get(t['relation'], t['relation']), r['relation']
        rel_ok = rel_t == rel_r or (rel_t == 'informer' and rel_r == 'watches') or (rel_t == 'watches' and rel_r == 'informer')
        return (rel_ok and kind_ok(t['kind'], r['kind']) and group_ok(t, r)
                and any(near(r['sources'], f, l, tol) for f, l in truth_locs(t)))
    if cat in ('writes', 'reads'):
        if VERB.get(t['verb'], t['verb']) != VERB.get(r['verb'], r['verb']):
            return False
        if not kind_ok(t['kind'], r['kind']):
            return False
        if not group_ok(t, r):
            return False
        locs = r['sources'] + r.get('via', [])
        return any(near(locs, f, l, tol) for f, l in truth_locs(t))
    if cat == 'routes':
        if t['method'] == 'GRPC' and grpc_method_of(t['path'], r['path']):
            # A matching rule, not a tool change: the truth names a gRPC service once
            # (`api.MetricsService`), the tool lists each of its methods
            # (`/api.MetricsService/GetMetrics`) at the registration. Every method row at the
            # truth row's exact file:line matches it.
            return any(s['file'] == t['file'] and s['line'] == int(t['line']) for s in r['sources'])
        if t['path'] != r['path']:
            return False
        if t['method'] not in ('*', '') and r['method'] not in ('', '*', 'ANY') and t['method'].upper() != r['method'].upper() \
                and not (t['method'] == 'GRPC'):
            return False
        if r.get('implicit'):
            # a manager's implicit routes are placed at the manager; any place in the same file will do
            return any(s['file'] == t['file'] for s in r['sources'])
        return near(r['sources'], t['file'], int(t['line']), tol)
    if cat == 'flags':
        return t['flag'] == r['flag'] and near(r['sources'], t['file'], int(t['line']), tol)
    if cat in ('metrics', 'env'):
        # A truth row named `-` (name known only at run time) matches nothing: the tool
        # should say so in a diagnostic, not make a row. OpenTelemetry instrument names are
        # compared with `.` read as `_` (as the Prometheus exporter spells them).
        if t['name'] in ('-', '') or unresolved_name(r['name']):
            return False
        tn, rn = t['name'], r['name']
        if cat == 'metrics':
            tn, rn = tn.replace('.', '_'), rn.replace('.', '_')
        return tn == rn and any(near(r['sources'], f, l, tol) for f, l in truth_locs(t))
    return False


def unresolved_name(n):
    return '?' in (n or '')


def norm_default(d):
    d = (d or '').strip()
    if len(d) >= 2 and d[0] == d[-1] and d[0] in '"`':
        d = d[1:-1]
    return d


def scored(cat, t):
    """Truth rows without a kind (channel sources) are listed but not scored, nor are
    metric and environment rows whose name is only known at run time (`-`)."""
    if cat in ('metrics', 'env'):
        return t['name'] not in ('-', '')
    return not (cat == 'watches' and t['kind'] in ('-', ''))


def row_key(cat, r):
    s = r['sources'][0] if r['sources'] else {'file': '', 'line': 0}
    ident = {'watches': r.get('kind'), 'writes': f"{r.get('verb')}:{r.get('kind')}",
             'reads': f"{r.get('verb')}:{r.get('kind')}", 'controllers': r.get('name'),
             'routes': r.get('path'), 'flags': r.get('flag'), 'metrics': r.get('name'), 'env': r.get('name')}[cat]
    return f"{s['file']}:{s['line']}|{ident}"


def load_verdicts(op, cat):
    """Verdicts by row key. A verdict with a `controller` column holds only for a tool
    row of that controller (its attribution was judged too); others stay unchecked."""
    v = {}
    for row in read_tsv(os.path.join(EVAL, op, f'judged-{cat}.tsv')):
        v.setdefault(row['key'], []).append(
            (row.get('verdict', '').strip(), row.get('note', ''), (row.get('controller') or '').strip()))
    for row in read_tsv(os.path.join(EVAL, op, f'wrong-{cat}.tsv')):
        v.setdefault(row['key'], []).append(
            ('wrong', row.get('note', ''), (row.get('controller') or '').strip()))
    return v


def verdict_for(verdicts, cat, r):
    for verdict, note, controller in verdicts.get(row_key(cat, r), []):
        if not controller or controller == r.get('controller'):
            return (verdict, note)
    return None


def controller_names(op, p):
    tpath = os.path.join(EVAL, op, 'truth-controllers.tsv')
    if not os.path.exists(tpath):
        return {}
    truth = read_tsv(tpath)
    for t in truth:
        t['receiver'] = receiver_at(op, t['file'], int(t['line']))
    out = {}
    for r in tool_controllers(p):
        r['entry_locs'] = resolve_entries(op, r)
        for t in truth:
            if match('controllers', t, r):
                out.setdefault(r['name'], set()).add(t['name'])
    return out


def receiver_at(op, file, line):
    """The receiver type of the method declared at file:line of the checkout, if any."""
    try:
        with open(os.path.join(REAL, op, file), encoding='utf-8', errors='replace') as f:
            lines = f.readlines()
    except OSError:
        return ''
    for text in lines[max(0, line - 2):line + 1]:
        m = re.match(r'\s*func\s*\(\s*\w*\s*\*?\s*(\w+)', text)
        if m:
            return m.group(1)
    return ''


def describe(cat, r):
    if cat == 'watches':
        return f"{r['controller']}\t{r['relation']}\t{r['group']}/{r['version']}\t{r['kind']}"
    if cat in ('writes', 'reads'):
        return f"{r['controller']}\t{r['verb']}\t{r['group']}/{r['version']}\t{r['kind']}"
    if cat == 'controllers':
        fors = ','.join(f'{g}/{k}' for g, k in r['fors'])
        return f"{r['name']}\t{r['shape']}\t{r['reconciler']}\t{fors}\t{','.join(r['entries'][:3])}"
    if cat == 'routes':
        return f"{r['method']}\t{r['path']}\t{r.get('framework', '')}"
    if cat == 'metrics':
        return f"{r['name']}\t{r['type']}\t{r['api']}"
    if cat == 'env':
        return f"{r['binary']}\t{r['name']}"
    return f"{r['binary']}\t{r['flag']}\t{r['default']}"


def run_analyze(binary, op, out):
    t0 = time.time()
    with open(out, 'w') as f:
        res = subprocess.run([binary, 'analyze', os.path.join(REAL, op)], stdout=f, stderr=subprocess.PIPE, text=True)
    dt = time.time() - t0
    if res.returncode != 0:
        print(f'!! analyze {op} failed rc={res.returncode}: {res.stderr[-500:]}', file=sys.stderr)
    return dt


def evaluate(op, tag, verbose):
    path = os.path.join(EVAL, op, f'{tag}.json')
    if not os.path.exists(path):
        print(f'!! {op}: no {tag}.json, skipped', file=sys.stderr)
        return None
    p = json.load(open(path))
    out = {}
    # Tool controller name -> the truth controllers it was matched to, so a row's
    # attribution is judged by identity, not by the two names being spelled alike.
    names = controller_names(op, p)
    for cat in CATS:
        tpath = os.path.join(EVAL, op, f'truth-{cat}.tsv')
        if not os.path.exists(tpath):
            continue  # no truth for this category here: skipped, not counted as 0
        truth = read_tsv(tpath)
        tool = [r for r in TOOL[cat](p) if in_scope(r['sources'])]
        if cat == 'controllers':
            for r in tool:
                r['entry_locs'] = resolve_entries(op, r)
            for t in truth:
                t['receiver'] = receiver_at(op, t['file'], int(t['line']))
        verdicts = load_verdicts(op, cat)
        found = [False] * len(truth)
        correct = wrong = unchecked = unresolved = 0
        ctrl_agree = ctrl_total = 0
        ctrl_wrong = []
        unmatched = []
        dmis = []
        for r in tool:
            hits = [i for i, t in enumerate(truth) if match(cat, t, r)]
            if cat == 'flags' and hits:
                td, rd = norm_default(truth[hits[0]]['default']), norm_default(r['default'])
                if td != rd:
                    dmis.append((truth[hits[0]], r))
            if cat == 'metrics' and hits:
                tt = truth[hits[0]].get('type', '').strip().lower()
                if tt and tt != (r['type'] or '').lower():
                    dmis.append((truth[hits[0]], r))
            for i in hits:
                found[i] = True
            if hits:
                correct += 1
                if cat in ('watches', 'writes', 'reads'):
                    ctrl_total += 1
                    # Right when one of the truth rows at this site names the tool row's
                    # controller: `name*` rows accept any controller; others must be the
                    # same controller, by name or the one matched to it.
                    def same(tc):
                        return tc.endswith('*') or tc == r['controller'] or tc in names.get(r['controller'], ())
                    if any(same(truth[i]['controller']) for i in hits):
                        ctrl_agree += 1
                    else:
                        ctrl_wrong.append((r, [truth[i]['controller'] for i in hits]))
                continue
            v = verdict_for(verdicts, cat, r)
            if ((cat in ('watches', 'writes', 'reads') and (r['kind'].startswith('?') or r['group'].startswith('?')))
                    or (cat in ('metrics', 'env') and unresolved_name(r['name']))) \
                    and not (v and v[0] == 'wrong'):
                # a kind the tool itself marks unresolved: neither right nor wrong, counted apart
                unresolved += 1
                unmatched.append(r)
                continue
            if v and v[0] == 'correct':
                correct += 1
            elif v and v[0] == 'wrong':
                wrong += 1
            else:
                unchecked += 1
                unmatched.append(r)
        sc = [i for i, t in enumerate(truth) if scored(cat, t)]
        hit = sum(1 for i in sc if found[i])
        misses = [truth[i] for i in sc if not found[i]]
        if cat in ('watches', 'writes', 'reads'):
            with open(os.path.join(EVAL, op, f'other-controller-{cat}.{tag}.tsv'), 'w') as f:
                f.write('tool controller\tdescription\tsources\ttruth controllers at the site\n')
                for r, tcs in ctrl_wrong:
                    f.write(f"{r['controller']}\t{describe(cat, r)}\t{src_str(r['sources'])}\t{','.join(tcs)}\n")
        with open(os.path.join(EVAL, op, f'unmatched-{cat}.{tag}.tsv'), 'w') as f:
            f.write('key\tdescription\tsources\n')
            for r in unmatched:
                f.write(f"{row_key(cat, r)}\t{describe(cat, r)}\t{src_str(r['sources'])}\n")
        if cat == 'flags':
            with open(os.path.join(EVAL, op, f'default-mismatch.{tag}.tsv'), 'w') as f:
                f.write('flag\tfile:line\ttruth default (as written)\ttool default\n')
                for t, r in dmis:
                    f.write(f"{t['flag']}\t{t['file']}:{t['line']}\t{t['default']}\t{r['default']}\n")
        if cat == 'metrics':
            with open(os.path.join(EVAL, op, f'type-mismatch.{tag}.tsv'), 'w') as f:
                f.write('name\tfile:line\ttruth type\ttool type\n')
                for t, r in dmis:
                    f.write(f"{t['name']}\t{t['file']}:{t['line']}\t{t['type']}\t{r['type']}\n")
        with open(os.path.join(EVAL, op, f'misses-{cat}.{tag}.tsv'), 'w') as f:
            if misses:
                cols = list(misses[0].keys())
                f.write('\t'.join(cols) + '\n')
                for m in misses:
                    f.write('\t'.join(str(m.get(c, '')) for c in cols) + '\n')
        checked = correct + wrong
        out[cat] = dict(tool=len(tool), truth=len(sc), unscored=len(truth) - len(sc), matched=hit,
                        recall=hit / len(sc) if sc else None,
                        precision=correct / checked if checked else None,
                        checked=checked, wrong=wrong, unchecked=unchecked, unresolved=unresolved,
                        ctrl=f'{ctrl_agree}/{ctrl_total}' if ctrl_total else '')
        if verbose and misses:
            print(f'  -- {op} {cat} misses:')
            for m in misses:
                print('     ', '\t'.join(str(v) for v in list(m.values())[:8]))
    return out


def pct(x):
    return '  -  ' if x is None else f'{100 * x:5.1f}%'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', help='portolan binary: rerun analyze for each operator')
    ap.add_argument('--tag', default=None, help='name of the JSON written/read per operator (default base, or new with --bin)')
    ap.add_argument('--json-tag', default=None, help='read NAME/<tag>.json without rerunning')
    ap.add_argument('--ops', default=','.join(OPS))
    ap.add_argument('-v', '--verbose', action='store_true')
    a = ap.parse_args()
    tag = a.json_tag or a.tag or ('new' if a.bin else 'base')
    ops = [o for o in a.ops.split(',') if o]
    times = {}
    if a.bin:
        for op in ops:
            times[op] = run_analyze(a.bin, op, os.path.join(EVAL, op, f'{tag}.json'))
    print(f'tag={tag}' + (f' bin={a.bin}' if a.bin else ''))
    print(f"{'operator':18} {'category':11} {'tool':>5} {'truth':>5} {'match':>5} {'recall':>7} {'precis.':>7} "
          f"{'checked':>7} {'wrong':>5} {'unchk':>5} {'unres':>5} {'ctrl-ok':>8}")
    tot = {c: [0, 0, 0, 0] for c in CATS}  # matched, truth, correct, checked
    for op in ops:
        res = evaluate(op, tag, a.verbose)
        if res is None:
            continue
        for cat in CATS:
            if cat not in res:
                continue
            r = res[cat]
            print(f"{op:18} {cat:11} {r['tool']:5} {r['truth']:5} {r['matched']:5} {pct(r['recall']):>7} "
                  f"{pct(r['precision']):>7} {r['checked']:7} {r['wrong']:5} {r['unchecked']:5} {r['unresolved']:5} {r['ctrl']:>8}")
            tot[cat][0] += r['matched']
            tot[cat][1] += r['truth']
            tot[cat][2] += r['checked'] - r['wrong']
            tot[cat][3] += r['checked']
        if op in times:
            print(f"{op:18} analyze time {times[op]:.1f}s")
    print('-' * 96)
    for cat in CATS:
        m, t, c, ch = tot[cat]
        print(f"{'ALL':18} {cat:11} {'':5} {t:5} {m:5} {pct(m / t if t else None):>7} {pct(c / ch if ch else None):>7} {ch:7}")


if __name__ == '__main__':
    main()
