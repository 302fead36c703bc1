//! The session and its step: one generation played, the next population bred.

use super::mean::Centre;
use super::operators::*;
use super::pending::{Pending, Vectors};
use super::records::{HallOfFame, History, Lineage};
use super::settings::*;
use crate::eval::{ParamSet, Weights};
use crate::fit::Fitted;
use crate::matchplay::Wdl;
use crate::replay::Replay;
use crate::rng::{derive, Purpose};
use crate::tournament::{self, Standing};

/// The GA's state (and the mean's), as [`crate::SpsaState`] and [`crate::CmaesState`] are
/// theirs: a session's name and settings, where it stands, and what it has learnt. (Its file
/// formats are in [`crate::store`].)
#[derive(Clone, Debug, PartialEq)]
pub struct GaState {
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
    /// Under [`Method::Mean`], the centre the population is drawn around (None otherwise).
    pub centre: Option<Centre>,
    /// What the generation under way has been told between its batches (the GA as a
    /// [`Tuner`](crate::Tuner)); empty between generations, and never saved.
    pub pending: Pending,
}

impl GaState {
    /// A new session with a random first population (of an outside engine: its declared values
    /// first, the others drawn around them).
    pub fn new(name: &str, settings: Settings) -> GaState {
        let mut rng = derive(settings.seed, Purpose::Initial, 0, 0);
        let mut population: Vec<Weights> = (0..settings.population)
            .map(|_| newcomer(&settings, &mut rng))
            .collect();
        // An outside engine's session starts from what its author chose, as a tuner does: the
        // declared values are the first individual, the others drawn around them.
        if let (Some(e), Some(first)) = (&settings.engine, population.first_mut()) {
            *first = e.defaults();
        }
        GaState::with_population(name, settings, population)
    }

    /// A new session from a given first population (e.g. a population file of the original).
    pub fn with_population(name: &str, settings: Settings, population: Vec<Weights>) -> GaState {
        GaState {
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
            pending: Pending::default(),
        }
        .centred()
    }

    /// Under [`Method::Mean`], the session with a centre (when it had none, at the best so
    /// far, or at the first individual before any generation) and the next generation's pairs
    /// drawn around it; otherwise as it is.
    pub fn centred(mut self) -> GaState {
        let Some((spread, _)) = self.settings.ga.method.mean() else {
            return self;
        };
        let Some(&first) = self.population.first() else {
            return self;
        };
        let start = self.best_so_far.unwrap_or(first);
        // A centre of another width (the session widened on resume) starts again at the best
        // so far.
        let genes = self.settings.ga.params.len();
        let mut centre = self
            .centre
            .take()
            .filter(|c| c.fits(genes))
            .unwrap_or_else(|| Centre::at(&start));
        self.population = centre.draw_from(
            self.settings.seed,
            self.generation,
            self.settings.population,
            spread,
            &first,
            self.settings.ga.in_flight,
        );
        self.centre = Some(centre);
        self
    }

    /// [`GaState::centred`] on resume, whose settings were `before`: the pairs of the
    /// generations in flight, drawn from earlier centres, stand when the population, the
    /// mean's spread and rate, the parameter set and the generations in flight are as they
    /// were; else all are drawn again from the centre.
    pub fn recentred(self, before: &Settings) -> GaState {
        let (s, b) = (&self.settings, before);
        let kept = s.ga.in_flight > 1
            && (s.population, s.ga.method, s.ga.in_flight, s.ga.params)
                == (b.population, b.ga.method, b.ga.in_flight, b.ga.params);
        if kept {
            self
        } else {
            self.centred()
        }
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

    /// Where it stands, in words, as every tuner's session says it: `generation 10 of 40, 160
    /// games` (on a time limit: `generation 10, 160 games, 95 of 120 s`).
    pub fn progress(&self) -> String {
        let played = self.games_played();
        let games = crate::text::count(played as usize, "game", "games");
        match self.settings.stop {
            Stop::Generations(n) => match self.games_planned() {
                Some(all) => format!(
                    "generation {} of {n}, {played} of {all} games",
                    self.generation
                ),
                None => format!("generation {} of {n}, {games}", self.generation),
            },
            Stop::Seconds(t) => format!(
                "generation {}, {games}, {:.0} of {t} s",
                self.generation, self.elapsed
            ),
        }
    }

    /// The games of the whole session, where they are known before it is played: the mean
    /// without measurements, to a number of generations, plays the same games every
    /// generation, as every other tuner's session knows its games (`64 of 64 games`); None for
    /// the other selections (whose hall of fame fills over the first generations), with
    /// measurements, and on a time limit.
    pub fn games_planned(&self) -> Option<u64> {
        match self.settings.stop {
            Stop::Generations(n)
                if self.settings.ga.method.mean().is_some()
                    && self.settings.ga.measure_every == 0 =>
            {
                Some((self.settings.games_per_generation() as u64).saturating_mul(n))
            }
            _ => None,
        }
    }

    /// A session on a time limit whose time left is less than one generation, which a run
    /// would start and abandon: the seconds left and a generation's (the longest of the last
    /// ones in flight, whose records run from the tell before). None: a generation fits, or
    /// the session has none yet to go by.
    pub fn time_short(&self) -> Option<(f64, f64)> {
        let Stop::Seconds(t) = self.settings.stop else {
            return None;
        };
        self.history.last()?;
        let flight = self.settings.ga.in_flight.max(1) as usize;
        let per = self.history.iter().rev().take(flight).map(|h| h.seconds);
        let generation = per.fold(0.0, f64::max);
        let left = t - self.elapsed;
        (left < generation).then_some((left, generation))
    }

    /// The hall of fame members that play in the next tournament (the newest past bests).
    pub fn hall_players(&self) -> &[Weights] {
        self.hall.newest(self.settings.ga.hall_of_fame as usize)
    }

    /// The next tournament's schedule: the population and the hall of fame (indices from
    /// population.len() on); hall members never meet each other.
    pub(super) fn schedule(&self, g: u64) -> Vec<tournament::Pairing> {
        let n = self.population.len();
        let h = self.hall_players().len();
        let mut prng = derive(self.settings.seed, Purpose::Pairing, g, 0);
        if self.settings.ga.method.mean().is_some() {
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

    /// Every weight vector of the session widened into `to` (the same evaluation; a network at
    /// 0), and `to` the session's set from now on. On an error the session is unchanged.
    pub fn widen(&mut self, to: ParamSet) -> Result<(), WidenError> {
        let wide = self.widened(to)?;
        self.swap_vectors(wide);
        Ok(())
    }

    /// The session's weight vectors widened into `to`.
    pub(super) fn widened(&self, to: ParamSet) -> Result<Vectors, WidenError> {
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
    pub(super) fn swap_vectors(&mut self, mut v: Vectors) -> Vectors {
        std::mem::swap(&mut self.settings.ga.params, &mut v.params);
        std::mem::swap(&mut self.population, &mut v.population);
        std::mem::swap(&mut self.hall, &mut v.hall);
        std::mem::swap(&mut self.best_so_far, &mut v.best_so_far);
        std::mem::swap(&mut self.last, &mut v.last);
        v
    }

    /// The best so far after each generation of the history, where known: from the changes in
    /// [`GaState::bests`] (a generation's best so far changed when its duel replaced it, in
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
    /// replaced it, or it had no duel: the first generation, or one of [`Method::Mean`],
    /// whose answer is recorded in [`GaState::bests`] whenever it changes (so a later one
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
    /// can be told: from [`GaState::bests_by_generation`], else from `from_checkpoint(g)` (the
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
