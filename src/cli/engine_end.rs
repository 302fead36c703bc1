//! How an engine session's run ends, whichever tuner ran it (`new --engine` under the GA or
//! the mean, `spsa`, `cmaes`, their `resume`): its values, its answer's file, where the
//! session stands, and what to do next ([`EngineEnd`]); a run stopped by a signal says what
//! stopped it and how to go on instead of what to do next.

use super::common::{command_prefix, say, say_somewhere, stop_signal_name, warn};
use checkers_ga::shell_word;
use checkers_ga::{EngineSpec, Weights};
use std::path::Path;

/// The end of a run of an engine session, as every tuner's says it.
pub struct EngineEnd<'a> {
    /// The engine tuned.
    pub spec: &'a EngineSpec,
    /// The session's answer.
    pub answer: Weights,
    /// Its file.
    pub best: &'a Path,
    /// The games the session has played, and its steps (generations or steps: `step`).
    pub games: u64,
    pub steps: u64,
    pub step: &'static str,
    /// `; also written to FILE` of an `--out` copy, or nothing.
    pub also: String,
    /// The session's name and where it stands (`generation 12 of 250, 192 games`).
    pub name: &'a str,
    pub progress: String,
    /// Its last checkpoint.
    pub checkpoint: &'a Path,
    /// How `history` and `report` name the session (`session_arg`).
    pub session_arg: &'a str,
    /// The page of `--report`, if this run wrote one.
    pub page: Option<&'a Path>,
}

impl EngineEnd<'_> {
    /// `best values: FILE (G games, N steps)`, with the copy.
    pub fn best_line(&self) -> String {
        best_values_line(self.best, self.games, self.steps, self.step, &self.also)
    }

    /// The answer's values, one line each (not under `--quiet`, whose output is the answer's
    /// path alone).
    pub fn say_values(&self) {
        for line in engine_value_lines(self.spec, &self.answer) {
            say(&line);
        }
    }

    /// The end of a run that played to its end (or of a resume at the end, `seconds` 0):
    /// the answer's line, where the session stands and what this run took, the lines `also`
    /// (the GA's strength so far), and what to do next.
    pub fn say_done(&self, seconds: f64, also: &[String]) {
        say(&self.best_line());
        say(&session_end_line(
            self.name,
            &self.progress,
            seconds,
            self.checkpoint,
        ));
        for line in also {
            say(line);
        }
        let next = engine_next_lines(
            self.spec,
            &self.answer,
            self.best,
            self.session_arg,
            self.page,
        );
        for line in next {
            say(&line);
        }
    }

    /// The end of a run stopped by a signal after its games of its `total` (0: a run to a
    /// time limit): on standard error what stopped it and the answer's line; where the session
    /// stands; how to continue (`resume`).
    pub fn say_stopped(&self, total: u64, resume: &str) {
        let games = self.games;
        let of = match total {
            0 => String::new(),
            t => format!(" of {t}"),
        };
        warn(&format!(
            "{} stopped the run after {games}{of} games; {}",
            stop_signal_name(),
            self.best_line()
        ));
        say_somewhere(&format!(
            "session '{}' stands at {} ({})",
            self.name,
            self.progress,
            self.checkpoint.display()
        ));
        say_somewhere(&format!("continue with: {resume}"));
    }
}

/// A session's answer for an outside engine, whichever tuner's: its values, one line each
/// (`king 132 (default 130)`).
fn engine_value_lines(spec: &EngineSpec, answer: &Weights) -> Vec<String> {
    spec.tuned
        .iter()
        .zip(spec.values(answer))
        .map(|(t, v)| format!("{} {v} (default {})", t.name, t.default))
        .collect()
}

/// The end of a session of an outside engine, whichever tuner's: on the simulator, how far its
/// answer plays below the optimum (it plays no match); then what to do next: the answer's
/// strength against the engine with its declared values, its values for the engine, its
/// history and its report (`report`: the page this run wrote, if any). `best` is the answer's
/// file, `arg` the session as `checkers_ga::session_arg` names it.
fn engine_next_lines(
    spec: &EngineSpec,
    answer: &Weights,
    best: &Path,
    arg: &str,
    report: Option<&Path>,
) -> Vec<String> {
    let me = command_prefix();
    let file = shell_word(&best.to_string_lossy());
    let mut lines = Vec::new();
    if let Some((regret, declared)) = checkers_ga::answer_regret(spec, answer) {
        lines.push(format!(
            "its answer plays {regret:.1} Elo below the optimum of {} (the declared values: \
             {declared:.1})",
            spec.engine.name
        ));
        lines.push("next: its values, its history, a report:".to_string());
    } else {
        lines.push("next: its strength, its values, its history, a report:".to_string());
        let cmd: Vec<String> = spec
            .engine
            .program
            .command
            .iter()
            .map(|w| shell_word(w))
            .collect();
        // The engine's command runs in the folder the session started in: from another
        // folder, the match is run there (this program and the answer by their full paths).
        let here = std::env::current_dir().ok();
        let away = (spec.engine.program.dir.as_deref())
            .filter(|d| here.as_deref() != Some(*d))
            .zip(std::env::current_exe().ok())
            .zip(std::path::absolute(best).ok());
        let (me, file) = match &away {
            Some(((_, exe), abs)) => (
                shell_word(&exe.to_string_lossy()),
                shell_word(&abs.to_string_lossy()),
            ),
            None => (me.clone(), file.clone()),
        };
        let line = format!(
            "{me} match {file} {} {} --games 312",
            shell_word(&format!("hub:{}", cmd.join(" "))),
            spec.level_flag()
        );
        lines.push(match away {
            Some(((d, _), _)) => format!("  (cd {} && {line})", shell_word(&d.to_string_lossy())),
            None => format!("  {line}"),
        });
    }
    lines.push(format!("  {me} export {file} --format hub"));
    lines.push(format!("  {me} history {arg}"));
    lines.push(match report {
        Some(r) => format!("  open {}", r.display()),
        None => format!("  {me} report {arg}"),
    });
    lines
}

/// The line that names an engine session's answer at the end of a run, whichever tuner's:
/// `best values: FILE (G games, N steps)`, then `also` (`; also written to FILE` of an `--out`
/// copy, or nothing).
fn best_values_line(file: &Path, games: u64, steps: u64, step: &str, also: &str) -> String {
    format!(
        "best values: {} ({}, {}){also}",
        file.display(),
        checkers_ga::count(games as usize, "game", "games"),
        checkers_ga::count(steps as usize, step, &format!("{step}s")),
    )
}

/// The line that says where an engine session stands at the end of a run that finished,
/// whichever tuner's: `session 'NAME': PROGRESS, this run T (CHECKPOINT)`.
fn session_end_line(name: &str, progress: &str, seconds: f64, checkpoint: &Path) -> String {
    format!(
        "session '{name}': {progress}, this run {} ({})",
        checkers_ga::short_time(seconds),
        checkpoint.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_line_counts_in_words_whichever_tuner() {
        let f = Path::new("s/best.json");
        assert_eq!(
            best_values_line(f, 1, 1, "step", ""),
            "best values: s/best.json (1 game, 1 step)"
        );
        assert_eq!(
            best_values_line(f, 160, 10, "generation", "; also written to o.json"),
            "best values: s/best.json (160 games, 10 generations); also written to o.json"
        );
    }
}
