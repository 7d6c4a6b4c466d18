#!/usr/bin/env python3
"""The real-portal benchmark: a portal of real operators, built cold again and again.

    python3 bench/real_portal.py PORTOLAN WORKDIR [--trees DIR] [--runs 10] [--jobs N]
                                 [--only a,b] [--first N] [--timeout S] [--keep]
    python3 bench/real_portal.py PORTOLAN WORKDIR --check [--trees DIR] [--jobs N] ...

Opt-in: it needs work trees of the operators listed in bench/real_portal/operators.tsv
(name, GitHub repository, pinned commit, exclude globs), each at DIR/NAME (DIR defaults to
/tmp/real). Make one from a clone or a bare snapshot at the pinned commit, e.g.

    git clone https://github.com/kserve/kserve /tmp/real/kserve
    git -C /tmp/real/kserve checkout aaac4e294dae2c7b1aa1886447793f3aa1c30912

(or `checkout.sh GIT_DIR /tmp/real/NAME COMMIT` from a snapshot). Nothing is cloned or
fetched here, and the trees are only read, by portolan.

Writes WORKDIR/projects.toml listing every operator (or those of `--only`, or the first N
of the list with `--first N`) as a `path =` project, with its excludes and a GitHub
`source_url` at the pinned commit. Then runs

    PORTOLAN build -q --config WORKDIR/projects.toml --out WORKDIR/site-K [--jobs N]

R times (`--runs`, default 10), each cold: projects.toml is rewritten with
`cache_dir = "cache-K"` and `site-K` and `cache-K` start absent. The child runs with HOME
set to WORKDIR/home (an empty folder made here), stdin closed, stderr kept in
WORKDIR/run-K.stderr. Per run it records the exit code, wall time, CPU (user + sys of the
child and the children it waited for, from os.wait4), peak RSS, and the site's size and
file count, and prints one markdown row as the run ends; after the table, the last 20
stderr lines of every failed run, then `N passed, M failed`. Exits with 1 if any run
failed. The rows are also written to WORKDIR/results.json.

With `--check`, instead runs `PORTOLAN check -q --config WORKDIR/projects.toml` once (cold,
cache `cache-check`) and prints every problem line it reports, grouped by kind: failed
projects; unresolved kinds, split by the source line they point at (read from the tree as
text) into dynamic sources (`WatchesRawSource(source.Channel(...))`, a cluster cache's
`GetClusterSource(...)`, another `WatchesRawSource(...)`) and real unresolved kinds; broken
links; revisions not compared; and its notes (dynamic and accepted kinds). Each unresolved
line is followed by that source line. Exits with check's exit code.

Which sizes to run: the search-index merge failure (`error: search index: merging
segments: … could not be found in the SegmentManager`) depends on how many index segments a
build makes, not simply on how many projects it has. Before it was fixed, `--first 12`
failed in every run and `--first 14` in about half, while the whole list (17) passed; so run
several sizes (`--first 12`, `--first 14`, the whole list) to show it is gone.

Deletion: WORKDIR is marked as this script's with a file `.real-portal`; a WORKDIR that
exists, is not empty and has no such file is refused. The script deletes only the folders
`site-K`, `cache-K` and `cache-check` directly under a marked WORKDIR (never a link): each
before the run that writes it, and after a passing run unless `--keep` (a failed run's
folders are kept for a look). Anything portolan leaves behind itself (a killed build's
`.site-K.new-*`) is left alone. Standard library only.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = os.path.join(HERE, "real_portal", "operators.tsv")
MARKER = ".real-portal"


def read_list(path):
    """The operators of the TSV: (name, github, commit, [exclude globs]) in list order."""
    ops = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 3 or not re.fullmatch(r"[0-9a-f]{40}", cols[2]):
                sys.exit(f"{path}:{n}: want name, OWNER/NAME, 40-hex commit[, excludes]")
            excludes = [g.strip() for g in (cols[3] if len(cols) > 3 else "").split(",")]
            ops.append((cols[0], cols[1], cols[2], [g for g in excludes if g]))
    return ops


def config_text(ops, trees, cache):
    out = ['[site]\ntitle = "Real operators"\nbase_url = "/"\n'
           f"cache_dir = {json.dumps(cache)}\n"]
    for name, github, commit, excludes in ops:
        out.append(f'\n[[project]]\nname = "{name}"\n'
                   f"path = {json.dumps(os.path.join(trees, name))}\n"
                   f"source_url = {json.dumps(f'https://github.com/{github}/blob/{commit}/' + '{path}#L{line}')}\n")
        if excludes:
            out.append(f"exclude = [{', '.join(json.dumps(g) for g in excludes)}]\n")
    return "".join(out)


def claim_workdir(workdir):
    """Makes WORKDIR ours (the marker file), or refuses one that holds something else."""
    marker = os.path.join(workdir, MARKER)
    if os.path.isdir(workdir) and not os.path.islink(workdir):
        if os.listdir(workdir) and not os.path.isfile(marker):
            sys.exit(f"refusing {workdir}: not empty and not made by this script (no {MARKER})")
    elif os.path.lexists(workdir):
        sys.exit(f"refusing {workdir}: not a folder")
    os.makedirs(workdir, exist_ok=True)
    with open(marker, "w", encoding="utf-8") as f:
        f.write("made by bench/real_portal.py; it deletes only site-*, cache-* here\n")
    home = os.path.join(workdir, "home")
    os.makedirs(home, exist_ok=True)
    return home


def remove_own(workdir, name):
    """Deletes WORKDIR/NAME if it is one of the folders this script makes (not a link)."""
    assert re.fullmatch(r"(site|cache)-(\d+|check)", name), name
    assert os.path.isfile(os.path.join(workdir, MARKER))
    path = os.path.join(workdir, name)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)


def run_child(argv, home, stderr_path, timeout):
    """Runs argv; returns (exit code or None on timeout, wall s, cpu s, peak RSS MB)."""
    env = dict(os.environ, HOME=home)
    for k in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env.pop(k, None)
    start = time.monotonic()
    with open(stderr_path, "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err, env=env, start_new_session=True)
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout and not timed_out:
            os.killpg(proc.pid, signal.SIGKILL)  # the session this child leads
            timed_out = True
        time.sleep(0.05)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code  # reaped here; keep Popen from waiting again
    return (None if timed_out else code, wall, usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024)


def tree_size(path):
    files = size = 0
    for dirpath, _, names in os.walk(path):
        for f in names:
            files += 1
            size += os.lstat(os.path.join(dirpath, f)).st_size
    return files, size


def tail(path, n=20):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()[-n:]


def first_error(lines):
    for l in lines:
        if l.startswith("error:"):
            return l
    return lines[-1] if lines else ""


def build_runs(args, ops, binary, workdir, home, trees):
    config = os.path.join(workdir, "projects.toml")
    results = []
    print(f"{len(ops)} operators: {', '.join(o[0] for o in ops)}\n")
    print("| run | exit | wall | CPU | peak RSS | site | files | error |")
    print("|---|---|---|---|---|---|---|---|", flush=True)
    for k in range(args.runs):
        site, cache = f"site-{k}", f"cache-{k}"
        remove_own(workdir, site)
        remove_own(workdir, cache)
        with open(config, "w", encoding="utf-8") as f:
            f.write(config_text(ops, trees, cache))
        argv = [binary, "build", "-q", "--config", config, "--out", os.path.join(workdir, site)]
        if args.jobs:
            argv += ["--jobs", str(args.jobs)]
        stderr_path = os.path.join(workdir, f"run-{k}.stderr")
        code, wall, cpu, rss = run_child(argv, home, stderr_path, args.timeout)
        files, size = tree_size(os.path.join(workdir, site))
        lines = tail(stderr_path)
        ok = code == 0
        r = {"run": k, "exit": code, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
             "peak_rss_mb": round(rss, 1), "site_bytes": size, "site_files": files,
             "ok": ok, "stderr_tail": [] if ok else lines}
        results.append(r)
        err = "" if ok else ("timed out" if code is None else first_error(lines))
        err = err.replace("|", "\\|")
        print(f"| {k} | {'timeout' if code is None else code} | {wall:.1f} s | {cpu:.1f} s | "
              f"{rss:.0f} MB | {size / 1e6:.1f} MB ({size:,} B) | {files:,} | {err[:160]} |",
              flush=True)
        if ok and not args.keep:
            remove_own(workdir, site)
            remove_own(workdir, cache)
    with open(os.path.join(workdir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"operators": [o[0] for o in ops], "runs": results}, f, indent=1)
    failed = [r for r in results if not r["ok"]]
    for r in failed:
        print(f"\nrun {r['run']} failed (exit {r['exit']}); last stderr lines:\n```")
        print("\n".join(r["stderr_tail"]))
        print("```")
    print(f"\n{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


# How `check` reports an unresolved watch: `unresolved kind: P: FILE:LINE: KIND`, KIND often
# `?`. What the watch was written with is on that line of the tree (read as text here): a
# raw source chosen at run time is not a kind to map, unlike a `For(x)` whose x is unknown.
SOURCE_RULES = [
    ("dynamic source: source.Channel(...)", re.compile(r"\bsource\.Channel\(")),
    ("dynamic source: a cluster cache's GetClusterSource(...)", re.compile(r"GetClusterSource\(")),
    ("dynamic source: another WatchesRawSource(...)", re.compile(r"WatchesRawSource\(")),
]
REAL = "real unresolved kind (For/Watches/source.Kind/GetInformer of an object not resolved)"


def source_line(trees, project, file, line):
    """The text of FILE:LINE in the project's tree, or "" (never outside the tree)."""
    root = os.path.realpath(os.path.join(trees, project))
    path = os.path.realpath(os.path.join(root, file))
    if os.path.isabs(file) or not path.startswith(root + os.sep) or not os.path.isfile(path):
        return ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, text in enumerate(f, 1):
            if n == line:
                return text.strip()
    return ""


