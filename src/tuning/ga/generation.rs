//! The session and its step: one generation played, the next population bred.

use super::breeding::next_population;
use super::matches::*;
use super::mean::{pair_results, Centre};
use super::operators::*;
use super::records::{GenerationStats, HallOfFame, History, Lineage};
use super::settings::*;
use crate::board::Color;
use crate::clock::TimeUse;
use crate::eval::{ParamSet, Weights};
use crate::fit::{self, Fitted, Positions};
use crate::game::EndReason;
use crate::jobs::{self, Batch, Played};
use crate::matchplay::Wdl;
use crate::replay::Replay;
use crate::rng::{derive, Purpose};
use crate::schedule;
use crate::tournament::{self, GameResult, Standing};
use rayon::prelude::*;
use std::time::Instant;

/// What a generation's tournament gives: every game's result, the population's standings, and
/// when the generation fits, the games' quiet positions with their results.
struct Tournament {
    results: Vec<GameResult>,
    standings: Vec<Standing>,
    positions: Option<Positions>,
    /// The games an outside engine lost by a fault or on time, each in a line.
    faults: Vec<String>,
    /// How many of those were faults (the rest were lost on time).
    fault_count: usize,
    /// On a clock: what the games did with it.
    time: Option<TimeUse>,
}

/// The weight vectors of a session, with their set: what widening changes.
struct Vectors {
    params: ParamSet,
    population: Vec<Weights>,
    hall: HallOfFame,
    best_so_far: Option<Weights>,
    last: Vec<(Weights, Standing)>,
}

/// A session: settings, where it stands, and what it has learnt. (Its file formats are in
/// [`crate::store`].)
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The session's name (its folder under the populations directory).
    pub name: String,
    /// Everything that defines the evolution.
    pub settings: Settings,
    /// Generations completed.
    pub generation: u64,
    /// Seconds of evolution so far, over all runs.
    pub elapsed: f64,
    /// The population the next generation will play.
    pub population: Vec<Weights>,
    /// Under [`Mutation::Adaptive`], the step sizes each individual of `population` carries
    /// (empty otherwise; missing ones are a newcomer's).
    pub steps: Vec<Steps>,
    /// The last population that played, with its results (empty before the first generation).
    pub last: Vec<(Weights, Standing)>,
    /// The best individual so far (the holder of the duels); `None` before the first generation.
    pub best_so_far: Option<Weights>,
    /// Every completed generation's statistics, oldest first.
    pub history: History,
    /// The hall of fame: the newest `hall_of_fame` bests so far, oldest first; they play in
    /// every tournament.
    pub hall: HallOfFame,
    /// The best so far each time it changed, with the generation it changed in, oldest first.
    /// With the history's duel column it gives the best so far of every generation (`history
    /// --elo`). Checkpoints of formats 1 and 2 did not keep it: a session continued from one
    /// lacks the changes before.
    pub bests: Lineage,
    /// The fit of the last generation this process played, when it fitted one
    /// ([`GaOptions::fit_every`]); not saved (the fitted vector is in the population).
    pub fitted: Option<Fitted>,
    /// The tournament games of the last generation this process played that an outside
    /// engine lost by a fault or on time, one line each (which game, which side, what it did
    /// and said); not saved (their counts are in the history).
    pub faults: Vec<String>,
    /// The positions of the last generations' learned games, which the fit learns from
    /// ([`GaOptions::fit_replay`]); empty unless the session keeps a replay.
    pub replay: Replay,
    /// Under [`Selection::Mean`], the centre the population is drawn around (None otherwise).
    pub centre: Option<Centre>,
}

impl Session {
    /// A new session with a random first population (of an outside engine: its declared values
    /// first, the others drawn around them).
    pub fn new(name: &str, settings: Settings) -> Session {
        let mut rng = derive(settings.seed, Purpose::Initial, 0, 0);
        let mut population: Vec<Weights> = (0..settings.population)
            .map(|_| newcomer(&settings, &mut rng))
            .collect();
        // An outside engine's session starts from what its author chose, as a tuner does: the
        // declared values are the first individual, the others drawn around them.
        if let (Some(e), Some(first)) = (&settings.engine, population.first_mut()) {
            *first = e.defaults();
        }
        Session::with_population(name, settings, population)
    }

