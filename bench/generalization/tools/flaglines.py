#!/usr/bin/env python3
"""Turn grep -n lines of flag registrations into truth rows (binary, flag, default, file, line, how).
Usage: flaglines.py BINARY HOW < grep_output  (lines: file:line:code). Only a helper for hand-checked truth."""
import re, sys
binary, how = sys.argv[1], sys.argv[2]
def split_args(s):
    args, depth, cur, q = [], 0, '', None
    i = 0
    while i < len(s):
        c = s[i]
        if q:
            cur += c
            if c == '\\' and q == '"': cur += s[i+1]; i += 1
            elif c == q: q = None
        elif c in '"`': q = c; cur += c
        elif c in '([{': depth += 1; cur += c
        elif c in ')]}':
            if depth == 0: args.append(cur.strip()); return args
            depth -= 1; cur += c
        elif c == ',' and depth == 0: args.append(cur.strip()); cur = ''
        else: cur += c
        i += 1
    args.append(cur.strip()); return args
for line in sys.stdin:
    f, l, code = line.rstrip('\n').split(':', 2)
    ms = [m for m in re.finditer(r'\.\s*([A-Z][A-Za-z0-9]*)\(', code) if m.group(1) not in ('Flags', 'PersistentFlags', 'CommandLine')]
    if not ms: continue
    m = ms[0]
    meth = m.group(1)
    args = split_args(code[m.end():])
    isvar = meth.endswith('Var') or meth.endswith('VarP') or meth in ('Var', 'VarP', 'TextVar', 'Func')
    if isvar: args = args[1:]
    name = args[0] if args else ''
    name = name.strip('"')
    if meth.endswith('P') and meth not in ('Var',):
        args = args[1:]  # shorthand
    default = args[1] if len(args) > 1 and meth not in ('Var', 'VarP', 'Func') else ''
    print('\t'.join([binary, name, default, f, l, how]))
