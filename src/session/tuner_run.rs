//! The sessions of a tuner of an outside engine whose state is one checkpoint file (SPSA's
//! `spsa.ckpt`, any registered tuner's [`crate::store::OneFileKind::file`]): how one is started ([`SessionRun::start_tuner`]) or
//! resumed ([`SessionRun::resume_tuner`]) and how its folder keeps its files; the run is every
//! tuner's ([`SessionRun`]). Its folder (`populations/NAME/`) is locked while it runs
//! ([`crate::lock`]) and holds its checkpoint, written at the start and again after every
//! whole step; a step cut short by a stop is abandoned ([`crate::Tuner::abandon`]), and a
//! resume continues from the last whole one as a run that never stopped. Its answer is `best.json` in its folder, written when
//! a run ends however it ends (but for a step lost wholly on time), in the format of an engine session's best file (an engine
//! parameter file: `show`, `export` and `match` read it), and also to the `--out` file the
//! session names, if any.
//!
//! What is a tuner's own, its [`crate::store::FileTuner`] says (its checkpoint's file and
//! format, its engine, its budget, its answer's comment, how a step reads in a progress line);
//! the session runs any of them as one type, [`AnyTuner`].

use super::best::{write_answer_file, BEST_FILE};
use super::folder;
use super::pace::RunCost;
use super::progress::{SessionProgress, ShowsProgress, StepReport};
use super::run::{SessionRun, SessionTuner};
use super::steps::{Keeper, SessionEnd, Steps, Told};
use super::{default_name, SessionError};
use crate::files::folder_of;
use crate::genome::EngineSpec;
use crate::store::{self, AnyTuner, CheckpointError, StateFiles, TunerSession};
use crate::tuner::Tuner;
use std::path::{Path, PathBuf};

/// What a one-file tuner's files need beyond its state and folder: the parameter file its
/// answer is also written to (`--out`), if any.
pub struct OneFileOut {
    out: Option<PathBuf>,
}

impl SessionTuner for AnyTuner {
    type Files = OneFileOut;

    /// Its checkpoint ([`AnyTuner::files`]).
    fn encode(&self, name: &str, out: Option<&Path>) -> Result<StateFiles, String> {
        self.files(name, out)
    }

    fn out<'a>(&self, files: &'a OneFileOut) -> Option<&'a Path> {
        files.out.as_deref()
    }

    fn decode(files: &StateFiles) -> Result<TunerSession<AnyTuner>, CheckpointError> {
        AnyTuner::from_files(files)
    }

    fn checkpoint_in(&self, dir: &Path) -> PathBuf {
        dir.join(self.kind().file)
    }

    fn keeper<'a>(
        &self,
        name: &'a str,
        dir: &'a Path,
        files: &'a mut OneFileOut,
    ) -> Result<Box<dyn Keeper<AnyTuner> + 'a>, SessionError> {
        Ok(Box::new(OneFile { dir, name, files }))
    }

    /// Its answer, to `best.json` and the `--out` copy.
    fn write_answer(
        &self,
        name: &str,
        dir: &Path,
        files: &mut OneFileOut,
        _: SessionEnd,
    ) -> Result<Option<PathBuf>, SessionError> {
        let best = dir.join(BEST_FILE);
        write_answers(self, name, &best, files.out.as_deref())?;
        Ok(Some(best))
    }
}

impl ShowsProgress for AnyTuner {
    fn session_progress(&self) -> Option<SessionProgress> {
        Some(SessionProgress::of(self))
    }

    fn step_report(&self, step: &StepReport) -> StepReport {
        step.clone()
    }

    /// From its checkpoint as every command reads a session.
    fn write_page(
        &self,
        checkpoint: &Path,
        out: &Path,
        opts: &crate::html::Options,
    ) -> Result<(), crate::summary::ReportError> {
        crate::html::write_session_report(checkpoint, Some(out), opts).map(|_| ())
    }
}

impl SessionRun<AnyTuner> {
    /// What the rest of the run plays, for its cost line: the steps left and the games left
    /// over them (the last step may be short); `budget_flag` is how its command asks for
    /// games ([`RunCost::of_steps`]).
    pub fn cost(&self, budget_flag: &'static str) -> RunCost {
        let state = &self.state;
        let steps = state.steps().saturating_sub(state.steps_done());
        let games = state.budget().saturating_sub(state.games());
        let per = games as f64 / steps.max(1) as f64;
        RunCost::of_steps(steps, per, state.kind().step, budget_flag)
    }