    /// A new session from a given first population (e.g. a population file of the original).
    pub fn with_population(name: &str, settings: Settings, population: Vec<Weights>) -> Session {
        Session {
            name: name.to_string(),
            settings,
            generation: 0,
            elapsed: 0.0,
            population,
            steps: Vec::new(),
            last: Vec::new(),
            best_so_far: None,
            history: History::default(),
            hall: HallOfFame::default(),
            bests: Lineage::default(),
            fitted: None,
            faults: Vec::new(),
            replay: Replay::default(),
            centre: None,
        }
        .centred()
    }

    /// Under [`Selection::Mean`], the session with a centre (when it had none, at the best so
    /// far, or at the first individual before any generation) and the next generation's pairs
    /// drawn around it; otherwise as it is.
    pub fn centred(mut self) -> Session {
        let Some((spread, _)) = self.settings.ga.selection.mean() else {
            return self;
        };
        let Some(&first) = self.population.first() else {
            return self;
        };
        let start = self.best_so_far.unwrap_or(first);
        let centre = self.centre.take().unwrap_or_else(|| Centre::at(&start));
        self.population = centre.population(
            self.settings.seed,
            self.generation + 1,
            self.settings.population,
            spread,
            &first,
        );
        self.centre = Some(centre);
        self
    }

    /// The session's answer: the weights it gives as its result, the best so far (None before
    /// the first generation). What `export` and `show` of a session pick, what its best-weights
    /// file holds, what `match` plays for it, and what the tuning simulator scores
    /// (`tune-sim`): a change of the rule here changes them all.
    pub fn answer(&self) -> Option<Weights> {
        self.best_so_far
    }

    /// Has the stop condition been reached?
    pub fn finished(&self) -> bool {
        match self.settings.stop {
            Stop::Generations(n) => self.generation >= n,
            Stop::Seconds(s) => self.elapsed >= s,
        }
    }

    /// The hall of fame members that play in the next tournament (the newest past bests).
    pub fn hall_players(&self) -> &[Weights] {
        self.hall.newest(self.settings.ga.hall_of_fame as usize)
    }

    /// The next tournament's schedule: the population and the hall of fame (indices from
    /// population.len() on); hall members never meet each other.
    fn schedule(&self, g: u64) -> Vec<tournament::Pairing> {
        let n = self.population.len();
        let h = self.hall_players().len();
        let mut prng = derive(self.settings.seed, Purpose::Pairing, g, 0);
        if self.settings.ga.selection.mean().is_some() {
            return tournament::pair_schedule(n, self.settings.games, &mut prng);
        }
        let mut sched = tournament::schedule(n + h, self.settings.games, &mut prng);
        sched.retain(|p| p.black < n || p.white < n);
        sched
    }

    /// Number of games the next generation's tournament plays.
    pub fn games_per_generation(&self) -> usize {
        self.schedule(self.generation + 1).len()
    }

    /// Plays one generation on the current rayon pool and breeds the next population.
    /// `on_game` is called after every tournament game.
    pub fn run_generation(&mut self, on_game: &(dyn Fn(&GameResult) + Sync)) -> GenerationStats {
        self.run_generation_until(on_game, &|| false)
            .expect("never stopped")
    }

    /// [`Session::run_generation`] that can be abandoned: `stop` is asked before every game
    /// (tournament, endgame and duel games) and before the yardstick measurement. Once it says
    /// yes no further game starts, the generation is abandoned, the session is left exactly as
    /// it was, and the result is `None`; playing the generation again later gives the same
    /// result as if it had never been interrupted.
    pub fn run_generation_until(
        &mut self,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        let g = self.generation + 1;
        let to = self.settings.ga.widen_to;
        if self.settings.ga.widen_at == 0
            || g <= self.settings.ga.widen_at
            || self.settings.ga.params == to
        {
            return self.play_generation(on_game, stop);
        }
        // The first generation after `widen_at`: played widened; if it is abandoned, the
        // session goes back to its vectors as they were (moved aside, not copied).
        let Ok(wide) = self.widened(to) else {
            // Refused by `Settings::validate`: never here.
            return self.play_generation(on_game, stop);
        };
        let narrow = self.swap_vectors(wide);
        let stats = self.play_generation(on_game, stop);
        if stats.is_none() {
            self.swap_vectors(narrow);
        }
        stats
    }

