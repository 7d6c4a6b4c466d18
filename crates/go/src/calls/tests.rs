use super::*;
use crate::file::extract;
use crate::test_support;
use model::Area;

fn calls_of(src: &str, func: &str) -> Vec<(u32, Target)> {
    let f = extract("x.go", src);
    f.call_facts
        .iter()
        .find(|f| f.name == func)
        .map(|f| f.calls.iter().map(|c| (c.line, c.target.clone())).collect())
        .unwrap_or_default()
}

/// The package index of test files of the module `example.com/m`.
fn index_of(files: &[GoInput]) -> GoIndex<'_> {
    test_support::index(files, "example.com/m", &mut Vec::new())
}

fn ty(q: Option<&str>, n: &str) -> TypeRef {
    TypeRef {
        qualifier: q.map(str::to_string),
        name: n.into(),
        collection: false,
    }
}

#[test]
fn calls_follow_locals_chains_and_skip_the_standard_library() {
    let src = r#"package main
import (
	"fmt"
	"example.com/m/pkg/opts"
)
func main() {
	o := opts.New()
	o.AddFlags(nil)
	fmt.Println("x")
	opts.NewRunner().With(1).Run()
	var r Runner
	r.Start()
	for _, x := range xs {
		x.Stop()
	}
	run(helper)
}
"#;
    let got = calls_of(src, "main");
    let call = |q: Option<&str>, n: &str| Root::Call {
        qualifier: q.map(str::to_string),
        name: n.into(),
    };
    assert_eq!(
        got,
        vec![
            (
                7,
                Target::Func {
                    qualifier: Some("opts".into()),
                    name: "New".into()
                }
            ),
            (
                8,
                Target::Method {
                    receiver: Chain {
                        root: call(Some("opts"), "New"),
                        steps: vec![]
                    },
                    name: "AddFlags".into()
                }
            ),
            (
                10,
                Target::Method {
                    receiver: Chain {
                        root: call(Some("opts"), "NewRunner"),
                        steps: vec![Step::Call("With".into())]
                    },
                    name: "Run".into()
                }
            ),
            (
                10,
                Target::Method {
                    receiver: Chain {
                        root: call(Some("opts"), "NewRunner"),
                        steps: vec![]
                    },
                    name: "With".into()
                }
            ),
            (
                10,
                Target::Func {
                    qualifier: Some("opts".into()),
                    name: "NewRunner".into()
                }
            ),
            (
                12,
                Target::Method {
                    receiver: Chain {
                        root: Root::Type(ty(None, "Runner")),
                        steps: vec![]
                    },
                    name: "Start".into()
                }
            ),
            (
                16,
                Target::Func {
                    qualifier: None,
                    name: "run".into()
                }
            ),
            (
                16,
                Target::Func {
                    qualifier: None,
                    name: "helper".into()
                }
            ),
        ]
    );
}

