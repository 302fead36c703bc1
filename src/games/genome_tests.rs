//! Unit tests of `genome` (a file of their own beside it).

use super::*;

fn t(min: i64, max: i64) -> Tuned {
    Tuned {
        name: "x".into(),
        min,
        max,
        default: min,
    }
}

#[test]
fn the_simulator_is_known_by_its_command_and_checks_its_declarations() {
    let model = SimModel::new(8, 3);
    let spec = EngineSpec::simulated(&model, 4);
    assert_eq!(
        (spec.engine.name.as_str(), spec.tuned.len()),
        ("sim:8:3", 8)
    );
    assert_eq!(spec.values(&spec.defaults()), model.defaults());
    assert_eq!(*spec.sim_model().expect("the simulator"), model);
    assert!(spec.check_unchanged().is_ok());
    // A checkpoint's simulator whose model has changed since is refused on resume.
    let mut old = spec.clone();
    old.declared[2].value = "12345".into();
    let e = old.check_unchanged().unwrap_err();
    assert!(
        matches!(&e, EngineError::ParameterChanged { was, .. } if was.name == "p3"),
        "{e:?}"
    );
    assert!(e.to_string().contains("parameter p3 changed"), "{e}");
    // An outside engine runs in a folder: never the simulator, whatever its command.
    let mut outside = spec.clone();
    outside.engine.program.dir = Some(PathBuf::from("."));
    assert!(outside.sim_model().is_none());
    let mut other = spec;
    other.engine.program.command = vec!["sim:8:3".into(), "--fast".into()];
    assert!(other.sim_model().is_none());
}

#[test]
fn genes_span_the_whole_range_and_round_trip() {
    for (min, max) in [
        (0, 10),
        (-30, 30),
        (100, 300),
        (-32768, 32767),
        (0, 1_000_000),
    ] {
        let p = t(min, max);
        assert_eq!(p.value(i16::MIN), min);
        assert_eq!(p.value(i16::MAX), max);
        for v in [min, max, (min + max) / 2, min + 1] {
            if max - min <= 65535 {
                assert_eq!(p.value(p.gene(v)), v, "{min}..{max} at {v}");
            }
        }
        let mut last = min;
        for g in (i16::MIN..=i16::MAX).step_by(97) {
            let v = p.value(g);
            assert!(v >= last && v <= max);
            last = v;
        }
    }
    assert_eq!(t(0, 10).gene(-5), i16::MIN);
    assert_eq!(t(0, 10).gene(50), i16::MAX);
}

fn declared(name: &str, kind: &str, value: &str, min: &str, max: &str) -> Declared {
    Declared {
        name: name.into(),
        kind: kind.into(),
        value: value.into(),
        min: min.into(),
        max: max.into(),
    }
}

