//! Unit tests of `server` (a file of their own in its folder).

use super::*;
use crate::board::Position;
use crate::hub::protocol::parse_hub_move;
use std::time::Instant;

/// Output shared with the test while the engine writes it.
#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Out {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    /// Waits (up to 20 s) until the output has `n` lines starting with `prefix`.
    fn wait_for(&self, prefix: &str, n: usize) -> String {
        let t = Instant::now();
        loop {
            let text = self.text();
            if text.lines().filter(|l| l.starts_with(prefix)).count() >= n {
                return text;
            }
            assert!(t.elapsed() < Duration::from_secs(20), "no {prefix}: {text}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn serves_in_process_over_a_pipe_with_any_evaluator() {
    let (r, mut w) = std::io::pipe().unwrap();
    let out = Out::default();
    let engine_out = out.clone();
    let server = std::thread::spawn(move || {
        let load = |spec: &str| match Evaluator::yardstick(spec) {
            Some(e) => Ok((e, None)),
            None => Err(format!("not a yardstick: {spec}")),
        };
        let options = HubEngineOptions {
            weights: "hand".into(),
            ..HubEngineOptions::default()
        };
        serve_hub(std::io::BufReader::new(r), engine_out, options, &load)
    });
    writeln!(w, "hub\ninit\nset-param name=weights value=nope").unwrap();
    let text = out.wait_for("error", 1);
    assert!(
        text.contains("param name=weights value=hand type=string"),
        "{text}"
    );
    assert!(text.contains("ready"), "{text}");
    assert!(text.contains("not a yardstick: nope"), "{text}");
    writeln!(
        w,
        "set-param name=weights value=classic\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
    )
    .unwrap();
    writeln!(w, "level depth=3\ngo think").unwrap();
    let text = out.wait_for("done", 1);
    let done = text.lines().find(|l| l.starts_with("done")).unwrap();
    let m = HubLine::parse(done)
        .unwrap()
        .get("move")
        .unwrap()
        .to_string();
    assert!(parse_hub_move(&Position::start(), &m).is_ok(), "{m}");
    // The end of input ends it.
    drop(w);
    server.join().unwrap().unwrap();
    // Loading the starting weights fails: an error, nothing served.
    let load = |_: &str| Err("no evaluator".to_string());
    let e = serve_hub(
        std::io::empty(),
        Vec::new(),
        HubEngineOptions::default(),
        &load,
    );
    assert_eq!(e.unwrap_err().to_string(), "no evaluator");
}

#[test]
fn tunable_weights_are_those_of_the_linear_sets_and_clash_with_no_other_parameter() {
    use crate::eval::{material, Weights};
    let fixed: Vec<String> = {
        let load = |_: &str| Ok((Evaluator::Hand, None));
        let out = Out::default();
        serve_hub(
            std::io::Cursor::new("hub\n"),
            out.clone(),
            HubEngineOptions::default(),
            &load,
        )
        .unwrap();
        out.text()
            .lines()
            .filter_map(|l| HubLine::parse(l).ok())
            .filter(|l| l.command == "param")
            .map(|l| l.get("name").unwrap().to_string())
            .collect()
    };
    assert_eq!(fixed.len(), 6, "{fixed:?}");
    for set in [ParamSet::Thesis60, ParamSet::Endgame66] {
        let eval = Evaluator::from(material().widen(set).unwrap());
        let params = tunable_params(&eval).unwrap();
        assert_eq!(params.len(), set.len());
        for p in params {
            assert!(!fixed.iter().any(|f| f == p.name), "{}", p.name);
            assert!(p.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
    }
    for (eval, says) in [
        (Evaluator::Hand, "hand"),
        (Evaluator::Classic, "classic"),
        (Weights::zero_of(ParamSet::Phased132).into(), "phased132"),
        (Weights::zero_of(ParamSet::Net66(2)).into(), "net66:2"),
    ] {
        let e = tunable_params(&eval).unwrap_err();
        assert!(e.0.contains(says), "{e:?}");
        let e = e.to_string();
        assert!(e.contains(says) && e.contains("linear"), "{e}");
        // serve_hub refuses it before serving.
        let load = move |_: &str| Ok((eval, None));
        let options = HubEngineOptions {
            tunable: true,
            ..HubEngineOptions::default()
        };
        let e = serve_hub(std::io::empty(), Vec::new(), options, &load).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}

/// Serves `options` (material's weights, or the `classic` yardstick) on `script`, waiting for
/// `dones` `done` lines before the input ends; the output.
fn serve_script(options: HubEngineOptions, script: &str, dones: usize) -> String {
    let (r, mut w) = std::io::pipe().unwrap();
    let out = Out::default();
    let engine_out = out.clone();
    let server = std::thread::spawn(move || {
        let load = |spec: &str| match spec {
            "classic" => Ok((Evaluator::Classic, None)),
            _ => Ok((Evaluator::from(crate::eval::material()), Some(100.0))),
        };
        serve_hub(std::io::BufReader::new(r), engine_out, options, &load)
    });
    write!(w, "{script}").unwrap();
    let text = out.wait_for("done", dones);
    drop(w);
    server.join().unwrap().unwrap();
    text
}

/// The `param` lines of an output, by name.
fn declared_params(text: &str) -> Vec<HubLine> {
    text.lines()
        .filter_map(|l| HubLine::parse(l).ok())
        .filter(|l| l.command == "param")
        .collect()
}

/// The nodes and move of the last `info` and `done` lines.
fn nodes_and_move(text: &str) -> (u64, String) {
    let last = |c: &str| {
        let l = text.lines().rev().find(|l| l.starts_with(c)).unwrap();
        HubLine::parse(l).unwrap()
    };
    let nodes = last("info").get("nodes").unwrap().parse().unwrap();
    (nodes, last("done").get("move").unwrap().to_string())
}

#[test]
fn tunable_search_declares_the_search_constants_and_every_level_uses_their_values() {
    use crate::search::{SearchParams, MAX_TT_LOG2};
    let start = Position::start();
    let script = |sets: &str| {
        format!(
            "hub\nset-param name=tie-break value=first\n{sets}pos pos={}\nlevel depth=6\ngo think\n",
            crate::hub::protocol::hub_position(&start)
        )
    };
    // In process: the same search with `params` (None: a searcher given none).
    let ours = |params: Option<SearchParams>| {
        let config = SearchConfig {
            depth: 6,
            tt_log2: HubEngineOptions::default().hash.min(MAX_TT_LOG2),
            ..SearchConfig::default()
        };
        let mut s = Searcher::new(crate::eval::material(), config);
        s.set_params(params);
        s.set_man_value(Some(100));
        s.set_first_ties(true);
        let r = s.choose(&start, &mut derive(1, Purpose::Game, 0, 0));
        let m = r.best.unwrap();
        (r.nodes, crate::hub::protocol::hub_move(&start, &m))
    };
    let tuned = HubEngineOptions {
        weights: "material".into(),
        tunable_search: true,
        ..HubEngineOptions::default()
    };
    // Declared at the defaults, each with its range, after the six settings.
    let text = serve_script(tuned.clone(), &script(""), 1);
    let params = declared_params(&text);
    let specs = SearchParams::DEFAULT.declared();
    assert_eq!(params.len(), 6 + specs.len(), "{text}");
    for (line, spec) in params[6..].iter().zip(specs) {
        assert_eq!(line.get("name"), Some(spec.name), "{text}");
        assert_eq!(line.get("type"), Some("int"));
        let value: i64 = line.get("value").unwrap().parse().unwrap();
        let min: i64 = line.get("min").unwrap().parse().unwrap();
        let max: i64 = line.get("max").unwrap().parse().unwrap();
        assert_eq!((value, min, max), (spec.value, spec.min, spec.max));
    }
    // Unset, they are the defaults, at a fixed depth too.
    assert_eq!(
        nodes_and_move(&text),
        ours(Some(SearchParams::DEFAULT)),
        "{text}"
    );
    // Set (a bad value is an error line and changes nothing).
    let sets = "set-param name=lmr-reduction value=9\nset-param name=futility value=x\n\
                set-param name=lmr-reduction value=1\nset-param name=lmr-depth value=2\n\
                set-param name=futility value=120\n";
    let text = serve_script(tuned.clone(), &script(sets), 1);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 2, "{text}");
    assert!(errors[0].contains("lmr-reduction=9 must be a whole number 0..3"));
    assert!(errors[1].contains("futility=x must be a whole number 0..500"));
    let set = SearchParams {
        lmr_reduction: 1,
        lmr_depth: 2,
        futility: 120,
        ..SearchParams::DEFAULT
    };
    let got = nodes_and_move(&text);
    assert_eq!(got, ours(Some(set)), "{text}");
    // They do something: the plain search visits other nodes.
    assert_ne!(got.0, ours(Some(SearchParams::NEUTRAL)).0);
    // Without --tunable-search none is declared, setting one is ignored, and a fixed depth is
    // the plain search of a searcher given none.
    let plain = HubEngineOptions {
        tunable_search: false,
        ..tuned.clone()
    };
    let text = serve_script(plain.clone(), &script(sets), 1);
    assert_eq!(declared_params(&text).len(), 6, "{text}");
    assert!(!text.contains("error"), "{text}");
    assert_eq!(nodes_and_move(&text), ours(None), "{text}");
    assert_eq!(ours(None), ours(Some(SearchParams::NEUTRAL)));
    // --search-params: given values at every level; declared (as their start) only with
    // --tunable-search.
    let given = SearchParams {
        futility: 60,
        futility_depth: 3,
        ..SearchParams::NEUTRAL
    };
    let text = serve_script(
        HubEngineOptions {
            search_params: Some(given),
            ..plain
        },
        &script(sets),
        1,
    );
    assert_eq!(declared_params(&text).len(), 6, "{text}");
    assert_eq!(nodes_and_move(&text), ours(Some(given)), "{text}");
    let text = serve_script(
        HubEngineOptions {
            search_params: Some(SearchParams::NEUTRAL),
            ..tuned.clone()
        },
        &script(""),
        1,
    );
    let values: Vec<i64> = declared_params(&text)[6..]
        .iter()
        .map(|l| l.get("value").unwrap().parse().unwrap())
        .collect();
    let neutral: Vec<i64> = SearchParams::NEUTRAL
        .declared()
        .iter()
        .map(|p| p.value)
        .collect();
    assert_eq!(values, neutral, "{text}");
    assert_eq!(nodes_and_move(&text), ours(None), "{text}");
    // Beside the weights: both declared, no name shared.
    let both = HubEngineOptions {
        tunable: true,
        ..tuned
    };
    let text = serve_script(both, &script(""), 1);
    let names: Vec<String> = declared_params(&text)
        .iter()
        .map(|l| l.get("name").unwrap().to_string())
        .collect();
    let weights = crate::eval::material().set().len();
    assert_eq!(names.len(), 6 + specs.len() + weights, "{text}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}

/// Serves material's weights on `script`, read all at once and then the end of input; the
/// output, or a failure when the engine has not ended within 20 s.
fn serve_at_once(script: impl Into<Vec<u8>>) -> String {
    let out = Out::default();
    let engine_out = out.clone();
    let script: Vec<u8> = script.into();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let load = |_: &str| Ok((Evaluator::from(crate::eval::material()), Some(100.0)));
        let input = std::io::Cursor::new(script);
        let r = serve_hub(input, engine_out, HubEngineOptions::default(), &load);
        let _ = tx.send(r.map_err(|e| e.to_string()));
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(r) => r.unwrap(),
        Err(_) => panic!("the engine did not end: {}", out.text()),
    }
    out.text()
}

#[test]
fn quit_and_the_end_of_input_end_the_engine_whatever_it_searches() {
    let start = "hub\ninit\nnew-game\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\n";
    let dones = |t: &str| t.lines().filter(|l| l.starts_with("done")).count();
    // `quit` behind a search without end: the search is stopped (its move written when the
    // `quit` was read before the search started).
    let t = serve_at_once(format!("{start}level infinite\ngo think\nquit\n"));
    assert!(dones(&t) <= 1, "{t}");
    assert!(t.contains("ready"), "{t}");
    // The end of input behind it: the search is stopped, its move written.
    let t = serve_at_once(format!("{start}level infinite\ngo think\n"));
    assert_eq!(dones(&t), 1, "{t}");
    // A search with an end is carried out whole when the input ends behind it: a transcript
    // piped in gets its answers.
    let t = serve_at_once(format!("{start}level depth=6\ngo think\n"));
    assert!(t.contains("info depth=6 "), "{t}");
    assert_eq!(dones(&t), 1, "{t}");
    // `stop` read behind its `go`, before the search starts, still stops it: the move of a
    // stopped fixed-depth search (depth 1), at once.
    let t = serve_at_once(format!("{start}level depth=20\ngo think\nstop\n"));
    assert!(t.contains("info depth=1 "), "{t}");
    assert_eq!(dones(&t), 1, "{t}");
    // ... but not a search asked for after it.
    let t = serve_at_once(format!("{start}level depth=6\nstop\ngo think\n"));
    assert!(t.contains("info depth=6 "), "{t}");
    // `ping` behind waiting lines is answered in order: after them and the search's move.
    let t = serve_at_once(format!("{start}level depth=6\ngo think\nping\n"));
    let at = |what: &str| t.find(what).unwrap_or_else(|| panic!("no {what}: {t}"));
    assert!(at("ready") < at("done") && at("done") < at("pong"), "{t}");
    // A line that is not UTF-8 is an error, and the lines after it are answered.
    let mut script = format!("{start}level depth=1\n").into_bytes();
    script.extend_from_slice(b"\xff\xfe garbage\ngo think\nping\n");
    let t = serve_at_once(script);
    assert!(
        t.contains("error message=\"a line that is not UTF-8 text\""),
        "{t}"
    );
    assert!(t.contains("done move=") && t.contains("pong"), "{t}");
}