    /// Every weight vector of the session widened into `to` (the same evaluation; a network at
    /// 0), and `to` the session's set from now on. On an error the session is unchanged.
    pub fn widen(&mut self, to: ParamSet) -> Result<(), WidenError> {
        let wide = self.widened(to)?;
        self.swap_vectors(wide);
        Ok(())
    }

    /// The session's weight vectors widened into `to`.
    fn widened(&self, to: ParamSet) -> Result<Vectors, WidenError> {
        let from = self.settings.ga.params;
        let widen = |w: &Weights| w.widen(to).ok_or(WidenError { from, to });
        Ok(Vectors {
            params: to,
            population: self
                .population
                .iter()
                .map(widen)
                .collect::<Result<_, _>>()?,
            hall: self
                .hall
                .iter()
                .map(widen)
                .collect::<Result<Vec<_>, _>>()?
                .into(),
            best_so_far: self.best_so_far.as_ref().map(widen).transpose()?,
            last: self
                .last
                .iter()
                .map(|(w, st)| Ok((widen(w)?, *st)))
                .collect::<Result<_, _>>()?,
        })
    }

    /// Puts `v` in place of the session's weight vectors (and set); gives back those it had.
    fn swap_vectors(&mut self, mut v: Vectors) -> Vectors {
        std::mem::swap(&mut self.settings.ga.params, &mut v.params);
        std::mem::swap(&mut self.population, &mut v.population);
        std::mem::swap(&mut self.hall, &mut v.hall);
        std::mem::swap(&mut self.best_so_far, &mut v.best_so_far);
        std::mem::swap(&mut self.last, &mut v.last);
        v
    }

    /// [`Session::run_generation_until`] without the widening.
    fn play_generation(
        &mut self,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        if let Some((spread, rate)) = self.settings.ga.selection.mean() {
            return self.play_mean(spread, rate, on_game, stop);
        }
        let t = Instant::now();
        let g = self.generation + 1;
        // The tournament, duel and endgame games search to the scheduled depth; measurements
        // stay at the session's depth, so their series is comparable from start to end.
        let mut s = self.settings.clone();
        s.search.depth = self.settings.depth_at(g);
        let pop = self.population.clone();
        let fitting = s.ga.fit_every > 0 && g.is_multiple_of(s.ga.fit_every);
        let Tournament {
            results,
            standings,
            positions,
            faults,
            fault_count,
            time,
        } = self.tournament(&pop, &s, g, fitting, on_game, stop)?;
        let points: Vec<u32> = standings.iter().map(|x| x.points).collect();
        let (duel, new_best) = self.crown(&pop, &points, &s, g, stop)?;
        let best = new_best.or(self.best_so_far).unwrap_or(pop[0]);
        // With a replay, the fit learns from the last generations' positions, this one's
        // last; the session keeps them only once the whole generation is played.
        let mut replay = None;
        let positions = match positions {
            Some(p) if s.ga.fit_replay > 1 => {
                let mut r = self.replay.clone();
                r.add(g, &p, s.ga.fit_replay);
                let all = r.positions(p.set());
                replay = Some(r);
                Some(all)
            }
            // A replay switched off (on resume) is dropped, not carried on unused.
            p => {
                if s.ga.fit_replay <= 1 && !self.replay.is_empty() {
                    replay = Some(Replay::default());
                }
                p
            }
        };
        // Without selection the fit carries the population's vector on, whatever the duel
        // says.
        let start = match s.ga.selection {
            Selection::FitOnly => pop[0],
            _ => best,
        };
        let fitted = positions.and_then(|p| {
            let mut rng = derive(s.seed, Purpose::Fit, g, 0);
            let target = (s.ga.fit_blend > 0).then_some(fit::SearchTarget {
                share: s.ga.fit_blend as f64 / 100.0,
                depth: s.ga.fit_blend_depth,
            });
            fit::fit_to(&start, &p, FIT_POSITIONS, FIT_EPOCHS, target, &mut rng)
        });
        let span = schedule::span("breed", 1);
        let (next, next_steps) = next_population(
            &pop,
            &self.steps,
            &points,
            best,
            fitted.as_ref().map(|f| f.weights),
            &s,
            g,
        );
        drop(span);
        let measure = self.measure_due(&best, &s, g, stop)?;
        let mut stats = generation_stats(g, &pop, &points, &results, duel, measure, fault_count, t);
        stats.time = time;
        // The session changes only once the whole generation is played.
        if let Some(b) = new_best {
            self.best_so_far = Some(b);
            self.hall.update(b, self.settings.ga.hall_of_fame as usize);
            self.bests.record(g, b);
        }
        self.last = pop.into_iter().zip(standings).collect();
        self.population = next;
        self.steps = next_steps;
        self.generation = g;
        self.elapsed += stats.seconds;
        self.history.record(stats.clone());
        self.fitted = fitted;
        self.faults = faults;
        if let Some(r) = replay {
            self.replay = r;
        }
        Some(stats)
    }

