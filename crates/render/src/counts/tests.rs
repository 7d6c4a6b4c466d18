use super::*;

#[test]
fn own_rows_first_then_what_is_listed_apart() {
    let c = Counts {
        own: Rows {
            services: 6,
            webhooks: 45,
            configmaps: 1,
            ..Rows::default()
        },
        samples: Rows {
            services: 10,
            configmaps: 7,
            webhooks: 2,
            ..Rows::default()
        },
        bundled: Rows {
            webhooks: 1,
            ..Rows::default()
        },
        ..Counts::default()
    };
    let items = items(&c, Detail::Card);
    let find = |t: &str| items.iter().find(|i| i.text == t).unwrap();
    assert_eq!(find("6 Services").apart, "+10 in samples");
    assert_eq!(find("1 ConfigMap").apart, "+7 in samples");
    let w = find("45 webhooks");
    assert_eq!(w.apart, "+2 in samples, +1 bundled");
    assert_eq!(
        w.title,
        "Listed apart on the project's pages: 2 more under \u{201c}Samples and tooling\u{201d} (tests, docs, examples, tooling); 1 more under \u{201c}Bundled\u{201d} (another project's manifests shipped with this one)."
    );
    let none = find("0 controllers");
    assert_eq!((none.apart.as_str(), none.title.as_str()), ("", ""));
    // A card shows the headline counts; the overview every count.
    assert_eq!(items.len(), 7);
    assert_eq!(super::items(&c, Detail::Full).len(), 14);
    assert!(any(&c.samples) && !any(&Rows::default()));
}
