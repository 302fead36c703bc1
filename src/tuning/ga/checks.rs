//! A session's settings checked as user input: every count and range, the operators that go
//! together, the mean's own settings ([`super::mean`]) and an outside engine's.

use super::mean::check_mean;
use super::settings::*;
use crate::eval::{ParamSet, Weights};
use crate::openings::ballot;

impl Settings {
    /// Checks the settings a user gave; the message names the bad one.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.check().map_err(SettingsError)
    }

    fn check(&self) -> Result<(), String> {
        let p = self.population;
        if p < 4 || !p.is_multiple_of(4) || p > MAX_POPULATION {
            return Err(format!(
                "population {p} must be a multiple of 4 from 4 to {MAX_POPULATION}"
            ));
        }
        if !self.games.is_multiple_of(4) {
            return Err(format!(
                "games per individual {} must be a multiple of 4 (each plays games/4 neighbours \
                 on each side of a ring, twice), or 0 for all against all",
                self.games
            ));
        }
        if self.rules.max_plies == 0 || self.rules.max_plies > 100_000 {
            return Err(format!(
                "max plies {} must be 1..100000 (tournament games need a cap)",
                self.rules.max_plies
            ));
        }
        crate::search::check_depth(self.search.depth, "depth").map_err(|e| e.to_string())?;
        if self.search.tt_log2 > crate::search::MAX_TT_LOG2 {
            return Err(format!(
                "transposition table of 2^{} entries: at most 2^{}",
                self.search.tt_log2,
                crate::search::MAX_TT_LOG2
            ));
        }
        if !(0.0..=1.0).contains(&self.mutation_chance) {
            return Err(format!(
                "mutation chance {} must be in 0..1",
                self.mutation_chance
            ));
        }
        if self.elite == 0 {
            return Err("elite must be at least 1 (it holds the best so far)".to_string());
        }
        if self.elite.saturating_add(self.newcomers) > p {
            return Err(format!(
                "elite {} + newcomers {} exceed the population {p}",
                self.elite, self.newcomers
            ));
        }
        if self.elite > p / 2 {
            return Err(format!(
                "elite {} cannot exceed the parents (population/2 = {})",
                self.elite,
                p / 2
            ));
        }
        let ga = &self.ga;
        let most = 2 * ballot().len() as u32;
        if ga.duel_games == 0 || !ga.duel_games.is_multiple_of(2) || ga.duel_games > most {
            return Err(format!(
                "duel games {} must be an even number from 2 to {most}",
                ga.duel_games
            ));
        }
        if ga.measure_every > 0 && (ga.measure_games < 2 || ga.measure_games > most) {
            return Err(format!(
                "measure games {} must be 2..{most}",
                ga.measure_games
            ));
        }
        if let Method::Ga(Selection::Tournament(k)) = ga.method {
            if !(2..=64).contains(&k) {
                return Err(format!("tournament selection size {k} must be 2..64"));
            }
        }
        check_mean(ga)?;
        if ga.deepen_at > 0 {
            crate::search::check_depth(ga.deepen_to, "deepened depth")
                .map_err(|e| e.to_string())?;
        }
        if ga.widen_at > 0
            && ga.widen_to != ga.params
            && Weights::zero_of(ga.params).widen(ga.widen_to).is_none()
        {
            return Err(format!(
                "cannot widen {} into {}: {WIDENINGS}",
                ga.params, ga.widen_to
            ));
        }
        if ga.endgame_pairs as usize >= p {
            return Err(format!(
                "endgame pairs {} must be below the population {p}",
                ga.endgame_pairs
            ));
        }
        if ga.hall_of_fame as usize > MAX_POPULATION {
            return Err(format!(
                "hall of fame {} must be 0..{MAX_POPULATION}",
                ga.hall_of_fame
            ));
        }
        if let Mutation::Gauss { genes, .. } | Mutation::Layered { genes, .. } = ga.mutation {
            if genes as usize > ga.params.len() {
                return Err(format!(
                    "mutation of {genes} genes: the {} set has {} weights",
                    ga.params,
                    ga.params.len()
                ));
            }
        }
        if ga.fit_top == 1 || ga.fit_top as usize > p {
            return Err(format!(
                "fit top {} must be 0 (every game) or 2..{p} (the population)",
                ga.fit_top
            ));
        }
        if ga.fit_replay > MAX_FIT_REPLAY {
            return Err(format!(
                "fit replay {} must be 0..{MAX_FIT_REPLAY} generations",
                ga.fit_replay
            ));
        }
        if ga.fit_blend > 100 || !(1..=crate::search::MAX_DEPTH).contains(&ga.fit_blend_depth) {
            return Err(format!(
                "fit blend {}:{} must be PERCENT 0..100 and DEPTH 1..{}",
                ga.fit_blend,
                ga.fit_blend_depth,
                crate::search::MAX_DEPTH
            ));
        }
        if ga.init_range == 0 || ga.init_range > i16::MAX as u16 {
            return Err(format!("init range {} must be 1..32767", ga.init_range));
        }
        match (&self.engine, ga.params) {
            (Some(e), ParamSet::Engine(n)) if n as usize == e.tuned.len() => {
                if ga.fit_every > 0 {
                    return Err("an outside engine's session has no fit (--fit-every 0)".into());
                }
                if ga.widen_at > 0 {
                    return Err("an outside engine's session cannot widen".into());
                }
                if e.depth() == 0 || e.depth() > crate::search::MAX_DEPTH {
                    return Err(format!(
                        "the outside engine's depth {} must be 1..{}",
                        e.depth(),
                        crate::search::MAX_DEPTH
                    ));
                }
            }
            (Some(e), set) => {
                return Err(format!(
                    "a session of the outside engine {} tunes its {} parameters, not {set} \
                     weights of our evaluation (--params is for sessions of our own weights)",
                    e.engine.name,
                    e.tuned.len()
                ))
            }
            (None, ParamSet::Engine(_)) => {
                return Err("an outside engine's parameters without the engine".into())
            }
            (None, _) => {}
        }
        match self.stop {
            Stop::Generations(0) => Err("--generations must be at least 1".to_string()),
            Stop::Seconds(s) if s.is_nan() || s <= 0.0 => {
                Err("--time must be a positive number of seconds".to_string())
            }
            _ => Ok(()),
        }
    }
}