    /// Every how many steps a page of the run (`--report`) is written again as it goes: every
    /// 5% of its steps, as every tuner's ([`SessionProgress::page_every`]).
    pub fn report_every(&self) -> u64 {
        SessionProgress::of(&self.state).page_every()
    }

    /// Starts a session of `state` (a run at its start) named `name` (None: two words drawn from
    /// `seed`, as `new` names a session) under `populations`: makes and locks its folder,
    /// refusing one that holds a session already, and writes its checkpoint at step 0. `out` is
    /// a parameter file its answer is also written to, besides the session's `best.json`. Its
    /// games are played on `threads` workers (0: as [`crate::pool_threads`] says for its
    /// engine). Nothing is made when the name is refused.
    pub fn start_tuner(
        name: Option<String>,
        seed: u64,
        populations: &Path,
        state: AnyTuner,
        out: Option<PathBuf>,
        threads: usize,
    ) -> Result<SessionRun<AnyTuner>, SessionError> {
        let pool = tuner_pool(threads, &state)?;
        let name = name.unwrap_or_else(|| default_name(seed, populations));
        super::check_name(&name)?;
        // Refused when the folder holds a session of any tuner or a session's answer.
        let (held, ()) = folder::claim(populations, &name, |_| check_free(populations, &name))?;
        let mut run = SessionRun::opened(state, name, held, OneFileOut { out }, pool);
        let SessionRun {
            state,
            name,
            dir,
            files,
            ..
        } = &mut run;
        // Not saved (a full disk): the run is dropped, and the folder made for it with it.
        state.keeper(name, dir, files)?.save(state)?;
        Ok(run)
    }

    /// Prepares to continue the session whose checkpoint is `checkpoint` (see
    /// [`crate::store::tuner_of`]): locks its folder, reads the checkpoint, and checks that the
    /// engine still declares what it declared (one line when it does not). Its games are
    /// played on `threads` workers, as [`SessionRun::start_tuner`]'s.
    pub fn resume_tuner(
        checkpoint: &Path,
        threads: usize,
    ) -> Result<SessionRun<AnyTuner>, SessionError> {
        let dir = folder_of(checkpoint);
        // Read under the lock: a run that held the folder until just now may have written a
        // later step.
        let held = folder::enter(&dir)?;
        let TunerSession { name, state, out } = AnyTuner::load(checkpoint)?;
        if !state.finished() {
            state
                .spec()
                .check_unchanged()
                .map_err(|error| SessionError::EngineChanged {
                    name: name.clone(),
                    error,
                })?;
        }
        let pool = tuner_pool(threads, &state)?;
        let mut run = SessionRun::opened(state, name, held, OneFileOut { out }, pool);
        run.resumed_from = Some(checkpoint.to_path_buf());
        Ok(run)
    }

    /// The session's answer file: `best.json` in its folder.
    pub fn best_file(&self) -> PathBuf {
        self.dir.join(BEST_FILE)
    }

    /// The parameter file the answer is also written to (`--out`, made absolute), if any.
    pub fn out(&self) -> Option<&Path> {
        self.files.out.as_deref()
    }
}

/// The pool a one-file tuner's games are played on: `threads` workers, or for an engine's
/// games to a depth with none given, as [`crate::pool_threads`] says.
fn tuner_pool(threads: usize, state: &AnyTuner) -> Result<rayon::ThreadPool, SessionError> {
    let pool = crate::jobs::thread_pool(threads)?;
    Ok(crate::jobs::pool_for(pool, threads, Some(state.spec()))?)
}

impl Steps for AnyTuner {
    fn done(&self) -> bool {
        self.finished()
    }

    fn engine(&self) -> Option<&EngineSpec> {
        Some(self.spec())
    }

    fn told(&self, step: &StepReport) -> Told {
        Told {
            what: format!("{} {}", self.kind().step, step.number),
            time: step.time,
            faults: step.faults.clone(),
        }
    }

    fn steps_played(&self) -> u64 {
        self.steps_done()
    }
}

/// A one-file tuner's files: its checkpoint, `best.json` and the `--out` copy.
struct OneFile<'a> {
    dir: &'a Path,
    name: &'a str,
    files: &'a mut OneFileOut,
}

