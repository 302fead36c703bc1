//! Which of a session's settings apply to it, as people read them: a setting the session's
//! tuner or player never uses (the elite of the mean, the transposition table of an outside
//! engine's games, ...) is not among them, so no printer of the settings can show it.

use super::settings::{Method, Selection, Settings, Stop, YardstickKind};

impl YardstickKind {
    /// What the yardstick is, in a few words.
    pub fn description(&self) -> &'static str {
        match self {
            YardstickKind::Material => "men 100, kings 160",
            YardstickKind::Hand => "a hand-made value function",
            YardstickKind::Classic => "a classical hand-written evaluation",
        }
    }
}

impl Settings {
    /// Whether a generation breeds children of selected parents (truncation, roulette or
    /// tournament selection), so that the elite, the newcomers, the mutation and the ranking
    /// noise apply; fit-only copies the fitted vector and the mean draws pairs around its
    /// centre.
    pub fn breeds(&self) -> bool {
        matches!(self.ga.method, Method::Ga(_))
    }

    /// Whether the population plays a tournament among itself, its best then dueling the best
    /// so far (with a hall of fame and endgame games when asked): every method but the mean,
    /// whose mirrored pairs play only themselves and whose best so far is the centres' average.
    pub fn duels(&self) -> bool {
        self.ga.method.mean().is_none()
    }

    /// Whether the games are our searcher's (the evolved weights as its evaluation), so that
    /// its search settings, the fit and the widening apply; an outside engine searches by its
    /// own means.
    pub fn our_search(&self) -> bool {
        self.engine.is_none()
    }

    /// Whether the games are the tuning simulator's, decided by its model without a board: no
    /// depth, openings or draw rules apply, and no game has moves.
    pub fn simulated(&self) -> bool {
        self.engine
            .as_ref()
            .is_some_and(|e| e.sim_model().is_some())
    }

    /// The depth the session's games search to as given (our searcher's, or an outside
    /// engine's own depth); None for the simulator.
    pub fn games_depth(&self) -> Option<u32> {
        match &self.engine {
            None => Some(self.search.depth),
            Some(_) if self.simulated() => None,
            Some(e) => Some(e.depth()),
        }
    }

    /// What the measurements play against: the yardstick's name with what it is.
    pub fn yardstick_text(&self) -> String {
        let what = match &self.engine {
            Some(e) => format!("the engine {} with its declared values", e.engine.name),
            None => self.ga.yardstick.description().to_string(),
        };
        format!("{} ({what})", self.yardstick_name())
    }

