//! The old checkpoint formats' parts that today's do not have: format 1's session (before the
//! GA options, yardstick measurements and the hall of fame), format 2's (the whole history in
//! every checkpoint) and the settings of formats 3 and 4, each read into today's types.
//! [`super::checkpoint`] decodes them by the format version.

/// Checkpoint format 4's settings: today's without [`crate::ga::GaOptions::fit_top`] (read as
/// 0: the fit learned from every game).
pub(super) mod v4 {
    use crate::eval::ParamSet;
    use crate::ga;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Settings {
        base: super::v1::Settings,
        ga: GaOptions,
    }

    /// Format 3's options followed by the fit and the widening (no bytes for the nesting).
    #[derive(Deserialize)]
    struct GaOptions {
        v3: super::v3::GaOptions,
        fit_every: u64,
        widen_at: u64,
        widen_to: ParamSet,
    }

    impl From<Settings> for ga::Settings {
        fn from(s: Settings) -> ga::Settings {
            let g = s.ga;
            s.base.with(ga::GaOptions {
                fit_every: g.fit_every,
                widen_at: g.widen_at,
                widen_to: g.widen_to,
                ..g.v3.into()
            })
        }
    }
}

/// Checkpoint format 3's settings: today's without [`crate::ga::GaOptions::fit_every`] (read
/// as 0, never) and the widening (never).
pub(super) mod v3 {
    use crate::eval::ParamSet;
    use crate::ga::{self, Method, Mutation, YardstickKind};
    use serde::Deserialize;

    /// Format 1's settings followed by the GA options (bincode writes a struct's fields one
    /// after another, so the nesting costs no bytes).
    #[derive(Deserialize)]
    pub struct Settings {
        base: super::v1::Settings,
        ga: GaOptions,
    }

    /// Format 3's GA options (format 4's begin with them).
    #[derive(Deserialize)]
    pub struct GaOptions {
        params: ParamSet,
        method: Method,
        mutation: Mutation,
        init_range: u16,
        hall_of_fame: u32,
        deepen_at: u64,
        deepen_to: u32,
        endgame_pairs: u32,
        duel_games: u32,
        measure_every: u64,
        measure_games: u32,
        yardstick: YardstickKind,
    }

    impl From<GaOptions> for ga::GaOptions {
        /// With no fit and no widening.
        fn from(g: GaOptions) -> ga::GaOptions {
            ga::GaOptions {
                params: g.params,
                method: g.method,
                mutation: g.mutation,
                init_range: g.init_range,
                hall_of_fame: g.hall_of_fame,
                deepen_at: g.deepen_at,
                deepen_to: g.deepen_to,
                endgame_pairs: g.endgame_pairs,
                duel_games: g.duel_games,
                measure_every: g.measure_every,
                measure_games: g.measure_games,
                yardstick: g.yardstick,
                fit_every: 0,
                fit_top: 0,
                fit_replay: 0,
                fit_blend: 0,
                fit_blend_depth: 2,
                widen_at: 0,
                widen_to: g.params,
                in_flight: 1,
            }
        }
    }

    impl From<Settings> for ga::Settings {
        fn from(s: Settings) -> ga::Settings {
            s.base.with(s.ga.into())
        }
    }
}

/// Checkpoint format 2: the session with its whole history. The settings are format 3's; the
/// history entries today's.
pub(super) mod v2 {
    use crate::eval::Weights;
    use crate::ga::{self, GenerationStats};
    use crate::tournament::Standing;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Session {
        name: String,
        settings: super::v3::Settings,
        generation: u64,
        elapsed: f64,
        population: Vec<Weights>,
        last: Vec<(Weights, Standing)>,
        best_so_far: Option<Weights>,
        history: Vec<GenerationStats>,
        hall: Vec<Weights>,
    }

    impl From<Session> for ga::GaState {
        fn from(s: Session) -> ga::GaState {
            ga::GaState {
                centre: None,
                pending: Default::default(),
                name: s.name,
                settings: s.settings.into(),
                generation: s.generation,
                elapsed: s.elapsed,
                population: s.population,
                steps: Vec::new(),
                last: s.last,
                best_so_far: s.best_so_far,
                history: s.history.into(),
                hall: s.hall.into(),
                bests: Default::default(),
                fitted: None,
                faults: Vec::new(),
                replay: Default::default(),
            }
        }
    }
}

/// Checkpoint format 1: the session as it was before the GA options, yardstick measurements
/// and the hall of fame. Read as a session with the original operators, so it continues
/// exactly as the build that wrote it would have.
pub(super) mod v1 {
    use crate::eval::Thesis60Tuple;
    use crate::ga::{self, Duel, GaOptions, Stop};
    use crate::game::DrawRules;
    use crate::matchplay::OpeningBook;
    use crate::search::SearchConfig;
    use crate::tournament::Standing;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Settings {
        population: usize,
        games: usize,
        search: SearchConfig,
        factor: u32,
        mutation: f64,
        stop: Stop,
        seed: u64,
        openings: OpeningBook,
        elite: usize,
        newcomers: usize,
        rules: DrawRules,
    }

    #[derive(Deserialize)]
    pub struct GenerationStats {
        generation: u64,
        best: u32,
        mean: f64,
        min: u32,
        diversity: f64,
        duel: Option<Duel>,
        games: u32,
        plies: u64,
        seconds: f64,
    }

    #[derive(Deserialize)]
    pub struct Session {
        name: String,
        settings: Settings,
        generation: u64,
        elapsed: f64,
        population: Vec<Thesis60Tuple>,
        last: Vec<(Thesis60Tuple, Standing)>,
        best_so_far: Option<Thesis60Tuple>,
        history: Vec<GenerationStats>,
    }

    impl Settings {
        /// Today's settings: these and the GA options `ga`.
        pub fn with(self, ga: ga::GaOptions) -> ga::Settings {
            ga::Settings {
                population: self.population,
                games: self.games,
                search: self.search,
                factor: self.factor,
                mutation_chance: self.mutation,
                stop: self.stop,
                seed: self.seed,
                openings: self.openings,
                elite: self.elite,
                newcomers: self.newcomers,
                rules: self.rules,
                ga,
                engine: None,
            }
        }
    }

    impl From<Session> for ga::GaState {
        fn from(s: Session) -> ga::GaState {
            ga::GaState {
                centre: None,
                pending: Default::default(),
                name: s.name,
                settings: s.settings.with(GaOptions::ORIGINAL),
                generation: s.generation,
                elapsed: s.elapsed,
                population: s.population.into_iter().map(|w| w.0).collect(),
                steps: Vec::new(),
                last: s.last.into_iter().map(|(w, st)| (w.0, st)).collect(),
                best_so_far: s.best_so_far.map(|w| w.0),
                history: s
                    .history
                    .into_iter()
                    .map(|h| ga::GenerationStats {
                        generation: h.generation,
                        best: h.best,
                        mean: h.mean,
                        min: h.min,
                        diversity: h.diversity,
                        duel: h.duel,
                        games: h.games,
                        plies: h.plies,
                        seconds: h.seconds,
                        measure: None,
                        faults: 0,
                        time: None,
                    })
                    .collect(),
                hall: Default::default(),
                bests: Default::default(),
                fitted: None,
                faults: Vec::new(),
                replay: Default::default(),
            }
        }
    }
}
