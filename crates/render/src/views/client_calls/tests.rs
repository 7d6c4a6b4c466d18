use super::*;
use model::{SourceRef, UnresolvedCall, Verb};

fn project() -> Project {
    Project {
        name: "demo".into(),
        source_url: "https://example.com/demo/blob/{commit}/{path}#L{line}".into(),
        commit: "abc".into(),
        ..Project::default()
    }
}

fn call(verb: Verb, at: &[(&str, u32)], reason: &str) -> UnresolvedCall {
    UnresolvedCall {
        verb,
        sources: at.iter().map(|(f, l)| SourceRef::new(f, *l)).collect(),
        reason: reason.into(),
    }
}

#[test]
fn a_project_line_counts_and_lists_the_unresolved_calls() {
    let calls = ClientCalls {
        found: 7,
        resolved: 5,
        unresolved: vec![
            call(
                Verb::Patch,
                &[("c/w.go", 31), ("c/w.go", 25)],
                "cannot tell <the> kind",
            ),
            call(Verb::List, &[("c/w.go", 52)], "its object is …"),
        ],
        incomplete: String::new(),
    };
    let view = view(&project(), Some(&calls), Scope::Project).unwrap();
    assert_eq!(
        view.summary,
        "5 of 7 client calls resolved to a kind and listed; 2 unresolved."
    );
    assert!(!view.complete);
    assert_eq!(view.label, "The 2 unresolved calls");
    assert_eq!(view.more, 0);
    assert_eq!(
        view.unresolved[0],
        UnresolvedView {
            verb: "patch".into(),
            sources: vec![
                Link {
                    label: "c/w.go:31".into(),
                    url: "https://example.com/demo/blob/abc/c/w.go#L31".into(),
                    note: false,
                },
                Link {
                    label: "c/w.go:25".into(),
                    url: "https://example.com/demo/blob/abc/c/w.go#L25".into(),
                    note: false,
                },
            ],
            reason: "cannot tell <the> kind".into(),
        }
    );
}

#[test]
fn a_controller_line_says_when_nothing_was_found_or_followed() {
    let p = project();
    let none = ClientCalls::default();
    let view_of = |calls: &ClientCalls| view(&p, Some(calls), Scope::Controller).unwrap();
    assert_eq!(
        view_of(&none).summary,
        "No client calls were found in what its Reconcile reaches."
    );
    assert!(!view_of(&none).complete);
    let cut = ClientCalls {
        incomplete: "no Reconcile method of R was found, so no call from it was followed".into(),
        ..ClientCalls::default()
    };
    assert_eq!(
        view_of(&cut).summary,
        "No client calls were found in what its Reconcile reaches. Not every call was counted: no Reconcile method of R was found, so no call from it was followed."
    );
    let all = ClientCalls {
        found: 3,
        resolved: 3,
        ..ClientCalls::default()
    };
    assert_eq!(
        view_of(&all).summary,
        "3 of 3 client calls resolved to a kind."
    );
    assert!(view_of(&all).complete);
    assert_eq!(view(&p, None, Scope::Controller), None);
}

#[test]
fn long_lists_are_cut_and_say_how_many_more() {
    let calls = ClientCalls {
        found: SHOWN + 5,
        resolved: 0,
        unresolved: (0..SHOWN as u32 + 5)
            .map(|i| call(Verb::Get, &[("a.go", i + 1)], "why"))
            .collect(),
        incomplete: String::new(),
    };
    let view = view(&project(), Some(&calls), Scope::Project).unwrap();
    assert_eq!((view.unresolved.len(), view.more), (SHOWN, 5));
}
