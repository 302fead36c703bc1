//! What `history` shows of a CMA-ES session: its answer (the average of the means, in the
//! engine's units) at each generation its history kept, as SPSA's θ is shown
//! ([`super::points_table`], [`super::points_chart`]), with σ beside it.

use crate::spsa::SpsaPoint;
use crate::store::CmaesSession;

/// The answer at the generations the session's history kept: the start, every
/// `history_every` generations, and the last whole generation (as SPSA's points: the
/// generation in `step`, the answer in `theta`).
pub fn cmaes_points(s: &CmaesSession) -> Vec<SpsaPoint> {
    let st = &s.state;
    let mut points: Vec<SpsaPoint> = st
        .history
        .iter()
        .map(|h| SpsaPoint {
            step: h.generation,
            games: h.games,
            theta: st.values_at(&h.average),
            faults: Some(h.faults),
            time: h.time,
        })
        .collect();
    if points.last().map(|p| p.step) != Some(st.generation) {
        points.push(SpsaPoint {
            step: st.generation,
            games: st.games,
            theta: st.values(),
            faults: Some(st.faults),
            time: st.spec.tc.map(|_| st.time),
        });
    }
    points
}

/// The session's history as a table: one row per kept generation (its number, the games
/// played by then, the games lost by a fault since the row before, on a clock what the games
/// did with it, and the answer in every parameter), then σ at each.
pub fn cmaes_history_table(s: &CmaesSession) -> String {
    let st = &s.state;
    let mut t = super::points_table(&st.spec, "generation", &cmaes_points(s), &[]);
    let sigmas: Vec<String> = st
        .history
        .iter()
        .map(|h| format!("{}: {:.0}", h.generation, h.sigma))
        .collect();
    t += &format!(
        "σ (generation: genes) {}; now {:.0}\n",
        sigmas.join(", "),
        st.sigma
    );
    t
}

/// The answer over the generations as a chart of each parameter's place in its range.
pub fn cmaes_chart(s: &CmaesSession, standalone: bool) -> String {
    let title = format!("CMA-ES session '{}' of {}", s.name, s.state.spec.name);
    super::points_chart(
        &title,
        &s.state.spec,
        "generation",
        cmaes_points(s),
        standalone,
    )
}
