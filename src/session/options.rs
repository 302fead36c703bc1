//! Settings a caller gives over the defaults (a new session) or a checkpoint's (a resumed one),
//! what a resume changed (a new population size among them), and the session folder's keep
//! policy.

use super::{io, SessionError, SessionOptions};
use crate::eval::ParamSet;
use crate::ga::{GaOptions, GaState, Method, Mutation, Settings, Stop, YardstickKind};
use crate::matchplay::OpeningBook;
use crate::store::{self, Keep};
use std::path::Path;

/// Settings given by the caller; None keeps the value underneath (the default of a new
/// session, the checkpoint's of a resumed one).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// Individuals per generation (a multiple of 4).
    pub population: Option<usize>,
    /// Games per individual per generation (0 = all against all, twice).
    pub games: Option<usize>,
    /// Search depth of the tournament games, in plies.
    pub depth: Option<u32>,
    /// Selection noise: totals get a random integer in `[0, factor)` before ranking (0 = none).
    pub factor: Option<u32>,
    /// Chance (0..=1) that a child is mutated.
    pub mutation: Option<f64>,
    /// Stop after this many generations in all.
    pub generations: Option<u64>,
    /// Stop after this many seconds of evolution in all.
    pub time: Option<f64>,
    /// Stop after about this many games in all: as many generations as they buy with the
    /// other settings ([`Settings::generations_for_games`]).
    pub games_budget: Option<u64>,
    /// The openings the tournament games start from.
    pub openings: Option<OpeningBook>,
    /// Parents kept per generation.
    pub elite: Option<usize>,
    /// Fresh random individuals per generation.
    pub newcomers: Option<usize>,
    /// A hard cap on a game's length in plies (0 = none); the game is then a draw.
    pub max_plies: Option<u32>,
    /// Plies without a capture or a man's move that make a draw (80 = the 40-move rule; 0 = off).
    pub quiet_plies: Option<u32>,
    /// The parameter set the weights weigh (new sessions only).
    pub params: Option<ParamSet>,
    /// What makes the next population: the GA with a selection, the fit alone, or the mean
    /// (`--selection`).
    pub method: Option<Method>,
    /// How a child is mutated.
    pub mutation_kind: Option<Mutation>,
    /// Random weights are uniform in `[-init_range, init_range]`.
    pub init_range: Option<u16>,
    /// How many past bests play in every tournament (0 = none).
    pub hall_of_fame: Option<u32>,
    /// From generation G on, depth D (G:D).
    pub deepen: Option<(u64, u32)>,
    /// Endgame pairs per individual and generation.
    pub endgame_pairs: Option<u32>,
    /// Games of the duel between the generation's best and the best so far.
    pub duel_games: Option<u32>,
    /// Measure the best so far against the yardstick every this many generations (0 = never).
    pub measure_every: Option<u64>,
    /// Games of each measurement.
    pub measure_games: Option<u32>,
    /// The engine the best so far is measured against.
    pub yardstick: Option<YardstickKind>,
    /// Fit the best so far to the generation's games every this many generations (0 = never).
    pub fit_every: Option<u64>,
    /// The fit learns only from games between two of the generation's `fit_top` best individuals (0
    /// = every game).
    pub fit_top: Option<u32>,
    /// The fit learns from the positions of the last this many fitting generations.
    pub fit_replay: Option<u32>,
    /// The share (percent) of each fit target that is a search's value, and its depth.
    pub fit_blend: Option<(u32, u32)>,
    /// After generation G, continue as SET (G:SET).
    pub widen: Option<(u64, ParamSet)>,
    /// The mean's generations in flight.
    pub in_flight: Option<u32>,
}

