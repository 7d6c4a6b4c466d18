use super::*;

fn bar(group: &str, label: &str, value: u64) -> Bar {
    Bar {
        group: group.into(),
        label: label.into(),
        value,
        link: String::new(),
    }
}

#[test]
fn geometry_of_a_small_chart() {
    let c = BarChart {
        id: "c".into(),
        title: "T".into(),
        description: "D".into(),
        bars: vec![bar("p", "a", 4), bar("p", "b", 2), bar("q", "c", 0)],
    };
    let svg = render(&c);
    // Heading p at 8; bar a: label at 30+12, rect at 46 with the full span (360 - 16 -
    // 56 = 288); bar b half of it at 84; heading q at 106; bar c empty at 144.
    assert_eq!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"group\" aria-labelledby=\"c-title c-desc\" viewBox=\"0 0 360 166\" font-size=\"13\"><title id=\"c-title\">T</title><desc id=\"c-desc\">D</desc>\
<text x=\"8\" y=\"23\" class=\"heading\">p</text>\
<g class=\"bar-row\"><title>a: 4</title><text x=\"8\" y=\"42\">a</text><rect class=\"bar\" x=\"8\" y=\"46\" width=\"288\" height=\"14\"/><text x=\"302\" y=\"57\" class=\"value\">4</text></g>\
<g class=\"bar-row\"><title>b: 2</title><text x=\"8\" y=\"80\">b</text><rect class=\"bar\" x=\"8\" y=\"84\" width=\"144\" height=\"14\"/><text x=\"158\" y=\"95\" class=\"value\">2</text></g>\
<text x=\"8\" y=\"121\" class=\"heading\">q</text>\
<g class=\"bar-row\"><title>c: 0</title><text x=\"8\" y=\"140\">c</text><rect class=\"bar\" x=\"8\" y=\"144\" width=\"0\" height=\"14\"/><text x=\"14\" y=\"155\" class=\"value\">0</text></g></svg>"
    );
}

#[test]
fn labels_are_escaped_and_links_filtered() {
    let c = BarChart {
        id: "x\"><script>".into(),
        title: "<b>".into(),
        description: "&".into(),
        bars: vec![Bar {
            group: "<g>".into(),
            label: "a<script>alert(1)</script>".into(),
            value: u64::MAX,
            link: "javascript:alert(1)".into(),
        }],
    };
    let svg = render(&c);
    assert!(!svg.contains("<script>"), "{svg}");
    assert!(!svg.contains("javascript:"), "{svg}");
    assert!(svg.contains("&lt;b&gt;") && svg.contains("&amp;"));
    // The largest value still fits the span.
    assert!(svg.contains("width=\"288\""), "{svg}");
    let empty = render(&BarChart {
        id: "e".into(),
        title: "E".into(),
        description: String::new(),
        bars: vec![],
    });
    assert!(empty.contains("viewBox=\"0 0 360 8\""), "{empty}");
}