def classify(line, trees):
    """(group, project, source text) of one problem or note line of `check`."""
    m = re.match(r"(note: dynamic kind|note: accepted unresolved kind|unresolved kind): "
                 r"([^:]+): (.*):(\d+): (.*)$", line)
    if m:
        prefix, project, file, n, kind = m.groups()
        text = source_line(trees, project, file, int(n))
        if prefix != "unresolved kind":
            return prefix, project, text
        for label, rx in SOURCE_RULES:
            if rx.search(text) or rx.search(kind):
                return f"unresolved kind, {label}", project, text
        return f"unresolved kind, {REAL}", project, text
    for prefix in ("broken link", "not compared", "error"):
        if line.startswith(prefix + ":"):
            return prefix, "", ""
    if line.startswith("check:"):
        return "summary", "", ""
    return "other output", "", ""


def check_run(args, ops, binary, workdir, home, trees):
    config = os.path.join(workdir, "projects.toml")
    remove_own(workdir, "cache-check")
    with open(config, "w", encoding="utf-8") as f:
        f.write(config_text(ops, trees, "cache-check"))
    argv = [binary, "check", "-q", "--config", config]
    if args.jobs:
        argv += ["--jobs", str(args.jobs)]
    stderr_path = os.path.join(workdir, "check.stderr")
    code, wall, cpu, rss = run_child(argv, home, stderr_path, args.timeout)
    with open(stderr_path, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f.read().splitlines() if l.strip()]
    groups = {}
    for l in lines:
        group, project, text = classify(l, trees)
        groups.setdefault(group, []).append((project, l, text))
    print(f"check of {len(ops)} operators: exit {'timeout' if code is None else code}, "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU, {rss:.0f} MB peak RSS; full output in {stderr_path}\n")
    print("| group | lines |\n|---|---|")
    for g in sorted(groups):
        print(f"| {g} | {len(groups[g])} |")
    for g in sorted(groups):
        items = groups[g]
        per = {}
        for p, _, _ in items:
            if p:
                per[p] = per.get(p, 0) + 1
        by = "; " + ", ".join(f"{p} {n}" for p, n in sorted(per.items())) if per else ""
        print(f"\n## {g} ({len(items)}{by})\n")
        for _, l, text in items:
            print(f"{l}\n    {text}" if text else l)
    return 2 if code is None else code


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("portolan")
    ap.add_argument("workdir")
    ap.add_argument("--trees", default="/tmp/real", help="folder of the work trees (DIR/NAME)")
    ap.add_argument("--list", default=LIST, help="the operators TSV")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--jobs", type=int, help="passed to portolan as --jobs")
    ap.add_argument("--only", help="comma-separated names: only these operators")
    ap.add_argument("--first", type=int, help="only the first N operators of the list")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    ap.add_argument("--keep", action="store_true", help="keep the sites and caches of passing runs")
    ap.add_argument("--check", action="store_true", help="run `check` once instead of builds")
    args = ap.parse_args()
    binary = os.path.abspath(args.portolan)
    workdir = os.path.abspath(args.workdir)
    trees = os.path.abspath(args.trees)
    ops = read_list(args.list)
    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        unknown = sorted(set(wanted) - {o[0] for o in ops})
        if unknown:
            sys.exit(f"not in {args.list}: {', '.join(unknown)}")
        ops = [o for o in ops if o[0] in wanted]
    if args.first:
        ops = ops[:args.first]
    missing = [o[0] for o in ops if not os.path.isdir(os.path.join(trees, o[0]))]
    if missing:
        sys.exit(f"no work tree under {trees} for: {', '.join(missing)} "
                 "(check each out at its commit of the list; see the docstring)")
    home = claim_workdir(workdir)
    run = check_run if args.check else build_runs
    sys.exit(run(args, ops, binary, workdir, home, trees))


if __name__ == "__main__":
    main()
