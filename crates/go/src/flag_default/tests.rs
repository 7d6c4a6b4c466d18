use super::*;

#[test]
fn durations_print_as_go_does() {
    let s = 1_000_000_000i64;
    let cases = [
        (0, "0s"),
        (15 * s, "15s"),
        (120 * s, "2m0s"),
        (3600 * s, "1h0m0s"),
        (90 * s, "1m30s"),
        (500_000_000, "500ms"),
        (1_500, "1.5µs"),
        (7, "7ns"),
        (1_500_000_000, "1.5s"),
        (-90 * s, "-1m30s"),
        (26 * 3600 * s + 3 * s, "26h0m3s"),
        (1_000_001, "1.000001ms"),
    ];
    for (d, want) in cases {
        assert_eq!(go_duration(d), want, "{d}");
    }
}

#[test]
fn floats_print_as_strconv_g_shortest() {
    let cases = [
        (0.5, "0.5"),
        (20.0, "20"),
        (100000.0, "100000"),
        (1_000_000.0, "1e+06"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.25e21, "1.25e+21"),
        (123456789.0, "1.23456789e+08"),
        (-2.5, "-2.5"),
        (0.0, "0"),
    ];
    for (f, want) in cases {
        assert_eq!(go_float(f, false), want, "{f}");
    }
    assert_eq!(go_float(0.1, true), "0.1");
}

#[test]
fn numeric_formats_follow_the_flag_type() {
    assert_eq!(format("int", Num::Int(-1)).as_deref(), Some("-1"));
    assert_eq!(format("uint", Num::Int(-1)), None);
    assert_eq!(format("float64", Num::Int(20)).as_deref(), Some("20"));
    assert_eq!(format("duration", Num::Int(5)).as_deref(), Some("5ns"));
    assert_eq!(format("string", Num::Int(5)), None);
    assert_eq!(format("int", Num::Float(1.5)), None);
}

#[test]
fn slices_print_in_brackets_and_csv_quoting_follows_go_csv() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(format_slice("stringSlice", &[]), "[]");
    assert_eq!(format_slice("stringSlice", &s(&["a", "b"])), "[a,b]");
    assert_eq!(format_slice("intSlice", &s(&["1", "2"])), "[1,2]");
    assert_eq!(
        format_slice("stringSlice", &s(&["a,b", "c"])),
        r#"["a,b",c]"#
    );
    assert_eq!(
        format_slice("stringArray", &s(&["say \"hi\""])),
        r#"["say ""hi"""]"#
    );
    assert_eq!(
        format_slice("stringSlice", &s(&[" pad", ""])),
        r#"[" pad",]"#
    );
    assert_eq!(slice_element("durationSlice"), Some("duration"));
    assert_eq!(slice_element("stringArray"), Some("string"));
}

#[test]
fn integer_literals_in_every_base() {
    assert_eq!(parse_int("0x1F"), Some(31));
    assert_eq!(parse_int("0o17"), Some(15));
    assert_eq!(parse_int("017"), Some(15));
    assert_eq!(parse_int("0b101"), Some(5));
    assert_eq!(parse_int("1_000"), Some(1000));
    assert_eq!(parse_int("0"), Some(0));
}

#[test]
fn postfix_evaluation_with_constants() {
    use NumTok::*;
    let toks = vec![
        Ref(Some("pkg".into()), "QPS".into()),
        ToFloat,
        Int(2),
        Op("*".into()),
    ];
    let mut lookup =
        |q: Option<&str>, n: &str| (q == Some("pkg") && n == "QPS").then_some(Num::Int(5));
    assert_eq!(eval(&toks, &mut lookup), Some(Num::Float(10.0)));
    let mut none = |_: Option<&str>, _: &str| None;
    assert_eq!(eval(&[Int(1), Int(0), Op("/".into())], &mut none), None);
    assert_eq!(
        eval(&[Int(1), Int(20), Op("<<".into())], &mut none),
        Some(Num::Int(1 << 20))
    );
    assert_eq!(eval(&[Op("+".into())], &mut none), None);
}
