use super::*;

#[test]
fn shards_split_by_letter_until_small() {
    let big = "x".repeat(SHARD_BYTES / 2);
    let entries: Vec<(String, String)> = ["a", "ab", "abc", "abd", "b", "=ab"]
        .iter()
        .map(|k| (k.to_string(), format!("\"{k}\":[{big}]")))
        .collect();
    let mut sorted = entries.clone();
    sorted.sort();
    let shards = layout(&sorted);
    let keys: Vec<(&str, Vec<&str>)> = shards
        .iter()
        .map(|(k, m)| {
            (
                k.as_str(),
                m.iter().map(|&i| sorted[i].0.as_str()).collect(),
            )
        })
        .collect();
    // "a…" is too big: "a" keeps the term "a", "ab" keeps "ab" and the kind "=ab",
    // and its longer terms go one letter deeper.
    assert_eq!(
        keys,
        [
            ("a", vec!["a"]),
            ("ab", vec!["=ab", "ab"]),
            ("abc", vec!["abc"]),
            ("abd", vec!["abd"]),
            ("b", vec!["b"]),
        ]
    );
}

/// What search.js's `expandChunk` does, for the test below.
fn expand(chunk: &Value) -> Vec<[String; 5]> {
    let shared = |previous: &str, v: &Value| match v {
        Value::String(s) => s.clone(),
        v => {
            let units: Vec<u16> = previous.encode_utf16().collect();
            let n = v[0].as_u64().unwrap() as usize;
            String::from_utf16(&units[..n]).unwrap() + v[1].as_str().unwrap()
        }
    };
    let (mut title, mut anchor) = (String::new(), String::new());
    let mut out = Vec::new();
    for d in chunk["d"].as_array().unwrap() {
        title = shared(&title, &d[0]);
        anchor = shared(&anchor, &d[2]);
        let page = &chunk["p"][d[1].as_u64().unwrap() as usize];
        let url = page[0].as_str().unwrap().to_string();
        let url = if anchor.is_empty() {
            url
        } else {
            format!("{url}#{anchor}")
        };
        out.push([
            title.clone(),
            url,
            page[1].as_str().unwrap().into(),
            chunk["c"][d[3].as_u64().unwrap() as usize]
                .as_str()
                .unwrap()
                .into(),
            d[4].as_str().unwrap().into(),
        ]);
    }
    out
}

#[test]
fn a_chunk_writes_shared_beginnings_once_and_reads_back_whole() {
    let doc = |title: &str, url: &str, context: &str| Shown {
        title: title.into(),
        url: url.into(),
        page: "Gizmo".into(),
        context: context.into(),
        snippet: "name · string".into(),
    };
    let docs = [
        doc("Gizmo", "kinds/Gizmo/", ""),
        doc(
            "spec.größe.width",
            "kinds/Gizmo/#field-spec-größe-width",
            "v1",
        ),
        doc(
            "spec.größe.height",
            "kinds/Gizmo/#field-spec-größe-height",
            "v1",
        ),
        doc("spec.x", "kinds/Gizmo/#field-spec-x", "v1"),
        doc("status", "other/#status", "v2"),
    ];
    let chunk: Value = serde_json::from_str(&chunk_json(&docs)).unwrap();
    // The third document shares "spec.größe." (11 UTF-16 units) and
    // "field-spec-größe-" (17) with the second; the fourth too little.
    assert_eq!(chunk["d"][2][0], json!([11, "height"]));
    assert_eq!(chunk["d"][2][2], json!([17, "height"]));
    assert_eq!(chunk["d"][3][0], json!("spec.x"));
    assert_eq!(chunk["c"], json!(["", "v1", "v2"]));
    assert_eq!(chunk["p"].as_array().unwrap().len(), 2);
    let read: Vec<[String; 5]> = docs
        .iter()
        .map(|d| [&d.title, &d.url, &d.page, &d.context, &d.snippet].map(|s| s.to_string()))
        .collect();
    assert_eq!(expand(&chunk), read);
}

#[test]
fn runs_count_repeated_values() {
    let mut runs = Vec::new();
    for v in [0, 0, 1, 0] {
        extend_run(&mut runs, v);
    }
    assert_eq!(runs, [[0, 2], [1, 1], [0, 1]]);
}

#[test]
fn varints_are_five_bit_groups_lowest_first() {
    // 0 → A; 31 → f (the last one-character value); 32 → g (0 + 32, more follows) B (1);
    // 1482 = 0b1_01110_01010 → groups 10, 14, 1: q (42), u (46), B.
    assert_eq!(varints([0, 31, 32, 1482].into_iter()), "AfgBquB");
    assert_eq!(varints([u64::from(u32::MAX)].into_iter()), "______D");
    assert_eq!(
        entry_json("pod", &Entry::Scored(2, vec![(3, 1.5), (40, 0.254)])),
        // Ids 3 and 40 (a delta of 37: l B), scores 150 (2 E) and 25 (Z).
        r#""pod":[2,"D2ElBZ"]"#
    );
    assert_eq!(
        entry_json("=pod", &Entry::Ids(vec![3, 40])),
        r#""=pod":"DlB""#
    );
}