#[test]
fn the_graph_follows_result_types_embedded_fields_and_receivers() {
    let files = vec![
        GoInput {
            facts: extract(
                "cmd/app/main.go",
                "package main\nimport \"example.com/m/pkg/run\"\nfunc main() {\n\trun.NewRunner().With(2).Run()\n}\n",
            ),
            area: Area::Component,
        },
        GoInput {
            facts: extract(
                "pkg/run/run.go",
                r#"package run
type Runner struct{}
type Options struct {
	Logging
}
type Logging struct{}
func NewRunner() *Runner { return &Runner{} }
func (r *Runner) With(n int) *Runner { return r }
func (r *Runner) Run() {
	o := NewOptions()
	o.AddFlags()
}
func NewOptions() *Options { return &Options{} }
func (o *Options) AddFlags() {
	o.Logging.AddFlags()
	o.Bind()
}
func (l *Logging) AddFlags() {}
func (l *Logging) Bind() {}
func unused() {}

// A struct embedding an interface runs its implementers' methods.
type saver interface {
	save()
}
type diskSaver struct{}
func (d *diskSaver) save() {}
type Job struct {
	saver
}
func (j *Job) Run() {
	j.save()
}
func NewJob() *Job { return &Job{saver: &diskSaver{}} }

// A local given method values on either branch runs either when called.
type tapeSaver struct{}
func (t *tapeSaver) save() {}
type Archive struct {
	disk *diskSaver
	tape *tapeSaver
}
func (a *Archive) Run(fast bool) {
	store := a.disk.save
	if fast {
		store = a.tape.save
	}
	store()
}
"#,
            ),
            area: Area::Component,
        },
    ];
    let index = index_of(&files);
    let graph = Graph::build(&files, &index);
    let main = graph.function(0, None, "main");
    assert_eq!(main, vec![FuncId::new(0, 0)]);
    // The functions of `pkg/run` reached from `roots`, as `Receiver.name`.
    let reached = |roots: Vec<FuncId>| -> Vec<String> {
        let reach = graph.reachable(roots);
        files[1]
            .facts
            .call_facts
            .iter()
            .enumerate()
            .filter(|(i, _)| reach.contains(FuncId::new(1, *i)))
            .map(|(_, f)| format!("{}.{}", f.receiver.clone().unwrap_or_default(), f.name))
            .collect()
    };
    assert_eq!(
        reached(main),
        vec![
            ".NewRunner",
            "Runner.With",
            "Runner.Run",
            ".NewOptions",
            "Options.AddFlags",
            "Logging.AddFlags",
            "Logging.Bind"
        ]
    );
    let run = |ty: &str| graph.methods_of("example.com/m/pkg/run", ty, "Run");
    // Every implementer of the embedded interface may be the one.
    assert_eq!(
        reached(run("Job")),
        vec!["diskSaver.save", "Job.Run", "tapeSaver.save"]
    );
    assert_eq!(
        reached(run("Archive")),
        vec!["diskSaver.save", "tapeSaver.save", "Archive.Run"]
    );
}

#[test]
fn argument_flow_reads_each_call_on_the_walk_up_to_a_type() {
    let files = vec![
        GoInput {
            facts: extract(
                "h/h.go",
                "package h\ntype Object interface{ GetName() string }\nfunc Write(obj Object) {}\nfunc Pass(obj Object) {\n\tWrite(obj)\n}\n",
            ),
            area: Area::Component,
        },
        GoInput {
            facts: extract(
                "a/a.go",
                r#"package a
import (
	corev1 "k8s.io/api/core/v1"
	"example.com/m/h"
)
type R struct {
	pod corev1.Pod
	obj h.Object
}
func (r *R) Root() {
	r.typed(&r.pod)
	h.Pass(r.pod.DeepCopy())
	h.Write(r.obj)
	run(h.Write)
}
func (r *R) typed(p *corev1.Pod) {
	h.Write(p)
}
func run(f func(h.Object)) {}
func unreached(obj h.Object) { h.Write(obj) }
"#,
            ),
            area: Area::Component,
        },
    ];
    let index = index_of(&files);
    let graph = Graph::build(&files, &index);
    let root = graph.methods_of("example.com/m/a", "R", "Root");
    let paths = graph.paths_from(&root, 32, 1000);
    let write = graph.function(0, None, "Write")[0];
    let flow = |max_depth| {
        graph
            .argument_flow(&paths, write, 0, |_, t| t.name == "Pod", max_depth, 64)
            .into_iter()
            .map(|s| {
                let calls: Vec<String> = s
                    .calls
                    .iter()
                    .map(|c| format!("{}@{}", graph.display(c.caller), c.line))
                    .collect();
                let found = match s.found {
                    Found::Type(fi, t) => format!(
                        "{} {}.{}",
                        graph.file_path(fi),
                        t.qualifier.unwrap_or_default(),
                        t.name
                    ),
                    Found::Unknown(why) => why,
                };
                format!("{} => {found}", calls.join(" > "))
            })
            .collect::<Vec<_>>()
    };
    // The interface-typed field and the function value give no kind; the typed
    // parameter settles it; Pass's own parameter is followed one call further up, to
    // a `DeepCopy` of the field; `unreached` is not on the walk.
    assert_eq!(
        flow(8),
        vec![
            "a.R.Root@13 => a/a.go h.Object",
            "a.R.Root@14 => a.R.Root passes h.Write on as a function value, whose arguments are not known",
            "a.R.typed@17 => a/a.go corev1.Pod",
            "a.R.Root@12 > h.Pass@5 => a/a.go corev1.Pod",
        ]
    );
    assert_eq!(
        flow(1)[3],
        "h.Pass@5 => the walk up stops after 1 calls, at parameter 1 of h.Pass"
    );
}
