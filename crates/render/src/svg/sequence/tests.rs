use super::*;
use crate::sequence::Participant;

fn participant(id: &str, label: &str) -> Participant {
    Participant {
        id: id.into(),
        label: label.into(),
        link: "/x/".into(),
    }
}

#[test]
fn long_names_take_two_lines_and_paths_keep_their_end() {
    assert_eq!(box_lines("Kubernetes API"), ["Kubernetes API"]);
    assert_eq!(
        box_lines("llamastackdistribution controller"),
        ["llamastackdistribution", "controller"]
    );
    assert_eq!(
        box_lines("package …/llama-stack-k8s-operator/controllers"),
        ["package", "…-stack-k8s-operator/controllers"]
    );
    let d = Diagram {
        title: "t".into(),
        participants: vec![
            participant("api", "Kubernetes API"),
            participant("c0", "llamastackdistribution controller"),
        ],
        steps: Vec::new(),
    };
    let svg = render(&d);
    // Both boxes are two lines tall; the split name is the tooltip.
    assert_eq!(svg.matches("height=\"52\"").count(), 4, "{svg}");
    assert!(
        svg.contains("<title>llamastackdistribution controller</title>"),
        "{svg}"
    );
}

#[test]
fn repository_text_stays_inert() {
    let d = Diagram {
        title: "t".into(),
        participants: vec![
            participant("api", "Kubernetes API"),
            participant("c0", "<script>alert(1)</script> & co"),
        ],
        steps: vec![Step::Message(Message {
            from: 0,
            to: 1,
            kind: MessageKind::Informer,
            label: "Watch <img src=x onerror=alert(1)> & \"more\"".into(),
            link: "javascript:alert(1)".into(),
            source: "a&b.go:1".into(),
            group: None,
        })],
    };
    let svg = render(&d);
    assert!(!svg.contains("<script"), "{svg}");
    assert!(!svg.contains("<img"), "{svg}");
    assert!(!svg.contains("javascript:"), "{svg}");
    assert!(
        svg.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"),
        "{svg}"
    );
    assert!(
            svg.contains(
                "<title>Watch &lt;img src=x onerror=alert(1)&gt; &amp; &quot;more&quot; (a&amp;b.go:1)</title>"
            ),
            "{svg}"
        );
    // The informer arrow is drawn in the dashed class.
    assert!(svg.contains("<g class=\"msg informer\">"), "{svg}");
}

/// A watch message from the API (participant 0) to participant `to`, the `i`-th.
fn watch(to: usize, i: usize) -> Step {
    Step::Message(Message {
        from: 0,
        to,
        kind: MessageKind::Watch,
        label: format!("Watch example.io/v1 Kind{i}"),
        link: "/x/".into(),
        source: String::new(),
        group: None,
    })
}

#[test]
fn a_hundred_messages_stack_top_to_bottom() {
    let steps: Vec<Step> = (0..100).map(|i| watch(1, i)).collect();
    let d = Diagram {
        title: "t".into(),
        participants: vec![participant("api", "API"), participant("c0", "c")],
        steps,
    };
    let svg = render(&d);
    assert_eq!(svg.matches("<g class=\"msg watch\">").count(), 100);
    // Names repeated before messages 16, 32, 48, 64, 80 and 96: one row each.
    assert_eq!(svg.matches("class=\"label lifeline-name\"").count(), 6 * 2);
    let expected_height = MARGIN + BOX_H + 20 + (100 + 6) * STEP + 6 + BOX_H + MARGIN;
    assert!(
        svg.contains(&format!("height=\"{expected_height}\"")),
        "{}",
        &svg[..300]
    );
}

#[test]
fn many_participants_repeat_only_the_names_their_band_joins() {
    // 300 controllers, four messages each with the API: before, every repeat named all
    // 300 lines (quadratic); now a repeat names the lines of the next 16 messages.
    let n = 300;
    let mut participants = vec![participant("api", "API")];
    participants.extend((0..n).map(|i| participant(&format!("c{i}"), &format!("c{i}"))));
    let steps = (0..n * 4).map(|i| watch(1 + i / 4, i)).collect();
    let d = Diagram {
        title: "t".into(),
        participants,
        steps,
    };
    let svg = render(&d);
    let repeats = n * 4 / NAMES_EVERY - 1;
    let names = svg.matches("class=\"label lifeline-name\"").count();
    // The API and the 4 controllers of each band of 16 messages.
    assert_eq!(names, repeats * 5, "{names} repeated names");
}
