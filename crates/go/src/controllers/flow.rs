//! Which functions a queue's worker calls through function values: a field
//! (`c.syncHandler(ctx, key)`, given `impl.ProcessItem` where the struct was built) or a
//! parameter (`r(ctx, key)`, handed down from `Run(…, c.queue, …, c.reconcile)`). Each
//! value is followed back to the method values it comes from; a method value of an
//! interface stands for that method of every implementer in the repository. The methods
//! found, grouped by their receiver type, are the controllers a generic worker runs.

use foldhash::{HashSet, HashSetExt};

use super::super::calls::{FuncId, Graph};
use super::super::facts::calls::{Arg, Target};
use super::super::index::dir_of;
use super::super::types::{Chain, Step};
use super::super::values::Values;
use super::TypeKey;

/// Functions of the worker's own package it calls, this many calls down, are searched
/// for calls through function values …
const MAX_DOWN: usize = 2;
/// … whose values are followed this many calls up …
const MAX_UP: usize = 6;
/// … to at most this many methods.
const MAX_FOUND: usize = 256;

/// The methods the workers `roots` call through function values, by receiver type.
pub fn called_values(
    values: &Values,
    graph: &Graph,
    roots: &[FuncId],
) -> Vec<(TypeKey, Vec<FuncId>)> {
    let flow = Flow { values, graph };
    let mut found: Vec<FuncId> = Vec::new();
    let mut seen: HashSet<FuncId> = roots.iter().copied().collect();
    let mut level: Vec<FuncId> = roots.to_vec();
    let packages: HashSet<&str> = roots
        .iter()
        .map(|id| dir_of(graph.file_path(id.file)))
        .collect();
    for depth in 0..=MAX_DOWN {
        let mut next = Vec::new();
        for id in level {
            let facts = &graph.file(id.file).call_facts[id.func];
            for call in &facts.calls {
                let targets = graph.resolve(id.file, &call.target);
                if targets.is_empty() {
                    flow.dynamic(id, &call.target, &mut found);
                    continue;
                }
                if depth < MAX_DOWN {
                    next.extend(targets.into_iter().filter(|t| {
                        packages.contains(dir_of(graph.file_path(t.file))) && seen.insert(*t)
                    }));
                }
            }
        }
        level = next;
    }
    found.sort_unstable();
    found.dedup();
    let mut out: Vec<(TypeKey, Vec<FuncId>)> = Vec::new();
    for id in found.into_iter().take(MAX_FOUND) {
        let file = graph.file(id.file);
        let (Some(receiver), Some(pkg)) = (
            &file.call_facts[id.func].receiver,
            values.index.package_of(file),
        ) else {
            continue;
        };
        let key = TypeKey {
            pkg: pkg.to_string(),
            name: receiver.clone(),
        };
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ids)) => ids.push(id),
            None => out.push((key, vec![id])),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

struct Flow<'v, 'a, 'b, 'g> {
    values: &'v Values<'a, 'b>,
    graph: &'g Graph<'g>,
}

impl Flow<'_, '_, '_, '_> {
    /// The functions a call the graph cannot follow goes to, when it is a call through a
    /// parameter or a struct field whose values can be followed.
    fn dynamic(&self, id: FuncId, target: &Target, found: &mut Vec<FuncId>) {
        match target {
            Target::Param(i) => self.param_values(id, *i, 0, &mut HashSet::new(), found),
            Target::Method { receiver, name } => {
                let Some((at, t)) = self.graph.type_written(id.file, receiver) else {
                    return;
                };
                let index = self.values.index;
                let Some(pkg) = index.type_package(self.graph.file(at), t.qualifier.as_deref())
                else {
                    return;
                };
                for input in index.files {
                    for v in &input.facts.field_values {
                        let owner_pkg =
                            index.type_package(&input.facts, v.owner.qualifier.as_deref());
                        if v.field != *name
                            || v.owner.name != t.name
                            || owner_pkg.as_deref() != Some(pkg.as_str())
                        {
                            continue;
                        }
                        let dir = dir_of(&input.facts.path);
                        let Some(giver) = self.values.node_of(dir, &v.func) else {
                            continue;
                        };
                        self.value(giver, &v.value, 0, &mut HashSet::new(), found);
                    }
                }
            }
            Target::Func { .. } => {}
        }
    }

    /// What an argument or field value `arg`, written in function `at`, may call.
    fn value(
        &self,
        at: FuncId,
        arg: &Arg,
        depth: usize,
        seen: &mut HashSet<(FuncId, usize)>,
        found: &mut Vec<FuncId>,
    ) {
        match arg {
            Arg::Param(k) => self.param_values(at, *k, depth + 1, seen, found),
            Arg::Value(chain) => found.extend(self.method_value(at.file, chain)),
            Arg::Str(_) | Arg::Other => {}
        }
    }

    /// The method values parameter `i` of `id` is given, up the calls into it.
    fn param_values(
        &self,
        id: FuncId,
        i: usize,
        depth: usize,
        seen: &mut HashSet<(FuncId, usize)>,
        found: &mut Vec<FuncId>,
    ) {
        if depth > MAX_UP || found.len() >= MAX_FOUND || !seen.insert((id, i)) {
            return;
        }
        for (caller, call) in self.graph.calls_into(id) {
            if let Some(arg) = call.args.get(i) {
                self.value(caller, arg, depth, seen, found);
            }
        }
    }

    /// `x.M` as a value: method `M` of `x`'s type (of every implementer, for an interface).
    fn method_value(&self, fi: usize, chain: &Chain) -> Vec<FuncId> {
        let Some((Step::Field(name), prefix)) = chain.steps.split_last() else {
            return Vec::new();
        };
        let receiver = Chain {
            root: chain.root.clone(),
            steps: prefix.to_vec(),
        };
        self.graph.resolve(
            fi,
            &Target::Method {
                receiver,
                name: name.clone(),
            },
        )
    }
}