    /// The settings that apply to this session, as (label, value) rows for people, in a fixed
    /// order: those of its tuner (breeding, duels, the fit) and of who plays its games (our
    /// searcher, an outside engine, the simulator), and none that the session never uses. What
    /// the report's settings table lists.
    pub fn applied(&self) -> Vec<(&'static str, String)> {
        let g = &self.ga;
        let (breeds, duels, ours) = (self.breeds(), self.duels(), self.our_search());
        let board = !self.simulated();
        let mut rows: Vec<(&'static str, String)> = Vec::new();
        let mut row = |on: bool, label: &'static str, value: String| {
            if on {
                rows.push((label, value));
            }
        };
        if let Some(e) = &self.engine {
            let what = match self.simulated() {
                true => format!("{} (the tuning simulator)", e.engine.name),
                false => format!(
                    "{}, run as {}",
                    e.engine.name,
                    e.engine.program.command.join(" ")
                ),
            };
            row(true, "engine", what);
            row(
                true,
                "parameters",
                format!("{} of the engine's int parameters", e.tuned.len()),
            );
        } else {
            row(true, "parameters", g.params.to_string());
        }
        row(true, "population", self.population.to_string());
        let games = match (duels, self.games) {
            (false, n) => {
                let k = n.max(2).div_ceil(2) * 2;
                format!("each mirrored pair plays only itself, {k} games, colours swapped")
            }
            (true, 0) => "all against all, twice".to_string(),
            (true, n) => format!("{n} per individual"),
        };
        row(true, "tournament games", games);
        match self.engine.as_ref().and_then(|e| e.tc) {
            Some(tc) => row(true, "clock", format!("{tc}, every tuning game")),
            None => {
                if let Some(d) = self.games_depth() {
                    row(true, "search depth", d.to_string());
                }
            }
        }
        let deepen = match g.deepen_at {
            0 => "never".to_string(),
            at => format!("to {} from generation {at}", g.deepen_to),
        };
        row(ours, "deepen", deepen);
        let extension = self.search.capture_extension.to_string();
        row(ours, "capture extension", extension);
        let tt = format!("2^{} entries", self.search.tt_log2);
        row(ours, "transposition table", tt);
        row(
            board,
            "openings",
            format!("{:?}", self.openings).to_lowercase(),
        );
        let selection = match g.method {
            Method::Mean { spread, rate } => format!(
                "{} (mirrored pairs {spread} gene units either way of a centre that moves at \
                 most about {} of that a generation; the answer is the centres' average)",
                g.method,
                rate as f64 / 1000.0
            ),
            s => s.to_string(),
        };
        row(true, "selection", selection);
        row(!duels, "generations in flight", g.in_flight.to_string());
        let noise = match (self.factor, g.method) {
            (0, _) => "none".to_string(),
            (f, Method::Ga(Selection::Truncation)) => {
                format!("a random integer below {f} added to each total to rank the parents and the elite")
            }
            (f, _) => format!("a random integer below {f} added to each total to rank the elite"),
        };
        row(breeds, "ranking noise", noise);
        row(breeds, "mutation chance", self.mutation_chance.to_string());
        row(breeds, "mutation", g.mutation.to_string());
        match (ours, duels) {
            (true, _) => row(true, "initial weight range", format!("+/-{}", g.init_range)),
            // The mean's centre starts at the declared values.
            (false, false) => {}
            (false, true) => row(
                true,
                "initial spread",
                format!("+/-{} gene units around the declared values", g.init_range),
            ),
        }
        row(breeds, "elite", self.elite.to_string());
        row(breeds, "newcomers", self.newcomers.to_string());
        row(duels, "hall of fame", g.hall_of_fame.to_string());
        row(duels, "endgame pairs", g.endgame_pairs.to_string());
        row(duels, "duel games", g.duel_games.to_string());
        row(ours && duels, "fit to the games", self.fit_text());
        let widen = match g.widen_at {
            0 => "never".to_string(),
            at => format!("into {} after generation {at}", g.widen_to),
        };
        row(ours && duels, "widen", widen);
        let measure = match g.measure_every {
            0 => "never".to_string(),
            k => format!(
                "every {k} generations, {} games against {}",
                g.measure_games.div_ceil(2).saturating_mul(2),
                self.yardstick_text()
            ),
        };
        row(true, "measurement", measure);
        let r = &self.rules;
        let rules = format!(
            "{} quiet plies, {}-fold repetition, {} plies at most",
            r.quiet_plies, r.repetitions, r.max_plies
        );
        row(board, "draw rules", rules);
        let stop = match self.stop {
            // An outside engine's session is asked for games (--games-budget): its generations
            // hold about this many.
            Stop::Generations(n) if self.engine.is_some() => {
                let games = (n as f64 * self.games_per_generation()).round();
                format!("after {n} generations (about {games} games)")
            }
            Stop::Generations(n) => format!("after {n} generations"),
            Stop::Seconds(t) => format!("after {t} seconds of evolution"),
        };
        row(true, "stop", stop);
        row(true, "seed", self.seed.to_string());
        rows
    }

    /// Whether the session uses option `name` of `new` and `resume` (`elite`, `duel-games`,
    /// `deepen`, ...: the names of a resume's setting changes) from its next generation on:
    /// breeding's options only where children are bred (`init-range` draws the newcomers),
    /// the duel's, the hall of fame's and the endgame games' under every method but the
    /// mean, our searcher's depth schedule, the fit and the widening only for our weights,
    /// the yardstick only for our weights (an outside engine is measured against its declared
    /// values), the depth, openings and draw rules not for the simulator. Any other: true.
    pub fn option_applies(&self, name: &str) -> bool {
        let (ours, board) = (self.our_search(), !self.simulated());
        match name {
            "factor" | "mutation" | "mutation-kind" | "elite" | "newcomers" | "init-range" => {
                self.breeds()
            }
            "duel-games" | "hall-of-fame" | "endgame-pairs" => self.duels(),
            "deepen" | "yardstick" => ours,
            "in-flight" => !self.duels(),
            "fit-every" | "fit-top" | "fit-replay" | "fit-blend" | "widen" => ours && self.duels(),
            "depth" | "openings" | "max-plies" | "quiet-plies" => board,
            _ => true,
        }
    }

    /// The fit, in words: never, or when, from which games, with its replay and blend.
    fn fit_text(&self) -> String {
        let g = &self.ga;
        let when = match g.fit_every {
            0 => return "never".to_string(),
            1 => "every generation".to_string(),
            k => format!("every {k} generations"),
        };
        let games = match g.fit_top {
            0 => String::new(),
            top => format!(" to the games among the {top} best"),
        };
        let fitted = match g.method {
            Method::FitOnly => "the whole next population",
            _ => "a newcomer",
        };
        let mut s = format!("{when}{games}, the fitted vector {fitted}");
        if g.fit_replay > 1 {
            s.push_str(&format!(
                "; from the games of the last {} fitting generations",
                g.fit_replay
            ));
        }
        if g.fit_blend > 0 {
            s.push_str(&format!(
                "; each target {}% the value of a depth-{} search",
                g.fit_blend, g.fit_blend_depth
            ));
        }
        s
    }
}
