use super::*;

fn node(id: &str, layer: usize) -> Node {
    Node {
        id: id.into(),
        layer,
        class: "n".into(),
        label: id.into(),
        link: format!("/s/{id}/"),
        sub: String::new(),
        items: vec![],
    }
}

fn edge(from: &str, to: &str) -> Edge {
    Edge {
        from: from.into(),
        to: to.into(),
        label: format!("{from} → {to}"),
    }
}

#[test]
fn nodes_follow_their_predecessors() {
    // b's successor is listed first but is drawn below a's.
    let g = Graph {
        title: "t".into(),
        columns: vec![],
        nodes: vec![
            node("a", 0),
            node("b", 0),
            node("from-b", 1),
            node("from-a", 1),
        ],
        edges: vec![edge("a", "from-a"), edge("b", "from-b")],
    };
    let (boxes, _, _) = layout(&g);
    assert!(boxes[3].1 < boxes[2].1, "{boxes:?}");
    assert_eq!(boxes[0], (MARGIN, MARGIN, MIN_W, LINE + 14));
    assert_eq!(boxes[3].0, MARGIN + MIN_W + GAP_X);
}

#[test]
fn labels_and_links_are_escaped() {
    let mut n = node("x", 0);
    n.label = "<script>alert(1)</script>".into();
    n.link = "javascript:alert(1)".into();
    n.items.push(Item {
        text: "a & b".into(),
        link: "/ok/".into(),
        detail: "\"quoted\"".into(),
    });
    let svg = render(&Graph {
        title: "t".into(),
        columns: vec![],
        nodes: vec![n],
        edges: vec![],
    });
    assert!(!svg.contains("<script"), "{svg}");
    assert!(!svg.contains("javascript"), "{svg}");
    assert!(
        svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{svg}"
    );
    assert!(
            svg.contains("<a href=\"/ok/\"><text x=\"28\" y=\"50\" class=\"item\"><title>a &amp; b: &quot;quoted&quot;</title>a &amp; b</text></a>"),
            "{svg}"
        );
}
