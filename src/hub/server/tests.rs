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