impl Overrides {
    /// The options given, by the names of [`Settings::option_applies`] (the flags without
    /// their `--`), in the order of `--help`.
    pub fn given(&self) -> Vec<&'static str> {
        let o = self;
        [
            ("population", o.population.is_some()),
            ("games", o.games.is_some()),
            ("depth", o.depth.is_some()),
            ("factor", o.factor.is_some()),
            ("mutation", o.mutation.is_some()),
            ("openings", o.openings.is_some()),
            ("elite", o.elite.is_some()),
            ("newcomers", o.newcomers.is_some()),
            ("max-plies", o.max_plies.is_some()),
            ("quiet-plies", o.quiet_plies.is_some()),
            ("mutation-kind", o.mutation_kind.is_some()),
            ("init-range", o.init_range.is_some()),
            ("hall-of-fame", o.hall_of_fame.is_some()),
            ("deepen", o.deepen.is_some()),
            ("endgame-pairs", o.endgame_pairs.is_some()),
            ("duel-games", o.duel_games.is_some()),
            ("yardstick", o.yardstick.is_some()),
            ("fit-every", o.fit_every.is_some()),
            ("fit-top", o.fit_top.is_some()),
            ("fit-replay", o.fit_replay.is_some()),
            ("fit-blend", o.fit_blend.is_some()),
            ("widen", o.widen.is_some()),
            ("in-flight", o.in_flight.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, set)| set.then_some(name))
        .collect()
    }

    /// The settings given that only the GA takes, by their flags' names (without `--`): every
    /// one but the depth, the games budget and the generations in flight, which a one-file
    /// tuner's session takes too (its own command's flags). A one-file tuner started by `new`
    /// refuses them, and with any of them `new --engine` without `--tuner` is the GA's session.
    pub fn ga_only(&self) -> Vec<&'static str> {
        let o = self;
        let mut names = o.given();
        names.retain(|n| !["depth", "in-flight"].contains(n));
        for (name, set) in [
            ("generations", o.generations.is_some()),
            ("time", o.time.is_some()),
            ("params", o.params.is_some()),
            ("selection", o.method.is_some()),
            ("measure-every", o.measure_every.is_some()),
            ("measure-games", o.measure_games.is_some()),
        ] {
            if set {
                names.push(name);
            }
        }
        names
    }

    /// The options given that a session of `settings` does not use (the elite under the mean,
    /// `--deepen` for an outside engine, ...): what it says it leaves aside.
    pub fn unused(&self, settings: &Settings) -> Vec<&'static str> {
        self.given()
            .into_iter()
            .filter(|name| !settings.option_applies(name))
            .collect()
    }

    /// Puts the given settings over `s`. A time limit wins over a generation count.
    pub fn apply(&self, s: &mut Settings) {
        fn set<T: Copy>(to: &mut T, from: Option<T>) {
            if let Some(v) = from {
                *to = v;
            }
        }
        set(&mut s.population, self.population);
        set(&mut s.games, self.games);
        set(&mut s.search.depth, self.depth);
        set(&mut s.factor, self.factor);
        set(&mut s.mutation_chance, self.mutation);
        set(&mut s.stop, self.generations.map(Stop::Generations));
        set(&mut s.stop, self.time.map(Stop::Seconds));
        set(&mut s.openings, self.openings);
        set(&mut s.elite, self.elite);
        set(&mut s.newcomers, self.newcomers);
        set(&mut s.rules.max_plies, self.max_plies);
        set(&mut s.rules.quiet_plies, self.quiet_plies);
        let g = &mut s.ga;
        set(&mut g.params, self.params);
        set(&mut g.method, self.method);
        set(&mut g.mutation, self.mutation_kind);
        set(&mut g.init_range, self.init_range);
        set(&mut g.hall_of_fame, self.hall_of_fame);
        if let Some((at, to)) = self.deepen {
            g.deepen_at = at;
            g.deepen_to = to;
        }
        set(&mut g.endgame_pairs, self.endgame_pairs);
        set(&mut g.duel_games, self.duel_games);
        set(&mut g.measure_every, self.measure_every);
        set(&mut g.measure_games, self.measure_games);
        set(&mut g.yardstick, self.yardstick);
        set(&mut g.fit_every, self.fit_every);
        set(&mut g.fit_top, self.fit_top);
        set(&mut g.fit_replay, self.fit_replay);
        if let Some((share, depth)) = self.fit_blend {
            g.fit_blend = share;
            g.fit_blend_depth = depth;
        }
        if let Some((at, to)) = self.widen {
            g.widen_at = at;
            g.widen_to = to;
        }
        // The mean, chosen now, plays each pair only against itself: what it takes none of
        // is off unless given (a value given is refused by its check).
        if self.method.is_some_and(|m| m.mean().is_some()) {
            if self.hall_of_fame.is_none() {
                g.hall_of_fame = 0;
            }
            if self.fit_every.is_none() {
                g.fit_every = 0;
            }
            if self.endgame_pairs.is_none() {
                g.endgame_pairs = 0;
            }
            if self.widen.is_none() {
                g.widen_at = 0;
            }
        }
        if let Some(games) = self.games_budget {
            s.stop = Stop::Generations(s.generations_for_games(games));
        }
        // Generations in flight: as given (0: the session's default); else kept, but for a
        // session whose other settings now keep none.
        s.ga.in_flight = match self.in_flight {
            Some(0) => crate::ga::default_in_flight(s),
            Some(n) => n,
            None if !crate::ga::keeps_flight(&s.ga) => 1,
            None => s.ga.in_flight,
        };
    }
}

