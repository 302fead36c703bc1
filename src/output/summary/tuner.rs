//! What `history` and `report` show of a one-file tuner's session (SPSA's, CMA-ES's): its
//! answer at each step its history kept ([`TunerHistory`], read from either session), as a
//! table ([`TunerHistory::table`]) and as a chart of each parameter's place in its declared
//! range over the steps ([`TunerHistory::chart`]). The CSV and JSON of `history --format` are
//! [`super::tuner_history_csv`] and [`super::tuner_history_json`]. One view for both tuners:
//! what differs is the words (a step or a generation; θ or the answer) and the points.

use crate::clock::TimeUse;
use crate::eval::Weights;
use crate::genome::EngineSpec;
use crate::matchplay::Wdl;
use crate::store::{CmaesSession, SpsaSession, Tuner};
use crate::tuner::Tuner as _;

/// A kept point of a tuner's history.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerPoint {
    /// Steps (SPSA) or generations (CMA-ES) done.
    pub step: u64,
    /// Games played by then.
    pub games: u64,
    /// The answer then in the engine's units, unrounded (θ; CMA-ES's average of the means).
    pub values: Vec<f64>,
    /// The genome the answer then plays (rounded as `match` plays it).
    pub weights: Weights,
    /// Games lost by an engine's fault by then; None where not kept (SPSA format 1).
    pub faults: Option<u64>,
    /// On a clock: what the games since the point before did with it.
    pub time: Option<TimeUse>,
}

/// A one-file tuner's session as `history` and `report` show it.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerHistory {
    /// Whose session.
    pub tuner: Tuner,
    /// What one step is called: `step`, `generation`.
    pub step: &'static str,
    /// What the answer is called in prose (`θ`, `the answer`) and in CSV and JSON (`theta`,
    /// `answer`).
    pub answer: (&'static str, &'static str),
    /// What its rounding is called: `θ rounded`, `the means' average rounded`.
    pub rounded: &'static str,
    /// The session's name.
    pub name: String,
    /// The engine.
    pub spec: EngineSpec,
    /// The run's seed.
    pub seed: u64,
    /// Games and steps in the budget.
    pub budget: (u64, u64),
    /// Games and steps played.
    pub done: (u64, u64),
    /// Where it stands, in words.
    pub progress: String,
    /// A point is kept every this many steps.
    pub every: u64,
    /// The start, every `every` steps, and the last whole step.
    pub points: Vec<TunerPoint>,
    /// A line the table ends with (CMA-ES: σ at the kept generations).
    pub note: Option<String>,
}

impl TunerHistory {
    /// SPSA session `s`: θ at its kept steps.
    pub fn of_spsa(s: &SpsaSession) -> TunerHistory {
        let st = &s.state;
        TunerHistory {
            tuner: Tuner::Spsa,
            step: "step",
            answer: ("θ", "theta"),
            rounded: "θ rounded",
            name: s.name.clone(),
            spec: st.spec.clone(),
            seed: st.settings.seed,
            budget: (2 * st.settings.pairs(), st.settings.steps()),
            done: (st.games(), st.step),
            progress: st.progress(),
            every: st.settings.history_every,
            points: st
                .result(false)
                .history
                .into_iter()
                .map(|p| TunerPoint {
                    weights: st.weights_at(&p.theta),
                    step: p.step,
                    games: p.games,
                    values: p.theta,
                    faults: p.faults,
                    time: p.time,
                })
                .collect(),
            note: None,
        }
    }

    /// CMA-ES session `s`: the average of the means at its kept generations (and the last).
    pub fn of_cmaes(s: &CmaesSession) -> TunerHistory {
        let st = &s.state;
        let mut points: Vec<TunerPoint> = st
            .history
            .iter()
            .map(|h| TunerPoint {
                step: h.generation,
                games: h.games,
                values: st.values_at(&h.average),
                weights: st.genome_at(&h.average),
                faults: Some(h.faults),
                time: h.time,
            })
            .collect();
        if points.last().map(|p| p.step) != Some(st.generation) {
            points.push(TunerPoint {
                step: st.generation,
                games: st.games,
                values: st.values(),
                weights: st.answer(),
                faults: Some(st.faults),
                time: st.spec.tc.map(|_| st.time),
            });
        }
        let sigmas: Vec<String> = st
            .history
            .iter()
            .map(|h| format!("{}: {:.0}", h.generation, h.sigma))
            .collect();
        TunerHistory {
            tuner: Tuner::Cmaes,
            step: "generation",
            answer: ("the answer", "answer"),
            rounded: "the means' average rounded",
            name: s.name.clone(),
            spec: st.spec.clone(),
            seed: st.settings.seed,
            budget: (st.budget(), st.generations()),
            done: (st.games, st.generation),
            progress: st.progress(),
            every: st.settings.history_every,
            points,
            note: Some(format!(
                "σ in genes at the kept generations: {}; now {:.0}",
                sigmas.join(", "),
                st.sigma
            )),
        }
    }

