#!/usr/bin/env python3
"""Import circles between the files of one crate: modules that reach each other through
`use` paths (`crate::…`, `super::…`), found as the strongly connected components of the
file-level import graph (test modules left out). Prints the count and each circle.
Crates depend on each other one way by construction (Cargo refuses a cycle), so only
circles inside a crate can exist; pass each crate's src folder, or nothing for all of
them (src and crates/*/src).

    python3 bench/import_circles.py [SRC ...]

Standard library only; reads files, writes nothing.
"""
import glob,os,re,sys,collections

def circles(root):
    files={}
    for d,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'):
                p=os.path.join(d,f)
                mod=p[len(root)+1:-3].replace('/','::')
                if mod.endswith('::mod'): mod=mod[:-5]
                if mod in ('main','lib'): mod=''
                if mod == 'tests' or mod.endswith('::tests'): continue  # a test module's own file
                files[mod]=p
    mods=set(files)
    def resolve(path):
        # longest prefix that is a module
        parts=path.split('::')
        for i in range(len(parts),0,-1):
            m='::'.join(parts[:i])
            if m in mods: return m
        return None
    edges=collections.defaultdict(set)
    for mod,p in files.items():
        src=open(p).read()
        # strip tests module
        i=src.find('#[cfg(test)]\nmod tests')
        if i>=0: src=src[:i]
        parent=mod.rsplit('::',1)[0] if '::' in mod else ''
        for m in re.finditer(r'crate::((?:[a-z_][a-z0-9_]*::)*[a-z_][a-z0-9_]*)', src):
            t=resolve(m.group(1))
            if t and t!=mod: edges[mod].add(t)
        for m in re.finditer(r'\bsuper::((?:super::)*)((?:[a-z_][a-z0-9_]*::)*[a-z_][a-z0-9_]*)', src):
            base=parent
            for _ in range(m.group(1).count('super::')):
                base=base.rsplit('::',1)[0] if '::' in base else ''
            full=(base+'::' if base else '')+m.group(2)
            t=resolve(full)
            if t and t!=mod: edges[mod].add(t)
    # tarjan
    idx={};low={};st=[];on=set();sccs=[];c=[0]
    sys.setrecursionlimit(10000)
    def sc(v):
        idx[v]=low[v]=c[0];c[0]+=1;st.append(v);on.add(v)
        for w in edges[v]:
            if w not in idx: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],idx[w])
        if low[v]==idx[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: sccs.append(sorted(comp))
    for v in list(files):
        if v not in idx: sc(v)
    print(f"{root}: {len(sccs)} circles")
    for s in sorted(sccs,key=len,reverse=True): print(len(s), s[:25])

roots=sys.argv[1:] or ['src']+sorted(glob.glob('crates/*/src'))
for root in roots:
    circles(root)
