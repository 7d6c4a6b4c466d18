#!/usr/bin/env python3
"""The shape of the Rust code under the given folders (default: src and crates): lines per
file (median, p90, max), functions longer than 100 and 150 lines, and the crates.

    python3 bench/code_shape.py [-v] [FOLDER...]     (-v lists the long functions)

A function's length runs from its `fn` line to the line of its closing brace, found by
counting braces outside strings, chars and comments (raw strings included). Test modules
count like any code; the sizes are also given without the `tests.rs` files that hold a
module's tests. Standard library only; reads files, writes nothing.
"""
import os, re, sys, statistics

roots = [a for a in sys.argv[1:] if a != '-v'] or ['src', 'crates']
files = []
for root in roots:
    for d, _, fs in os.walk(root):
        files += [os.path.join(d, f) for f in fs if f.endswith('.rs')]

def code_only(text):
    """`text` with strings, chars and comments blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith('/*', i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith('/*', j): depth += 1; j += 2
                elif text.startswith('*/', j): depth -= 1; j += 2
                else: j += 1
            out.append('\n' * text.count('\n', i, j)); i = j
            continue
        m = re.match(r'b?r(#*)"', text[i:i + 260]) if c in 'rb' and (i == 0 or not (text[i-1].isalnum() or text[i-1] == '_')) else None
        if m:
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out.append('\n' * text.count('\n', i, j)); i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append('\n' * text.count('\n', i, j)); i = j + 1
            continue
        if c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:i + 12])
            if m:
                i += m.end(); continue
        out.append(c); i += 1
    return ''.join(out)

sizes, code_sizes, long_fns = [], [], []
for p in files:
    text = open(p, encoding='utf-8').read()
    lines = text.split('\n')
    sizes.append(len(lines) - (1 if text.endswith('\n') else 0))
    if os.path.basename(p) != 'tests.rs':
        code_sizes.append(sizes[-1])
    code = code_only(text).split('\n')
    for k, line in enumerate(code):
        m = re.match(r'\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)', line)
        if not m:
            continue
        depth, opened = 0, False
        for e in range(k, len(code)):
            depth += code[e].count('{') - code[e].count('}')
            opened = opened or '{' in code[e]
            if not opened and ';' in code[e]:
                break  # a declaration without a body
            if opened and depth <= 0:
                long_fns.append((e - k + 1, p, k + 1, m.group(6)))
                break

sizes.sort()
q = statistics.quantiles(sizes, n=10)
print(f"files {len(sizes)}, lines {sum(sizes)}")
print(f"file lines median {statistics.median(sizes):.0f} / p90 {q[8]:.0f} / max {sizes[-1]}")
if len(code_sizes) != len(sizes):
    code_sizes.sort()
    cq = statistics.quantiles(code_sizes, n=10)
    print(f"  without the {len(sizes) - len(code_sizes)} tests.rs files: {len(code_sizes)} files, median "
          f"{statistics.median(code_sizes):.0f} / p90 {cq[8]:.0f} / max {code_sizes[-1]}")
over100 = sorted((f for f in long_fns if f[0] > 100), reverse=True)
print(f"functions over 100 lines: {len(over100)}; over 150: {sum(1 for f in over100 if f[0] > 150)}")
crates = sorted({p.split(os.sep)[1] for p in files if p.startswith('crates' + os.sep)})
binary = any(p.startswith('src' + os.sep) for p in files)
print(f"crates: {len(crates) + binary} ({', '.join(crates + ['the binary'] * binary)})")
if '-v' in sys.argv:
    for f in over100: print(*f)
