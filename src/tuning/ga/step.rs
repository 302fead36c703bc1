//! A generation as the tuner contract's step ([`Tuner`]): its tournament (with the endgame
//! games), the duel of its best against the best so far and the yardstick measurement are up
//! to three batches of games, asked for and told in turn; the next population is bred, and the
//! session changes, only once the whole generation is played. Until then what the step was
//! told waits in [`Pending`], and an abandoned step leaves the session exactly as it was.

use super::breeding::next_population;
use super::generation::GaState;
use super::matches::*;
use super::mean::{pair_results, Centre};
use super::operators::diversity;
use super::pending::*;
use super::records::GenerationStats;
use super::settings::*;
use crate::eval::Weights;
use crate::fit::{self, Positions};
use crate::game::{EndReason, GameOutcome};
use crate::jobs::{self, Batch, Played};
use crate::matchplay::{MatchTally, Wdl};
use crate::replay::Replay;
use crate::rng::{derive, Purpose};
use crate::schedule;
use crate::tournament::{self, GameResult, Standing};
use crate::tuner::Tuner;
use rayon::prelude::*;
use std::time::Instant;

impl Tuner for GaState {
    type Step = GenerationStats;

    fn ask(&self) -> Option<Batch> {
        (!self.finished()).then(|| self.next_batch())
    }

    fn tell(&mut self, batch: &Batch, played: &[Played]) -> Option<GenerationStats> {
        self.told(batch, played)
    }

    fn abandon(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if let Some(narrow) = pending.stage.and_then(|st| st.narrow) {
            self.swap_vectors(narrow);
        }
    }

    fn answer(&self) -> Weights {
        let first = self.population[0];
        match (&self.best_so_far, &self.centre) {
            (Some(b), _) => *b,
            (None, Some(c)) => c.answer(&first),
            (None, None) => first,
        }
    }

    fn games(&self) -> u64 {
        self.games_played()
    }

    /// Under the mean, [`GaOptions::in_flight`] generations (each one batch); 1 otherwise.
    fn in_flight(&self) -> usize {
        match self.centre {
            Some(_) => self.settings.ga.in_flight.max(1) as usize,
            None => 1,
        }
    }

    /// Generation `k` after the next: its pairs' games, the pairs drawn ahead
    /// (the centre's `ahead`).
    fn ask_ahead(&self, k: usize) -> Option<Batch> {
        if k == 0 {
            return self.ask();
        }
        let g = self.generation + 1 + k as u64;
        let past = match self.settings.stop {
            Stop::Generations(n) => g > n,
            Stop::Seconds(s) => self.elapsed >= s,
        };
        if k >= self.in_flight() || past || !self.pending.is_empty() {
            return None;
        }
        let pop = self.centre.as_ref()?.ahead.get(k - 1)?;
        let s = self.generation_settings(g);
        Some(self.tournament_batch(pop, &[], &s, g, false))
    }

    fn phase(&self) -> Option<&'static str> {
        Some(match self.pending.stage.as_ref().map(|st| &st.due) {
            None => "tournament",
            Some(Due::Duel(_)) => "duel",
            Some(Due::Measure) => "measure",
        })
    }
}

impl GaState {
    /// Games played in whole generations: the tournaments with their endgame games, the duels
    /// and the measurements.
    pub fn games_played(&self) -> u64 {
        self.history.iter().map(|h| self.record_games(h)).sum()
    }

    /// The games of one generation's record: its tournament's, its duel's and its
    /// measurement's.
    pub fn record_games(&self, h: &GenerationStats) -> u64 {
        let duel = match h.duel {
            Some(d) if !d.is_same() => self.settings.ga.duel_games as u64,
            _ => 0,
        };
        h.games as u64 + duel + h.measure.map_or(0, |m| m.games())
    }

    /// Plays one generation on the current rayon pool and breeds the next population.
    /// `on_game` is called after every tournament game.
    pub fn run_generation(&mut self, on_game: &(dyn Fn(&GameResult) + Sync)) -> GenerationStats {
        self.run_generation_until(on_game, &|| false)
            .expect("never stopped")
    }