impl Keeper<AnyTuner> for OneFile<'_> {
    fn save(&mut self, state: &AnyTuner) -> Result<PathBuf, CheckpointError> {
        let files = SessionTuner::encode(state, self.name, self.files.out.as_deref())
            .map_err(|e| CheckpointError::new(&state.checkpoint_in(self.dir), e))?;
        files.write(self.dir)
    }

    /// Written at the start and after every step.
    fn at(&self, state: &AnyTuner) -> (PathBuf, bool) {
        (state.checkpoint_in(self.dir), true)
    }

    fn answer(
        &mut self,
        state: &AnyTuner,
        end: SessionEnd,
    ) -> Result<Option<PathBuf>, SessionError> {
        state.write_answer(self.name, self.dir, self.files, end)
    }

    /// The answer as it stands is written if it can be (the observer hears of it), and the
    /// error says where the session stands: at its checkpoint as the disk still holds it,
    /// the step before (a checkpoint is replaced whole or not at all).
    fn save_failed(
        &mut self,
        state: &AnyTuner,
        source: CheckpointError,
    ) -> (SessionError, Option<PathBuf>) {
        let written = state.write_answer(self.name, self.dir, self.files, SessionEnd::Stopped);
        let at = state.checkpoint_in(self.dir);
        let stands = AnyTuner::load(&at).ok().map(|t| t.state.steps_done());
        let e = SessionError::Save {
            source,
            step: state.kind().step,
            generation: stands.unwrap_or(0),
            checkpoint: stands.map(|_| at),
            best_weights: None,
        };
        (e, written.ok().flatten())
    }
}

/// Writes `state`'s answer, rounded, to `best` and to `out` if given: an engine parameter file
/// whose comment names session `name` and what its run played.
fn write_answers(
    state: &AnyTuner,
    name: &str,
    best: &Path,
    out: Option<&Path>,
) -> Result<(), SessionError> {
    let (w, comment) = (state.answer(), state.comment(name));
    for path in std::iter::once(best).chain(out) {
        write_answer_file(path, Some(state.spec()), &w, None, Some(&comment))?;
    }
    Ok(())
}

/// Refuses a session name whose folder under `populations` holds a session already (of any
/// tuner) or a session's answer (`best.json`). [`SessionRun::start_tuner`] checks it before it makes
/// the folder, or under the lock of a folder that exists (and whether the folder holds a
/// session again under the lock in either case).
pub fn check_free(populations: &Path, name: &str) -> Result<(), SessionError> {
    folder::refuse_taken(populations, name)?;
    let dir = store::session_dir(populations, name);
    if dir.join(BEST_FILE).exists() {
        return Err(SessionError::Refused(format!(
            "session '{name}' has an answer in '{}' already: pick another --name",
            dir.display()
        )));
    }
    Ok(())
}

/// The tuner `new --engine` runs for an engine of `params` tuned parameters when none is named:
/// the GA (the mean) up to 16 parameters (the bound where the mean halves its spread), CMA-ES
/// beyond. Each won in real games where it was measured at equal games: the mean on the
/// example engine's 8 parameters, CMA-ES on our 66 weights through the protocol
/// (docs/results.md).
pub fn engine_tuner(params: usize) -> store::TunerKind {
    store::one_file_tuners()
        .into_iter()
        .filter(|k| k.default_beyond.is_some_and(|n| params > n))
        .min_by_key(|k| k.default_beyond)
        .map_or(store::TunerKind::Ga, store::TunerKind::OneFile)
}

impl SessionProgress {
    /// Where a one-file tuner's session stands.
    pub fn of(state: &AnyTuner) -> SessionProgress {
        SessionProgress {
            step: state.kind().step,
            steps: state.steps(),
            steps_done: state.steps_done(),
            games: state.games(),
            budget: state.budget(),
            games_per_step: state.games_per_step(),
            names: state.spec().tuned.iter().map(|t| t.name.clone()).collect(),
            values: state.values(),
            time_left: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::EngineError;
    use crate::sim::SimModel;
    use crate::SessionError;
    use crate::{SpsaSettings, SpsaState};

    #[test]
    fn a_session_whose_engine_changed_is_refused_on_resume_by_its_variant() {
        let root = std::env::temp_dir().join(format!("ckga-spsa-changed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut spec = EngineSpec::simulated(&SimModel::new(2, 1), 1);
        // The session's record of the engine: the simulator now declares another default.
        spec.declared[0].value = "12345".into();
        let settings = SpsaSettings {
            games: 4,
            ..SpsaSettings::default()
        };
        let state = SpsaState::new(&spec, &settings).unwrap();
        let state = AnyTuner::new(state);
        let run = SessionRun::start_tuner(Some("s".into()), 1, &root, state, None, 1).unwrap();
        let checkpoint = run.checkpoint();
        drop(run);
        let e = SessionRun::resume_tuner(&checkpoint, 1)
            .err()
            .expect("refused");
        assert!(
            matches!(
                &e,
                SessionError::EngineChanged {
                    name,
                    error: EngineError::ParameterChanged { .. }
                } if name == "s"
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("cannot continue session 's': the engine's parameter p1 changed"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
