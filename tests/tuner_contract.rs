//! Every tuner's session held to one contract (`SessionTuner`): its state is the bytes of the
//! files its folder holds after a step (`encode`), read back by `decode` to a state that asks
//! for the same games and gives the same answer; and a run stopped after its first step and
//! resumed from disk on another thread count ends where a run never stopped ends. The GA on our
//! weights (with its fit), the mean on an engine, and every registered one-file tuner (SPSA,
//! CMA-ES) on the tuning simulator's engine.

use checkers_ga::store::{one_file_tuners, Start, StateFiles};
use checkers_ga::{EngineSpec, GaState, NewSession, Observer, Overrides, SessionEnd};
use checkers_ga::{SessionOptions, SessionRun, SessionTuner, Silent, SimModel, Tuner};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Stops the run once its first step's checkpoint is written.
struct StopAfterOne<'a>(&'a AtomicBool);

impl<T: Tuner> Observer<T> for StopAfterOne<'_> {
    fn checkpoint_written(&mut self, _: &Path, _: &T) {
        self.0.store(true, Ordering::SeqCst);
    }
}

fn fresh_root(tag: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("ckga-contract-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    root
}

/// Each of `files` as its folder `dir` holds it now.
fn on_disk(files: &StateFiles, dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    (files.iter())
        .map(|(p, _)| (p.to_path_buf(), std::fs::read(dir.join(p)).ok()))
        .collect()
}

fn in_memory(files: &StateFiles) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    (files.iter())
        .map(|(p, b)| (p.to_path_buf(), Some(b.to_vec())))
        .collect()
}

/// A session of `T` started by `start(root, threads)` (named "s" under `root`) and resumed by
/// `resume(checkpoint, root, threads)`, held to the contract; `same_end` compares the files of
/// the stopped-and-resumed run's end with the uninterrupted run's.
fn held_to_the_contract<T: SessionTuner>(
    tag: &str,
    start: impl Fn(&Path, usize) -> SessionRun<T>,
    resume: impl Fn(&Path, &Path, usize) -> SessionRun<T>,
    same_end: impl Fn(&StateFiles, &StateFiles),
) {
    let never = AtomicBool::new(false);
    let (whole_root, part_root) = (fresh_root(&format!("{tag}-whole")), fresh_root(tag));
    let mut whole = start(&whole_root, 1);
    assert_eq!(
        whole.run(&mut Silent, &never).unwrap().end,
        SessionEnd::Finished
    );
    let whole_files = whole.state_files().unwrap();
    assert_eq!(
        on_disk(&whole_files, &whole.dir),
        in_memory(&whole_files),
        "{tag}: the end's files"
    );

    let stop = AtomicBool::new(false);
    let mut part = start(&part_root, 2);
    let first = part.run(&mut StopAfterOne(&stop), &stop).unwrap();
    assert_eq!(
        (first.end, first.steps_done),
        (SessionEnd::Stopped, 1),
        "{tag}"
    );
    let files = part.state_files().unwrap();
    // What the run left in its folder is the state's encoding, byte for byte.
    assert_eq!(
        on_disk(&files, &part.dir),
        in_memory(&files),
        "{tag}: a step's files"
    );
    assert_eq!(
        files.checkpoint().0,
        Path::new(first.checkpoint.file_name().unwrap())
    );

    // Read back, from the bytes and from the folder, it is the state that was written.
    let names: Vec<&str> = (files.iter().skip(1))
        .map(|(p, _)| p.to_str().unwrap())
        .collect();
    let read = StateFiles::read(&first.checkpoint, &names).unwrap();
    for decoded in [T::decode(&files).unwrap(), T::decode(&read).unwrap()] {
        assert_eq!(decoded.name, part.name(), "{tag}");
        let again = decoded.state.encode(&decoded.name, decoded.out.as_deref());
        assert!(
            again.unwrap() == files,
            "{tag}: read back, it encodes to the same files"
        );
        assert_eq!(
            decoded.state.answer(),
            part.state.answer(),
            "{tag}: the answer"
        );
        assert_eq!(
            decoded.state.games(),
            part.state.games(),
            "{tag}: the games"
        );
        assert!(decoded.state.ask().is_some(), "{tag}: a step is left");
        assert_eq!(
            decoded.state.ask(),
            part.state.ask(),
            "{tag}: the next games"
        );
    }
    drop(part);

    // Resumed on one thread, it ends where the run never stopped ended.
    let mut rest = resume(&first.checkpoint, &part_root, 1);
    assert_eq!(
        rest.run(&mut Silent, &never).unwrap().end,
        SessionEnd::Finished
    );
    assert_eq!(
        rest.state.answer(),
        whole.state.answer(),
        "{tag}: the answer at the end"
    );
    same_end(&rest.state_files().unwrap(), &whole_files);
    drop((rest, whole));
    let _ = std::fs::remove_dir_all(whole_root);
    let _ = std::fs::remove_dir_all(part_root);
}

