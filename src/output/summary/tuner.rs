//! What `history` and `report` show of a one-file tuner's session (SPSA's, CMA-ES's): its
//! answer at each step its history kept ([`TunerHistory`], as any one-file session gives it:
//! [`crate::store::OneFileSession::history`]), as a table ([`TunerHistory::table`]) and as a
//! chart of each parameter's place in its declared range over the steps
//! ([`TunerHistory::chart`]). The CSV and JSON of `history --format` are
//! [`super::tuner_history_csv`] and [`super::tuner_history_json`]. One view for every such
//! tuner: what differs is the words (a step or a generation; θ or the answer) and the points.

use crate::matchplay::Wdl;
use crate::store::TunerHistory;

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