    /// The games lost by an engine's fault in the steps since the point before each point (0
    /// at the start); None where the history did not keep them (an SPSA checkpoint of format
    /// 1).
    pub fn faults(&self) -> Vec<Option<u64>> {
        let mut before = None;
        self.points
            .iter()
            .map(|p| {
                let since = if p.step == 0 {
                    Some(0)
                } else {
                    p.faults?.checked_sub(before?)
                };
                before = p.faults;
                since
            })
            .collect()
    }

    /// The history as a table: one row per kept step (its number, the games played by then,
    /// the games lost by a fault since the row before (`?` where not kept), on a clock what
    /// the games since the row before did with it (mean depth, ms a move, time left at the
    /// end under a game clock, games lost on time), and the answer in every parameter, one
    /// decimal), under a row of the engine's names; when `elo` names any step, an Elo column
    /// against a reference (`elo` pairs a step with the match result of its values); then the
    /// note, if any.
    pub fn table(&self, elo: &[(u64, Wdl)]) -> String {
        let tuned = &self.spec.tuned;
        let widths: Vec<usize> = tuned.iter().map(|t| t.name.len().max(7)).collect();
        let step = self.step;
        let w0 = step.len().max(6);
        let mut head = format!("{step:>w0$} {:>8} {:>6}", "games", "faults");
        // On a clock: what the games of the steps since the row before did with it.
        let clock = self.spec.tc;
        let game_clock = matches!(clock, Some(crate::clock::TimeControl::Game { .. }));
        if clock.is_some() {
            head += &super::history::time_head(game_clock);
        }
        for (t, w) in tuned.iter().zip(&widths) {
            head += &format!(" {:>w$}", t.name);
        }
        if !elo.is_empty() {
            head += "  Elo vs reference (W/D/L)";
        }
        let mut lines = vec![head];
        for (p, f) in self.points.iter().zip(self.faults()) {
            let f = f.map_or("?".to_string(), |f| f.to_string());
            let mut row = format!("{:>w0$} {:>8} {f:>6}", p.step, p.games);
            if clock.is_some() {
                if p.step == 0 {
                    let left = if game_clock {
                        " ".repeat(7)
                    } else {
                        String::new()
                    };
                    row += &format!(" {:>5} {:>7}{left} {:>9}", "", "", "");
                } else {
                    row += &super::history::time_cells(p.time.as_ref(), game_clock);
                }
            }
            for (x, w) in p.values.iter().zip(&widths) {
                row += &format!(" {x:>w$.1}");
            }
            if let Some((_, w)) = elo.iter().find(|(x, _)| *x == p.step) {
                row += &format!("  {}", super::elo_text(w));
            }
            lines.push(row);
        }
        let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
        lines.insert(1, "-".repeat(width));
        let mut out = lines.join("\n");
        out.push('\n');
        if let Some(note) = &self.note {
            out += note;
            out.push('\n');
        }
        out
    }

    /// A line chart of the answer over the steps: each parameter's place in its declared range
    /// (0% its minimum, 100% its maximum), one line per parameter in the engine's order
    /// ([`super::parameter_chart`], as the GA's history of an engine draws its answer).
    /// `standalone`: an SVG file (`history --svg`); else an element of the report's page.
    pub fn chart(&self, standalone: bool) -> String {
        let title = format!(
            "{} session '{}' of {}: each parameter's place in its declared range",
            self.tuner.name(),
            self.name,
            self.spec.name
        );
        let points: Vec<(f64, Vec<f64>)> = self
            .points
            .iter()
            .map(|p| (p.step as f64, p.values.clone()))
            .collect();
        super::parameter_chart(&title, &self.spec, self.step, &points, standalone)
    }
}