/// A setting a resume changed: `name old -> new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingChange {
    /// The option's name (`population`, `max-plies`, ...).
    pub name: &'static str,
    /// The value before, as shown.
    pub old: String,
    /// The value after, as shown.
    pub new: String,
    /// Whether the session uses the setting from now on ([`Settings::option_applies`]): the
    /// elite of the mean, say, it keeps but never uses.
    pub applies: bool,
}

impl std::fmt::Display for SettingChange {
    /// `name old -> new`, and `(this session does not use it)` when it does not apply.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} -> {}", self.name, self.old, self.new)?;
        if !self.applies {
            f.write_str(" (this session does not use it)")?;
        }
        Ok(())
    }
}

/// The settings that differ between `before` and `after`, in the order of `--help`.
pub(super) fn changes(before: &Settings, after: &Settings) -> Vec<SettingChange> {
    fn deepen(g: &GaOptions) -> String {
        match g.deepen_at {
            0 => "never".to_string(),
            at => format!("{at}:{}", g.deepen_to),
        }
    }
    fn widen(g: &GaOptions) -> String {
        match g.widen_at {
            0 => "never".to_string(),
            at => format!("{at}:{}", g.widen_to),
        }
    }
    fn openings(o: OpeningBook) -> &'static str {
        match o {
            OpeningBook::Ballot => "ballot",
            OpeningBook::Start => "start",
        }
    }
    fn stop(s: &Stop) -> String {
        match s {
            Stop::Generations(g) => format!("after generation {g}"),
            Stop::Seconds(t) => format!("after {t} s"),
        }
    }
    type Show = fn(&Settings) -> String;
    let fields: [(&str, Show); 29] = [
        ("population", |s| s.population.to_string()),
        ("games", |s| s.games.to_string()),
        ("depth", |s| s.search.depth.to_string()),
        ("factor", |s| s.factor.to_string()),
        ("mutation", |s| s.mutation_chance.to_string()),
        ("stop", |s| stop(&s.stop)),
        ("openings", |s| openings(s.openings).into()),
        ("elite", |s| s.elite.to_string()),
        ("newcomers", |s| s.newcomers.to_string()),
        ("max-plies", |s| s.rules.max_plies.to_string()),
        ("quiet-plies", |s| s.rules.quiet_plies.to_string()),
        ("params", |s| s.ga.params.to_string()),
        ("selection", |s| s.ga.method.to_string()),
        ("mutation-kind", |s| s.ga.mutation.to_string()),
        ("init-range", |s| s.ga.init_range.to_string()),
        ("hall-of-fame", |s| s.ga.hall_of_fame.to_string()),
        ("deepen", |s| deepen(&s.ga)),
        ("endgame-pairs", |s| s.ga.endgame_pairs.to_string()),
        ("duel-games", |s| s.ga.duel_games.to_string()),
        ("measure-every", |s| s.ga.measure_every.to_string()),
        ("measure-games", |s| s.ga.measure_games.to_string()),
        ("yardstick", |s| s.ga.yardstick.to_string()),
        ("fit-every", |s| s.ga.fit_every.to_string()),
        ("fit-top", |s| s.ga.fit_top.to_string()),
        ("fit-replay", |s| s.ga.fit_replay.to_string()),
        ("fit-blend", |s| {
            format!("{}:{}", s.ga.fit_blend, s.ga.fit_blend_depth)
        }),
        ("widen", |s| widen(&s.ga)),
        ("in-flight", |s| s.ga.in_flight.to_string()),
        ("seed", |s| s.seed.to_string()),
    ];
    fields
        .into_iter()
        .map(|(name, show)| (name, show(before), show(after)))
        .filter(|(_, old, new)| old != new)
        .map(|(name, old, new)| SettingChange {
            name,
            old,
            new,
            applies: after.option_applies(name),
        })
        .collect()
}