    /// [`GaState::run_generation`] that can be abandoned: `stop` is asked before every game
    /// (tournament, endgame, duel and measurement games). Once it says yes no further game
    /// starts, the generation is abandoned, the session is left exactly as it was, and the
    /// result is `None`; playing the generation again later gives the same result as if it
    /// had never been interrupted. The generation's batches are those [`Tuner::ask`] gives,
    /// whether or not the session is finished.
    pub fn run_generation_until(
        &mut self,
        on_game: &(dyn Fn(&GameResult) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<GenerationStats> {
        loop {
            let batch = self.next_batch();
            // Only the tournament's games are reported, by their pairing.
            let sched = self
                .pending
                .is_empty()
                .then(|| self.schedule(self.generation + 1));
            let on_done = |k: usize, p: &Played| {
                if let Some(pairing) = sched.as_ref().and_then(|s| s.get(k)) {
                    on_game(&tournament::result(pairing, p));
                }
            };
            let phase = Tuner::phase(self).map(schedule::phase);
            let played = jobs::run(&batch, &on_done, stop);
            drop(phase);
            let Some(played) = played else {
                self.abandon();
                return None;
            };
            if let Some(stats) = self.told(&batch, &played) {
                return Some(stats);
            }
        }
    }

    /// Is generation `g` the first after `widen_at`, played widened?
    fn widens(&self, g: u64) -> bool {
        let ga = &self.settings.ga;
        ga.widen_at != 0 && g > ga.widen_at && ga.params != ga.widen_to
    }

    /// The settings generation `g` plays with: the search at its scheduled depth.
    fn generation_settings(&self, g: u64) -> Settings {
        let mut s = self.settings.clone();
        s.search.depth = self.settings.depth_at(g);
        s
    }

    /// The batch the generation under way plays next.
    fn next_batch(&self) -> Batch {
        let g = self.generation + 1;
        let Some(st) = &self.pending.stage else {
            self.pending.started.get_or_init(Instant::now);
            // The first generation after `widen_at` plays widened (the session's vectors are
            // swapped for the widened ones once its tournament is told).
            let wide = self
                .widens(g)
                .then(|| self.widened(self.settings.ga.widen_to).ok())
                .flatten();
            let mut s = self.generation_settings(g);
            let (pop, hall) = match &wide {
                Some(v) => {
                    s.ga.params = v.params;
                    (&v.population[..], v.hall.newest(s.ga.hall_of_fame as usize))
                }
                None => (&self.population[..], self.hall_players()),
            };
            let fitting = s.ga.method.mean().is_none()
                && s.ga.fit_every > 0
                && g.is_multiple_of(s.ga.fit_every);
            return self.tournament_batch(pop, hall, &s, g, fitting);
        };
        match &st.due {
            Due::Duel(pair) => {
                let [challenger, holder] = **pair;
                let run = duel_run(&st.s, g);
                let mut batch = run.batch_of(
                    &contestant("challenger", &challenger, &st.s),
                    &contestant("holder", &holder, &st.s),
                );
                batch.record_moves = false;
                batch
            }
            Due::Measure => {
                let best = st.bred.as_ref().map_or(st.pop[0], |b| b.best);
                let (a, b, settings) = measure_match(&best, &self.settings, g);
                let mut batch = crate::matchplay::MatchRun::of(&settings).batch_of(&a, &b);
                batch.record_moves = false;
                batch
            }
        }
    }

    /// Generation `g`'s tournament, the population `pop` and the hall of fame `hall`, then the
    /// endgame games, as one batch of jobs; with `positions` the games' moves are recorded.
    fn tournament_batch(
        &self,
        pop: &[Weights],
        hall: &[Weights],
        s: &Settings,
        g: u64,
        positions: bool,
    ) -> Batch {
        let mut players = pop.to_vec();
        players.extend_from_slice(hall);
        let sched = self.schedule(g);
        let endgames = endgame_pairings(pop, s, g);
        let mut batch = match &s.engine {
            Some(e) => Batch::of_genomes(e, &players, s.seed, s.rules),
            None => Batch::of_weights(&players, s.search, s.seed, s.rules),
        };
        batch.jobs = tournament::jobs(&sched, s.openings, g);
        batch.jobs.extend(endgame_jobs(&endgames, g));
        batch.record_moves = positions;
        batch
    }

    /// The results of the batch [`GaState::next_batch`] gave: the generation moves on, and
    /// when it is whole, the session takes it and its statistics are the result.
    fn told(&mut self, batch: &Batch, played: &[Played]) -> Option<GenerationStats> {
        let g = self.generation + 1;
        let Some(mut st) = self.pending.stage.take() else {
            return self.told_tournament(batch, played, g);
        };
        match st.due {
            Due::Duel(ref pair) => {
                let challenger = pair[0];
                let pairs = (st.s.ga.duel_games as usize / 2).max(1);
                let [c, h] = MatchTally::of(batch, played).points;
                let replaced = if pairs == 1 { c >= h } else { c > h };
                st.duel = Some(Duel {
                    challenger: c,
                    holder: h,
                    replaced,
                });
                st.new_best = replaced.then_some(challenger);
                self.bred(st)
            }
            Due::Measure => {
                let mut wdl = Wdl::default();
                for (i, p) in played.iter().enumerate() {
                    let a_black = crate::matchplay::MatchRun::a_is_black(i);
                    wdl.add(GameOutcome::points(p.result.map(|r| r.0), a_black) as usize);
                }
                Some(self.commit(*st, Some(wdl)))
            }
        }
    }

    /// The tournament told: the standings, then the duel when one is due, else the breeding.
    fn told_tournament(
        &mut self,
        batch: &Batch,
        played: &[Played],
        g: u64,
    ) -> Option<GenerationStats> {
        let narrow = if self.widens(g) {
            self.widened(self.settings.ga.widen_to)
                .ok()
                .map(|wide| self.swap_vectors(wide))
        } else {
            None
        };
        let s = self.generation_settings(g);
        let pop = self.population.clone();
        let players = pop.len() + self.hall_players().len();
        let sched = self.schedule(g);
        let endgames = endgame_pairings(&pop, &s, g);
        let results: Vec<GameResult> = sched
            .iter()
            .chain(endgames.iter().map(|(pairing, _)| pairing))
            .zip(played)
            .map(|(pairing, p)| tournament::result(pairing, p))
            .collect();
        let fault_count = played
            .iter()
            .filter(|p| matches!(p.result, Some((_, EndReason::Fault(..)))))
            .count();
        let mut standings = tournament::standings(players, &results);
        standings.truncate(pop.len());
        // Each game's positions on its own thread, joined in the games' order: the games
        // between two of the `fit_top` best (all games with 0).
        let positions = batch.record_moves.then(|| {
            let _span = schedule::span("positions", 0);
            let learns = fit_players(&standings, players, s.ga.fit_top);
            let per_game: Vec<Positions> = batch
                .jobs
                .par_iter()
                .zip(played)
                .zip(&results)
                .map(|((job, p), r)| {
                    let mut data = Positions::new(s.ga.params);
                    if learns[r.pairing.black] && learns[r.pairing.white] {
                        let (start, moves) = p.moves_from(batch, &job.start);
                        data.add_game(&start, moves, p.outcome());
                    }
                    data
                })
                .collect();
            let mut data = Positions::new(s.ga.params);
            for g in per_game {
                data.append(g);
            }
            PositionsKept(data)
        });
        let tournament = Tournament {
            results,
            standings,
            faults: batch.fault_lines(played, &|k| format!("individual {}", k + 1)),
            fault_count,
            time: batch.timed().then(|| jobs::time_use(played)),
        };
        let mut st = Box::new(Stage {
            g,
            s,
            pop,
            narrow,
            tournament,
            positions,
            due: Due::Measure,
            duel: None,
            new_best: None,
            bred: None,
        });
        if self.settings.ga.method.mean().is_some() {
            return self.bred(st);
        }
        // The generation's best (the first among equals) against the best so far.
        let points = st.points();
        let best_idx = (0..st.pop.len())
            .max_by_key(|&i| (points[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let challenger = st.pop[best_idx];
        match self.best_so_far {
            None => st.new_best = Some(challenger),
            Some(holder) if holder == challenger => st.duel = Some(Duel::SAME),
            Some(holder) => {
                st.due = Due::Duel(Box::new([challenger, holder]));
                self.pending.stage = Some(st);
                return None;
            }
        }
        self.bred(st)
    }

    /// The next population bred (by the mean, or by selection with the fit), then the
    /// measurement when one is due, else the generation whole.
    fn bred(&mut self, mut st: Box<Stage>) -> Option<GenerationStats> {
        st.bred = Some(match self.settings.ga.method.mean() {
            Some((spread, rate)) => {
                let _span = schedule::span("breed", 1);
                self.bred_by_mean(&st, spread, rate)
            }
            None => self.bred_by_selection(&mut st),
        });
        let g = st.g;
        let due = st.s.ga.measure_every > 0 && g.is_multiple_of(st.s.ga.measure_every);
        if due {
            st.due = Due::Measure;
            self.pending.stage = Some(st);
            return None;
        }
        Some(self.commit(*st, None))
    }

    /// Under [`Method::Mean`]: the pairs' games move the centre; the answer (the centres'
    /// average) is the best so far, the next pairs are drawn around the new centre.
    fn bred_by_mean(&self, st: &Stage, spread: f64, rate: f64) -> Bred {
        let (s, g, pop) = (&st.s, st.g, &st.pop);
        let outcomes = st.tournament.results.iter().map(|r| {
            let black = match r.outcome {
                GameOutcome::BlackWin => 1,
                GameOutcome::WhiteWin => -1,
                GameOutcome::Draw => 0,
            };
            (r.pairing.black, r.pairing.white, black)
        });
        let pairs = pair_results(pop.len() / 2, outcomes);
        let mut centre = self.centre.clone().unwrap_or_else(|| Centre::at(&pop[0]));
        centre.step(s.seed, g, &pairs, spread, rate);
        let best = centre.answer(&pop[0]);
        let next = centre.draw_next(s.seed, g, s.population, spread, &best, s.ga.in_flight);
        Bred {
            best,
            next,
            steps: Vec::new(),
            fitted: None,
            replay: None,
            centre: Some(centre),
        }
    }

    /// By selection: the fit (when the generation fits) from the best so far, then the
    /// children, elite parents and newcomers.
    fn bred_by_selection(&self, st: &mut Stage) -> Bred {
        let (s, g) = (&st.s, st.g);
        let pop = &st.pop;
        let best = st.new_best.or(self.best_so_far).unwrap_or(pop[0]);
        // With a replay, the fit learns from the last generations' positions, this one's
        // last; the session keeps them only once the whole generation is played.
        let mut replay = None;
        let positions = match st.positions.take().map(|p| p.0) {
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
        let start = match s.ga.method {
            Method::FitOnly => pop[0],
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
        // The schedule log's serial `breed` span holds the breeding alone: the fit logs its
        // own spans.
        let span = schedule::span("breed", 1);
        let (next, steps) = next_population(
            pop,
            &self.steps,
            &st.points(),
            best,
            fitted.as_ref().map(|f| f.weights),
            s,
            g,
        );
        drop(span);
        Bred {
            best,
            next,
            steps,
            fitted,
            replay,
            centre: None,
        }
    }

    /// The whole generation taken by the session: its statistics recorded, the next
    /// population in place.
    fn commit(&mut self, st: Stage, measure: Option<Wdl>) -> GenerationStats {
        let started = self.pending.started.take().unwrap_or_else(Instant::now);
        // With generations in flight the next one is under way already: its time runs from
        // this tell.
        if Tuner::in_flight(self) > 1 {
            let _ = self.pending.started.set(Instant::now());
        }
        let points = st.points();
        let Stage {
            g,
            pop,
            tournament,
            duel,
            new_best,
            bred,
            ..
        } = st;
        let bred = bred.expect("bred before it is whole");
        let mut stats = generation_stats(
            g,
            &pop,
            &points,
            &tournament.results,
            duel,
            measure,
            tournament.fault_count,
            started,
        );
        stats.time = tournament.time;
        if let Some(centre) = bred.centre {
            if self.best_so_far != Some(bred.best) {
                self.bests.record(g, bred.best);
            }
            self.best_so_far = Some(bred.best);
            self.centre = Some(centre);
        } else if let Some(b) = new_best {
            self.best_so_far = Some(b);
            self.hall.update(b, self.settings.ga.hall_of_fame as usize);
            self.bests.record(g, b);
        }
        self.last = pop.into_iter().zip(tournament.standings).collect();
        self.population = bred.next;
        self.steps = bred.steps;
        self.generation = g;
        self.elapsed += stats.seconds;
        self.history.record(stats.clone());
        self.fitted = bred.fitted;
        self.faults = tournament.faults;
        if let Some(r) = bred.replay {
            self.replay = r;
        }
        stats
    }
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