/// A GA session's state as its files hold it, but for the wall-clock times it keeps (the
/// session's and each generation's), which no two runs share.
fn timeless(files: &StateFiles) -> GaState {
    let mut s = GaState::decode(files).unwrap().state;
    s.elapsed = 0.0;
    for h in s.history.iter_mut() {
        h.seconds = 0.0;
    }
    s
}

fn ga_case(tag: &str, session: NewSession) {
    let options = |root: &Path, threads| SessionOptions {
        populations: root.to_path_buf(),
        threads,
        ..SessionOptions::default()
    };
    held_to_the_contract(
        tag,
        |root, threads| SessionRun::start(session.clone(), options(root, threads)).unwrap(),
        |_, root, threads| {
            SessionRun::resume(Some("s"), &Overrides::default(), options(root, threads)).unwrap()
        },
        |a, b| assert_eq!(timeless(a), timeless(b), "{tag}: the session at the end"),
    );
}

#[test]
fn the_gas_session_on_our_weights_with_its_fit() {
    let session = NewSession {
        name: Some("s".into()),
        seed: Some(7),
        settings: Overrides {
            population: Some(4),
            depth: Some(1),
            generations: Some(3),
            duel_games: Some(2),
            measure_every: Some(2),
            measure_games: Some(4),
            fit_every: Some(1),
            ..Overrides::default()
        },
        ..NewSession::default()
    };
    ga_case("ga", session);
}

#[test]
fn the_means_session_on_an_engine() {
    let spec = EngineSpec::simulated(&SimModel::new(4, 3), 1);
    let session = NewSession {
        name: Some("s".into()),
        seed: Some(5),
        settings: Overrides {
            games_budget: Some(96),
            ..Overrides::default()
        },
        engine: Some(spec),
        ..NewSession::default()
    };
    ga_case("mean", session.clone());
    let settings = session.settings_with(5).unwrap();
    assert!(
        settings.ga.method.mean().is_some(),
        "an engine's GA is the mean"
    );
}

#[test]
fn every_registered_one_file_tuners_session() {
    let spec = EngineSpec::simulated(&SimModel::new(4, 3), 1);
    let mut held = Vec::new();
    for kind in one_file_tuners() {
        let Some(start) = kind.start else { continue };
        let state = || start(&spec, &Start::defaults(kind, 11, 160)).unwrap();
        held_to_the_contract(
            kind.name,
            |root, threads| {
                SessionRun::start_tuner(Some("s".into()), 11, root, state(), None, threads).unwrap()
            },
            |checkpoint, _, threads| SessionRun::resume_tuner(checkpoint, threads).unwrap(),
            |a, b| assert!(a == b, "{}: the checkpoint at the end", kind.name),
        );
        held.push(kind.name);
    }
    assert!(
        held.contains(&"spsa") && held.contains(&"cmaes"),
        "{held:?}"
    );
}