    /// The best so far against the yardstick when generation `g` measures (every
    /// `measure_every` generations; not interruptible once started: a few hundred games at the
    /// session's depth): `Some(None)` when it does not measure, `None` when stopped first.
    fn measure_due(
        &self,
        best: &Weights,
        s: &Settings,
        g: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Option<Wdl>> {
        let due = s.ga.measure_every > 0 && g.is_multiple_of(s.ga.measure_every);
        if due && stop() {
            return None;
        }
        Some(due.then(|| {
            let _phase = schedule::phase("measure");
            measure(best, &self.settings, g)
        }))
    }

    /// A generation of [`Selection::Mean`]: the pairs' games, the centre moved, the answer (the
    /// centres' average) the best so far, the next pairs drawn around the new centre.
    fn play_mean(
        &mut self,
        spread: f64,
        rate: f64,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        let t = Instant::now();
        let g = self.generation + 1;
        let mut s = self.settings.clone();
        s.search.depth = self.settings.depth_at(g);
        let pop = self.population.clone();
        let Tournament {
            results,
            standings,
            faults,
            fault_count,
            time,
            ..
        } = self.tournament(&pop, &s, g, false, on_game, stop)?;
        let points: Vec<u32> = standings.iter().map(|x| x.points).collect();
        let span = schedule::span("breed", 1);
        let outcomes = results.iter().map(|r| {
            let black = match r.outcome {
                crate::game::GameOutcome::BlackWin => 1,
                crate::game::GameOutcome::WhiteWin => -1,
                crate::game::GameOutcome::Draw => 0,
            };
            (r.pairing.black, r.pairing.white, black)
        });
        let pairs = pair_results(pop.len() / 2, outcomes);
        let mut centre = self.centre.clone().unwrap_or_else(|| Centre::at(&pop[0]));
        centre.step(s.seed, g, &pairs, spread, rate);
        let best = centre.answer(&pop[0]);
        let next = centre.population(s.seed, g + 1, s.population, spread, &best);
        drop(span);
        let measure = self.measure_due(&best, &s, g, stop)?;
        let mut stats = generation_stats(g, &pop, &points, &results, None, measure, fault_count, t);
        stats.time = time;
        if self.best_so_far != Some(best) {
            self.bests.record(g, best);
        }
        self.best_so_far = Some(best);
        self.last = pop.into_iter().zip(standings).collect();
        self.population = next;
        self.steps = Vec::new();
        self.generation = g;
        self.elapsed += stats.seconds;
        self.history.record(stats.clone());
        self.fitted = None;
        self.faults = faults;
        self.centre = Some(centre);
        Some(stats)
    }

    /// Generation `g`'s tournament: the population and the hall of fame, then the endgame
    /// games, as one batch of jobs (on this process's pool, or spread over an MPI job's
    /// ranks). Every game's result, the population's standings, and with `positions` the
    /// games' quiet positions with their results.
    fn tournament(
        &self,
        pop: &[Weights],
        s: &Settings,
        g: u64,
        positions: bool,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Tournament> {
        let mut players = pop.to_vec();
        players.extend_from_slice(self.hall_players());
        let sched = self.schedule(g);
        let endgames = endgame_pairings(pop, s, g);
        let mut batch = Batch::of_weights(&players, s.seed, s.rules);
        batch.engine = s.engine.clone();
        batch.tc = s.engine.as_ref().and_then(|e| e.tc);
        batch.time_margin = s.engine.as_ref().map(|e| e.time_margin).unwrap_or_default();
        batch.jobs = tournament::jobs(&sched, s.search, s.openings, g);
        batch.jobs.extend(endgame_jobs(&endgames, s.search, g));
        batch.record_moves = positions;
        let on_done = |k: usize, p: &Played| {
            if let Some(pairing) = sched.get(k) {
                on_game(&tournament::result(pairing, p));
            }
        };
        let phase = schedule::phase("tournament");
        let played = jobs::run(&batch, &on_done, stop)?;
        drop(phase);
        let results: Vec<GameResult> = sched
            .iter()
            .chain(endgames.iter().map(|(pairing, _)| pairing))
            .zip(&played)
            .map(|(pairing, p)| tournament::result(pairing, p))
            .collect();
        let faults = fault_lines(&batch, &played);
        let fault_count = played
            .iter()
            .filter(|p| matches!(p.result, Some((_, EndReason::Fault(..)))))
            .count();
        let time = batch.tc.map(|_| jobs::time_use(&played));
        let mut standings = tournament::standings(players.len(), &results);
        standings.truncate(pop.len());
        // Each game's positions on its own thread, joined in the games' order: the games
        // between two of the `fit_top` best (all games with 0).
        let positions = positions.then(|| {
            let _span = schedule::span("positions", 0);
            let learns = fit_players(&standings, players.len(), s.ga.fit_top);
            let per_game: Vec<Positions> = batch
                .jobs
                .par_iter()
                .zip(&played)
                .zip(&results)
                .map(|((job, p), r)| {
                    let mut data = Positions::new(s.ga.params);
                    if learns[r.pairing.black] && learns[r.pairing.white] {
                        let (start, moves) = p.moves_from(&batch, &job.start);
                        data.add_game(&start, moves, p.outcome());
                    }
                    data
                })
                .collect();
            let mut data = Positions::new(s.ga.params);
            for g in per_game {
                data.append(g);
            }
            data
        });
        Some(Tournament {
            results,
            standings,
            positions,
            faults,
            fault_count,
            time,
        })
    }

    /// The generation's best (the first among equals) against the best so far: the duel (None
    /// in the first generation) and the new best so far, if it changes.
    fn crown(
        &self,
        pop: &[Weights],
        points: &[u32],
        s: &Settings,
        g: u64,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<(Option<Duel>, Option<Weights>)> {
        let best_idx = (0..pop.len())
            .max_by_key(|&i| (points[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let challenger = pop[best_idx];
        Some(match self.best_so_far {
            None => (None, Some(challenger)),
            Some(holder) if holder == challenger => (Some(Duel::SAME), None),
            Some(holder) => {
                let d = duel(&challenger, &holder, s, g, stop)?;
                (Some(d), d.replaced.then_some(challenger))
            }
        })
    }

    /// The best so far after each generation of the history, where known: from the changes in
    /// [`Session::bests`] (a generation's best so far changed when its duel replaced it, in
    /// the first generation, and in a generation of the mean that recorded a change); `None` where the change is not recorded (the part of
    /// a session played before checkpoint format 3). The last generation's is `best_so_far`.
    pub fn bests_by_generation(&self) -> Vec<Option<Weights>> {
        let mut changes = self.bests.iter().peekable();
        let mut current = None;
        let n = self.history.len();
        let mut out = Vec::with_capacity(n);
        for (i, h) in self.history.iter().enumerate() {
            while changes.next_if(|(g, _)| *g < h.generation).is_some() {}
            if self.changed_best(i) {
                current = changes
                    .next_if(|(g, _)| *g == h.generation)
                    .map(|(_, w)| *w);
            }
            if i + 1 == n && h.generation == self.generation {
                current = self.best_so_far;
            }
            out.push(current);
        }
        out
    }

    /// Whether the generation at history index `i` may have changed the best so far: its duel
    /// replaced it, or it had no duel: the first generation, or one of [`Selection::Mean`],
    /// whose answer is recorded in [`Session::bests`] whenever it changes (so a later one
    /// without a record kept it).
    fn changed_best(&self, i: usize) -> bool {
        let h = &self.history[i];
        match h.duel {
            Some(d) => d.replaced,
            None if h.generation > 1 => self.bests.iter().any(|(g, _)| *g == h.generation),
            None => true,
        }
    }

    /// The best so far after the generations of the history at the indices `wanted`, where it
    /// can be told: from [`Session::bests_by_generation`], else from `from_checkpoint(g)` (the
    /// checkpoint of generation `g`, when there is one), and from a neighbour whose best so far
    /// is known when the generation between them did not change it.
    pub fn bests_at(
        &self,
        wanted: &[usize],
        mut from_checkpoint: impl FnMut(u64) -> Option<Weights>,
    ) -> Vec<Option<Weights>> {
        let h = &self.history;
        let mut best = self.bests_by_generation();
        let changed = |i: usize| self.changed_best(i);
        let mut want = vec![false; h.len()];
        for &i in wanted {
            if let Some(x) = want.get_mut(i) {
                *x = true;
            }
        }
        for i in (0..h.len()).rev() {
            if best[i].is_some() {
                continue;
            }
            if i + 1 < h.len() && !changed(i + 1) && best[i + 1].is_some() {
                best[i] = best[i + 1];
            } else if want[i] {
                best[i] = from_checkpoint(h[i].generation);
            }
        }
        for i in 1..h.len() {
            if best[i].is_none() && !changed(i) {
                best[i] = best[i - 1];
            }
        }
        best
    }

    /// The newest yardstick measurement of the history, with its generation.
    pub fn last_measure(&self) -> Option<(u64, Wdl)> {
        self.history.last_measure()
    }
}

/// The games of `batch` that an outside engine lost by a fault or on time: which game, which
/// individual with which colour, what it did and what it said.
fn fault_lines(batch: &Batch, played: &[Played]) -> Vec<String> {
    batch
        .jobs
        .iter()
        .zip(played)
        .enumerate()
        .filter_map(|(k, (job, p))| {
            let (c, what) = match p.result {
                Some((_, EndReason::Fault(c, f))) => (c, f.to_string()),
                Some((_, EndReason::Time(c))) => (c, "lost on time".to_string()),
                _ => return None,
            };
            let seat = if c == Color::Black {
                job.black
            } else {
                job.white
            };
            let note = p
                .note
                .as_deref()
                .map(|n| format!(": {n}"))
                .unwrap_or_default();
            Some(format!(
                "game {} ({}), individual {} as {}: {what}{note}",
                k + 1,
                match job.start {
                    crate::jobs::Start::Ballot(n) => format!("ballot opening {}", n + 1),
                    _ => "an ending".to_string(),
                },
                seat.player + 1,
                c.name()
            ))
        })
        .collect()
}

/// Which of `players` (the population, then the hall of fame) the fit learns from: the `top`
/// best of the population by points, the first among equals first (all of them with 0). The
/// hall of fame's past bests count as learned from only when every game is.
pub(super) fn fit_players(standings: &[Standing], players: usize, top: u32) -> Vec<bool> {
    if top == 0 {
        return vec![true; players];
    }
    let mut order: Vec<usize> = (0..standings.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(standings[i].points), i));
    let mut learns = vec![false; players];
    for &i in order.iter().take(top as usize) {
        learns[i] = true;
    }
    learns
}

/// Generation `g`'s statistics: its population `pop`'s `points`, its games, duel, measurement
/// and faults, and its time since `t`.
#[allow(clippy::too_many_arguments)]
fn generation_stats(
    g: u64,
    pop: &[Weights],
    points: &[u32],
    results: &[GameResult],
    duel: Option<Duel>,
    measure: Option<Wdl>,
    faults: usize,
    t: Instant,
) -> GenerationStats {
    GenerationStats {
        generation: g,
        best: points.iter().copied().max().unwrap_or(0),
        mean: points.iter().map(|&p| p as f64).sum::<f64>() / pop.len().max(1) as f64,
        min: points.iter().copied().min().unwrap_or(0),
        diversity: diversity(pop),
        duel,
        games: results.len() as u32,
        plies: results.iter().map(|r| r.plies as u64).sum(),
        seconds: t.elapsed().as_secs_f64(),
        measure,
        faults: faults as u32,
        time: None,
    }
}
