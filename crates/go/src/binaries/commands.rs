//! cobra command trees per project: each flag's command, and each program's tree of
//! commands with their own flags.

use std::collections::{BTreeMap, BTreeSet};

use super::evaluate::Evaluator;
use crate::calls::{FuncId, Graph};
use crate::cobra;
use crate::facts::cobra::{CmdRef, CobraCommand};
use crate::index::GoInput;
use model::{Command, SourceRef};

/// A cobra command literal: (file, index in that file's `cobra.commands`).
pub(super) type CommandId = (usize, usize);

/// Resolves how code names a cobra command to the literal that made it.
pub(super) struct Commands<'a> {
    pub(super) files: &'a [GoInput],
    pub(super) graph: &'a Graph<'a>,
    pub(super) packages: &'a [String],
}

/// Deepest command path followed; cobra trees are a few levels deep.
const MAX_COMMAND_DEPTH: usize = 16;

impl Commands<'_> {
    fn of(&self, fi: usize) -> &[CobraCommand] {
        &self.files[fi].facts.binaries.cobra.commands
    }

    /// The one literal a reference names from function `func` of file `fi`, if exactly one.
    pub(super) fn find(&self, fi: usize, func: usize, r: &CmdRef) -> Option<CommandId> {
        self.find_at(fi, func, r, 0)
    }

    fn find_at(&self, fi: usize, func: usize, r: &CmdRef, depth: usize) -> Option<CommandId> {
        let one = |found: Vec<CommandId>| match found.as_slice() {
            [id] => Some(*id),
            _ => None,
        };
        match r {
            CmdRef::Literal(line) => one((self.of(fi).iter().enumerate())
                .filter(|(_, c)| c.line == *line)
                .map(|(i, _)| (fi, i))
                .collect()),
            CmdRef::Var(name) => {
                let local: Vec<CommandId> = (self.of(fi).iter().enumerate())
                    .filter(|(_, c)| {
                        !c.package_level && c.func == func && c.var.as_deref() == Some(name)
                    })
                    .map(|(i, _)| (fi, i))
                    .collect();
                if !local.is_empty() {
                    return one(local);
                }
                let pkg = &self.packages[fi];
                let mut found = Vec::new();
                for (f, _) in self.files.iter().enumerate() {
                    if &self.packages[f] != pkg {
                        continue;
                    }
                    for (i, c) in self.of(f).iter().enumerate() {
                        if c.package_level && c.var.as_deref() == Some(name) {
                            found.push((f, i));
                        }
                    }
                }
                one(found)
            }
            CmdRef::Call(q, name) => {
                let targets = self.graph.function(fi, q.as_deref(), name);
                let [
                    FuncId {
                        file: tf,
                        func: tfunc,
                    },
                ] = targets.as_slice()
                else {
                    return None;
                };
                let literal: Vec<CommandId> = (self.of(*tf).iter().enumerate())
                    .filter(|(_, c)| c.returned && c.func == *tfunc)
                    .map(|(i, _)| (*tf, i))
                    .collect();
                if !literal.is_empty() || depth >= MAX_COMMAND_DEPTH {
                    return one(literal);
                }
                // The function returns what another function made.
                let mut via: Vec<CommandId> = (self.files[*tf].facts.binaries.cobra.returns)
                    .iter()
                    .filter(|(f, _)| f == tfunc)
                    .filter_map(|(_, r)| self.find_at(*tf, *tfunc, r, depth + 1))
                    .collect();
                via.sort_unstable();
                via.dedup();
                one(via)
            }
        }
    }

    /// The commands of one program as a flat list with full paths, roots first by path.
    pub(super) fn tree(
        &self,
        eval: &Evaluator,
        belongs: &dyn Fn(usize, usize) -> bool,
        flags: &[(usize, usize, CommandId, String)],
    ) -> Vec<Command> {
        let mut members: Vec<CommandId> = Vec::new();
        for fi in 0..self.files.len() {
            for (i, c) in self.of(fi).iter().enumerate() {
                if belongs(fi, c.func) {
                    members.push((fi, i));
                }
            }
        }
        if members.is_empty() {
            return Vec::new();
        }
        let mut edges: BTreeMap<CommandId, Vec<CommandId>> = BTreeMap::new();
        let mut children: BTreeSet<CommandId> = BTreeSet::new();
        for (fi, input) in self.files.iter().enumerate() {
            for add in &input.facts.binaries.cobra.adds {
                if !belongs(fi, add.func) {
                    continue;
                }
                let Some(parent) = self.find(fi, add.func, &add.parent) else {
                    continue;
                };
                if !members.contains(&parent) {
                    continue;
                }
                for child in &add.children {
                    if let Some(c) = self.find(fi, add.func, child)
                        && c != parent
                    {
                        edges.entry(parent).or_default().push(c);
                        children.insert(c);
                    }
                }
            }
        }
        let name_of = |(fi, i): CommandId| -> Option<String> {
            let c = &self.of(fi)[i];
            let use_ = eval.eval_str(fi, c.use_.as_ref()?)?;
            cobra::command_name(&use_)
        };
        let mut out = Vec::new();
        let mut seen: BTreeSet<CommandId> = BTreeSet::new();
        let mut stack: Vec<(CommandId, String, usize)> = members
            .iter()
            .filter(|m| !children.contains(m))
            .filter_map(|m| name_of(*m).map(|n| (*m, n, 0)))
            .collect();
        while let Some((id, path, depth)) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let (fi, i) = id;
            let c = &self.of(fi)[i];
            let mut own: Vec<String> = flags
                .iter()
                .filter(|(ffi, func, cid, _)| *cid == id && belongs(*ffi, *func))
                .map(|(_, _, _, n)| n.clone())
                .collect();
            own.sort();
            own.dedup();
            out.push(Command {
                name: name_of(id).unwrap_or_default(),
                path: path.clone(),
                short: c
                    .short
                    .as_ref()
                    .and_then(|e| eval.eval_str(fi, e))
                    .unwrap_or_default(),
                flags: own,
                sources: vec![SourceRef::new(&self.files[fi].facts.path, c.line)],
            });
            if depth >= MAX_COMMAND_DEPTH {
                continue;
            }
            for child in edges.get(&id).into_iter().flatten() {
                if let Some(n) = name_of(*child) {
                    stack.push((*child, format!("{path} {n}"), depth + 1));
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }
}