/// The session's keep policy: the run's `keep` and `keep_every` where given, else what the
/// session folder's keep file says (written by the run that last set them), else
/// [`Keep::DEFAULT`]. A run that sets either writes the file, so a later resume keeps what
/// `new --keep 0` asked for.
pub(super) fn keep_policy(dir: &Path, run: &SessionOptions) -> Result<Keep, SessionError> {
    let file = dir.join(store::KEEP_FILE);
    let given = run.keep.is_some() || run.keep_every.is_some();
    let saved = if run.keep.is_some() && run.keep_every.is_some() {
        Keep::DEFAULT // both given: the file is not needed
    } else {
        match std::fs::read_to_string(&file) {
            Ok(text) => Keep::parse(&text).ok_or_else(|| {
                SessionError::Input(format!(
                    "'{}': not a keep policy (expected 'NEWEST EVERY'); remove it or give --keep",
                    file.display()
                ))
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Keep::DEFAULT,
            Err(e) => return Err(io(format!("cannot read '{}'", file.display()))(e)),
        }
    };
    let keep = Keep {
        newest: run.keep.unwrap_or(saved.newest),
        every: run.keep_every.unwrap_or(saved.every),
    };
    if given {
        crate::files::write_atomic(&file, keep.to_text().as_bytes())
            .map_err(io(format!("cannot write '{}'", file.display())))?;
    }
    Ok(keep)
}

/// A new population size on resume. The next population is stored as children, elite (the
/// best so far first), newcomers: a smaller one keeps the elite first, then children, then
/// newcomers; a larger one is filled with random newcomers drawn from the session's generator
/// for this generation.
pub(super) fn resize(s: &mut GaState, before: &Settings) {
    let n = s.settings.population;
    let children = before.population - before.elite - before.newcomers;
    let old = s.population.len();
    // Old indices: elite first, then children, then newcomers.
    let elite_end = (children + before.elite).min(old);
    let kids_end = children.min(old);
    let order: Vec<usize> = (kids_end..elite_end)
        .chain(0..kids_end)
        .chain(elite_end..old)
        .take(n)
        .collect();
    s.population = order.iter().map(|&i| s.population[i]).collect();
    // Steps follow their individuals (the newcomers added below take a newcomer's).
    s.steps = match s.steps.len() == old {
        true => order.iter().map(|&i| s.steps[i]).collect(),
        false => Vec::new(),
    };
    let mut rng = crate::rng::derive(
        s.settings.seed,
        crate::rng::Purpose::Initial,
        s.generation + 1,
        n as u64,
    );
    while s.population.len() < n {
        s.population
            .push(crate::ga::newcomer(&s.settings, &mut rng));
    }
    if !s.steps.is_empty() {
        let newcomer = crate::ga::Steps::initial(s.settings.ga.mutation.sigma());
        s.steps.resize(n, newcomer);
    }
}
