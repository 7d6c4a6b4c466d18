#!/usr/bin/env python3
"""Read file:line on stdin (cwd = repo root); print file:line:joined call text (up to 8 lines, until parens balance)."""
import sys
for ln in sys.stdin:
    f, l = ln.strip().split(':')[:2]
    lines = open(f).read().split('\n')
    i = int(l) - 1; txt = ''
    for j in range(i, min(i + 8, len(lines))):
        txt += lines[j].strip() + ' '
        if txt.count('(') <= txt.count(')') and '(' in txt and not txt.rstrip().endswith('.'): break
    print(f'{f}:{l}:{txt}')