#[test]
fn a_parameter_that_cannot_be_tuned_says_which_failure() {
    let e = tuned_of(&declared("x", "bool", "true", "", "")).unwrap_err();
    assert_eq!(
        e,
        EngineError::NotInt {
            name: "x".into(),
            kind: "bool".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "the engine's parameter x is of type bool, only int parameters are tuned"
    );
    let e = tuned_of(&declared("x", "", "", "", "")).unwrap_err();
    assert!(e
        .to_string()
        .ends_with("of type none, only int parameters are tuned"));
    let e = tuned_of(&declared("x", "int", "3", "0", "ten")).unwrap_err();
    assert!(
        matches!(&e, EngineError::NotWhole { what: "max", value, .. } if value == "ten"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "the engine's parameter x has no whole-number max ('ten')"
    );
    let e = tuned_of(&declared("x", "int", "3", "5", "5")).unwrap_err();
    assert!(
        matches!(e, EngineError::NoRange { min: 5, max: 5, .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "the engine's parameter x has min 5 and max 5: nothing to tune"
    );
    assert!(tuned_of(&declared("x", "int", "3", "0", "10")).is_ok());
}

#[test]
fn options_are_checked_against_the_declarations_by_kind_of_failure() {
    let mut spec = EngineSpec::simulated(&SimModel::new(2, 1), 1);
    spec.declared.push(declared("hash", "int", "16", "1", "64"));
    spec.tuned.truncate(1);
    let tuned = spec.tuned[0].name.clone();
    let other = spec.declared[1].name.clone();
    let with = |k: &str, v: &str| {
        let mut s = spec.clone();
        s.engine.program.options = vec![(k.into(), v.into())];
        s
    };
    let e = with(&tuned, "3").check_options(&[]).unwrap_err();
    assert!(matches!(&e, EngineError::OptionTuned { others, .. } if others.is_empty()));
    assert_eq!(
        e.to_string(),
        format!("--engine-option {tuned}=3 sets a parameter that is tuned; leave it out")
    );
    let mut two = with(&tuned, "3");
    two.tuned = EngineSpec::simulated(&SimModel::new(2, 1), 1).tuned;
    let e = two.check_options(&[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "--engine-option {tuned}=3 sets a parameter that is tuned; to keep it fixed, \
             tune the others: --tune {other}"
        )
    );
    let e = with("size", "3").check_options(&[]).unwrap_err();
    assert!(
        matches!(&e, EngineError::Option(OptionsError::Unknown { name, .. }) if name == "size")
    );
    assert_eq!(
        e.to_string(),
        format!(
            "--engine-option size=3: the engine declares no parameter 'size' (its \
             parameters: {tuned}, {other}, hash)"
        )
    );
    let e = with("hash", "65").check_options(&[]).unwrap_err();
    assert!(
        matches!(e, EngineError::Option(OptionsError::Misfit { .. })),
        "{e:?}"
    );
    assert!(e
        .to_string()
        .starts_with("--engine-option hash=65: 65 is outside"));
    assert!(with("hash", "8").check_options(&[]).is_ok());
    let e = with("hash", "8")
        .check_options(&["no hash".into()])
        .unwrap_err();
    assert!(
        matches!(e, EngineError::Option(OptionsError::Refused { .. })),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "--engine-option hash=8: the engine refused: no hash"
    );
}

#[test]
fn a_probe_says_which_failure() {
    let probe = |command: &str, tune: &[&str]| {
        let tune: Vec<String> = tune.iter().map(|t| t.to_string()).collect();
        let engine = OutsideEngine {
            name: String::new(),
            program: Program::new(vec![command.into()]),
            depth: Some(1),
            move_timeout: Duration::from_secs(5),
        };
        EngineSpec::probe(engine, &tune)
    };
    assert_eq!(probe("sim:2", &["p1"]).unwrap().tuned.len(), 1);
    let e = probe("sim:2", &["queen"]).unwrap_err();
    assert!(matches!(&e, EngineError::UnknownParameter { name, .. } if name == "queen"));
    assert_eq!(
        e.to_string(),
        "the engine declares no parameter 'queen' (its int parameters: p1, p2)"
    );
    let e = probe("sim:2", &["p1", "p1"]).unwrap_err();
    assert_eq!(e, EngineError::TunedTwice("p1".into()));
    assert_eq!(e.to_string(), "--tune names 'p1' twice");
    let missing = "./no-such-engine-of-checkers-ga";
    let e = probe(missing, &[]).unwrap_err();
    assert!(
        matches!(&e, EngineError::CannotStart { command, .. } if command == missing),
        "{e:?}"
    );
    assert!(e
        .to_string()
        .starts_with(&format!("the engine '{missing}' could not be used: ")));
}

#[test]
fn a_changed_engine_says_what_changed() {
    let spec = EngineSpec::simulated(&SimModel::new(3, 1), 2);
    let mut renamed = spec.clone();
    renamed.engine.name = "old".into();
    let e = renamed.check_unchanged().unwrap_err();
    assert!(matches!(&e, EngineError::Renamed { was, .. } if was == "old"));
    assert_eq!(
        e.to_string(),
        "the engine now calls itself 'sim:3:1', the session's was 'old'"
    );
    let mut more = spec.clone();
    more.declared.push(declared("gone", "int", "1", "0", "2"));
    let e = more.check_unchanged().unwrap_err();
    assert_eq!(e, EngineError::ParameterGone("gone".into()));
    assert_eq!(
        e.to_string(),
        "the engine no longer declares the parameter gone"
    );
    let mut fewer = spec.clone();
    let last = fewer.declared.pop().unwrap();
    let e = fewer.check_unchanged().unwrap_err();
    assert_eq!(e, EngineError::ParameterNew(Box::new(last.clone())));
    assert_eq!(
        e.to_string(),
        format!("the engine declares a new parameter {last}")
    );
    let mut changed = spec;
    changed.declared[0].max = "7".into();
    let e = changed.check_unchanged().unwrap_err();
    assert!(matches!(e, EngineError::ParameterChanged { .. }), "{e:?}");
    assert!(e
        .to_string()
        .starts_with("the engine's parameter p1 changed: it was p1 (type int"));
}
