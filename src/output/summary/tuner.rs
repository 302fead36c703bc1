//! What `history` and `report` show of a one-file tuner's session (SPSA's, CMA-ES's): its
//! answer at each step its history kept ([`TunerHistory`], as any one-file session gives it:
//! [`crate::store::OneFileSession::history`]), as a table ([`TunerHistory::table`]; all
//! `history` prints of it, [`TunerHistory::text`]) and as a chart of each parameter's place in
//! its declared range over the steps ([`TunerHistory::chart`]). The CSV and JSON of `history --format` are
//! [`super::tuner_history_csv`] and [`super::tuner_history_json`]. One view for every such
//! tuner: what differs is the words (a step or a generation; θ or the answer) and the points.

use crate::matchplay::Wdl;
use crate::store::TunerHistory;
use std::path::Path;

impl TunerHistory {
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

    /// What `history` prints of the session read from `file`: its head, `elo_line` (the
    /// `--elo` measurement's line) when there is one, the table ([`TunerHistory::table`] of
    /// `elo`) and a line saying which steps it shows and what its columns are.
    pub fn text(&self, file: &Path, elo: &[(u64, Wdl)], elo_line: Option<&str>) -> String {
        let head = super::params::engine_session_head(
            self.tuner.name(),
            &self.name,
            file,
            &self.spec,
            self.seed,
            &self.progress,
        );
        let mut t = format!("{head}\n");
        if let Some(l) = elo_line {
            t += l;
            t.push('\n');
        }
        t.push('\n');
        t += &self.table(elo);
        let step = self.step;
        let mut answer = self.answer.0.to_string();
        if let Some(first) = answer.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        t += &format!(
            "{answer} at the start, every {} {step}s and at the last whole {step}; games: \
             played by then; faults: games lost by a fault since the row before (faults.log \
             says which; ? where the history did not keep them)\n",
            self.every
        );
        t
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
            self.spec.engine.name
        );
        let points: Vec<(f64, Vec<f64>)> = self
            .points
            .iter()
            .map(|p| (p.step as f64, p.values.clone()))
            .collect();
        super::parameter_chart(&title, &self.spec, self.step, &points, standalone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::TunerKind;

    #[test]
    fn the_text_is_headed_as_a_ga_session_of_an_engine_and_says_which_steps_it_shows() {
        let spec = crate::genome::EngineSpec::simulated(&crate::sim::SimModel::new(2, 1), 3);
        let h = TunerHistory {
            tuner: TunerKind::one_file("cmaes"),
            step: "generation",
            answer: ("the answer", "answer"),
            rounded: "the means' average rounded",
            name: "s".into(),
            spec,
            seed: 7,
            budget: (40, 5),
            done: (8, 1),
            progress: "1 of 5 generations".into(),
            every: 10,
            points: Vec::new(),
            note: None,
        };
        let t = h.text(Path::new("p/s/cmaes.ckpt"), &[], Some("ELO LINE"));
        let head = "CMA-ES session 's' (p/s/cmaes.ckpt): engine sim:2:1, 2 parameters, depth 3, \
                    seed 7; 1 of 5 generations\nELO LINE\n\n";
        assert!(t.starts_with(head), "{t}");
        let last = t.lines().last().unwrap();
        assert!(
            last.starts_with("The answer at the start, every 10 generations and at the last whole generation; games:"),
            "{last}"
        );
        assert!(!h.text(Path::new("f"), &[], None).contains("ELO LINE"));
    }
}
