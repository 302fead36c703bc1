//! The genetic algorithm (SPEC section 5, "ours"): tournament, best-so-far duel, roulette
//! selection over distinct genotypes, one-point crossover with one cut per pair, single-gene
//! mutation, and the next generation made of children, elite parents (the best so far among
//! them) and newcomers.
//!
//! Every random choice of generation `g` comes from generators derived from
//! `(session seed, purpose, g, index)`, so a session resumed from the checkpoint written after
//! generation `g` continues exactly as if it had never stopped, at any thread count.

use crate::eval::{Weights, NUM_PARAMS};
use crate::game::{DrawRules, Outcome};
use crate::matchplay::OpeningBook;
use crate::openings::ballot;
use crate::rng::{derive, Purpose};
use crate::search::SearchConfig;
use crate::tournament::{self, GameResult, Standing};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// When a session stops.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Stop {
    /// After this many generations in all (counting those of earlier runs).
    Generations(u64),
    /// Once this many seconds of evolution in all have passed (checked between generations).
    Seconds(f64),
}

/// The largest population a session accepts (all against all is population^2 games).
pub const MAX_POPULATION: usize = 1024;

/// Everything that defines a session's evolution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Individuals per generation (a multiple of 4).
    pub population: usize,
    /// Games per individual per generation; 0 = all against all, twice.
    pub games: usize,
    pub search: SearchConfig,
    /// Roulette noise: a random integer in `[0, factor)` added to each total (0 = none).
    pub factor: u32,
    /// Chance that a child has one weight replaced by a random one.
    pub mutation: f64,
    pub stop: Stop,
    pub seed: u64,
    pub openings: OpeningBook,
    /// Parents kept, the best so far among them.
    pub elite: usize,
    /// Fresh random individuals per generation.
    pub newcomers: usize,
    pub rules: DrawRules,
}

impl Settings {
    /// Checks the settings a user gave; the message names the bad one.
    pub fn validate(&self) -> Result<(), String> {
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
        if self.search.depth == 0 || self.search.depth > 30 {
            return Err(format!("depth {} must be 1..30", self.search.depth));
        }
        if !(0.0..=1.0).contains(&self.mutation) {
            return Err(format!("mutation chance {} must be in 0..1", self.mutation));
        }
        if self.elite == 0 {
            return Err("elite must be at least 1 (it holds the best so far)".to_string());
        }
        if self.elite + self.newcomers > p {
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
        match self.stop {
            Stop::Generations(0) => Err("--generations must be at least 1".to_string()),
            Stop::Seconds(s) if s.is_nan() || s <= 0.0 => {
                Err("--time must be a positive number of seconds".to_string())
            }
            _ => Ok(()),
        }
    }
}

/// The duel of a generation's best against the best so far (two games, colours swapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    /// Points of the generation's best (2 win, 1 draw), out of 4.
    pub challenger: u32,
    /// Points of the best so far, out of 4.
    pub holder: u32,
    /// Did the generation's best become the best so far?
    pub replaced: bool,
}

/// One generation's statistics, kept in the session's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// 1 for the first generation.
    pub generation: u64,
    pub best: u32,
    pub mean: f64,
    pub min: u32,
    /// Mean absolute difference between two individuals' weights, per weight, over the i16
    /// range (0 = all identical, about 0.33 for uniform random vectors).
    pub diversity: f64,
    /// None in the first generation (there is no best so far yet).
    pub duel: Option<Duel>,
    pub games: u32,
    pub plies: u64,
    /// Wall-clock seconds of the generation.
    pub seconds: f64,
}

/// A session: settings, where it stands, and what it has learnt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub name: String,
    pub settings: Settings,
    /// Generations completed.
    pub generation: u64,
    /// Seconds of evolution so far, over all runs.
    pub elapsed: f64,
    /// The population the next generation will play.
    pub population: Vec<Weights>,
    /// The last population that played, with its results (empty before the first generation).
    pub last: Vec<(Weights, Standing)>,
    pub best_so_far: Option<Weights>,
    pub history: Vec<GenerationStats>,
}

impl Session {
    /// A new session with a random first population.
    pub fn new(name: &str, settings: Settings) -> Session {
        let mut rng = derive(settings.seed, Purpose::Initial, 0, 0);
        let population = (0..settings.population)
            .map(|_| Weights::random(&mut rng))
            .collect();
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
            last: Vec::new(),
            best_so_far: None,
            history: Vec::new(),
        }
    }

    /// Has the stop condition been reached?
    pub fn finished(&self) -> bool {
        match self.settings.stop {
            Stop::Generations(n) => self.generation >= n,
            Stop::Seconds(s) => self.elapsed >= s,
        }
    }

    /// Number of games the next generation's tournament plays.
    pub fn games_per_generation(&self) -> usize {
        let mut rng = derive(self.settings.seed, Purpose::Pairing, self.generation + 1, 0);
        tournament::schedule(self.settings.population, self.settings.games, &mut rng).len()
    }

    /// Plays one generation on the current rayon pool and breeds the next population.
    /// `on_game` is called after every tournament game.
    pub fn run_generation(&mut self, on_game: &(dyn Fn(&GameResult) + Sync)) -> GenerationStats {
        let t = Instant::now();
        let g = self.generation + 1;
        let s = self.settings.clone();
        let seed = s.seed;
        let pop = self.population.clone();
        let n = pop.len();

        // 1. Tournament.
        let mut prng = derive(seed, Purpose::Pairing, g, 0);
        let sched = tournament::schedule(n, s.games, &mut prng);
        let results = tournament::run(
            &pop, &sched, s.search, s.openings, s.rules, seed, g, on_game,
        );
        let standings = tournament::standings(n, &results);
        let points: Vec<u32> = standings.iter().map(|x| x.points).collect();

        // 2. Best of the generation (first index among equals) and the duel.
        let best_idx = (0..n)
            .max_by_key(|&i| (points[i], std::cmp::Reverse(i)))
            .unwrap_or(0);
        let challenger = pop[best_idx];
        let duel = match self.best_so_far {
            None => {
                self.best_so_far = Some(challenger);
                None
            }
            Some(holder) => {
                let d = duel(&challenger, &holder, &s, g);
                if d.replaced {
                    self.best_so_far = Some(challenger);
                }
                Some(d)
            }
        };

        // 3. Selection, crossover, mutation, next generation.
        let mut brng = derive(seed, Purpose::Breeding, g, 0);
        let ranked = roulette_order(&points, s.factor, &mut brng);
        let parents = select_parents(&pop, &ranked, n / 2);
        let n_children = n - s.elite - s.newcomers;
        let mut next = breed(&parents, n_children, s.mutation, &mut brng);
        let best = self.best_so_far.unwrap_or(challenger);
        next.push(best);
        for &i in &ranked {
            if next.len() >= n_children + s.elite {
                break;
            }
            if pop[i] != best && !next[n_children..].contains(&pop[i]) {
                next.push(pop[i]);
            }
        }
        // Too few distinct parents for the elite: fill with the best ranked, duplicates allowed.
        let mut k = 0;
        while next.len() < n_children + s.elite {
            next.push(pop[ranked[k % ranked.len()]]);
            k += 1;
        }
        while next.len() < n {
            next.push(Weights::random(&mut brng));
        }

        let stats = GenerationStats {
            generation: g,
            best: points.iter().copied().max().unwrap_or(0),
            mean: points.iter().map(|&p| p as f64).sum::<f64>() / n.max(1) as f64,
            min: points.iter().copied().min().unwrap_or(0),
            diversity: diversity(&pop),
            duel,
            games: results.len() as u32,
            plies: results.iter().map(|r| r.plies as u64).sum(),
            seconds: t.elapsed().as_secs_f64(),
        };
        self.last = pop.into_iter().zip(standings).collect();
        self.population = next;
        self.generation = g;
        self.elapsed += stats.seconds;
        self.history.push(stats.clone());
        stats
    }
}

/// Individuals ordered by total plus roulette noise in `[0, factor)`, best first (ties keep
/// the population order).
pub fn roulette_order<R: Rng + ?Sized>(points: &[u32], factor: u32, rng: &mut R) -> Vec<usize> {
    let noisy: Vec<u64> = points
        .iter()
        .map(|&p| {
            p as u64
                + if factor > 0 {
                    rng.random_range(0..factor) as u64
                } else {
                    0
                }
        })
        .collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(noisy[i]));
    order
}

/// The first `count` distinct genotypes in `ranked` order, filled up with duplicates (again in
/// ranked order) when there are not enough distinct ones.
pub fn select_parents(pop: &[Weights], ranked: &[usize], count: usize) -> Vec<Weights> {
    let mut parents: Vec<Weights> = Vec::with_capacity(count);
    for &i in ranked {
        if parents.len() == count {
            break;
        }
        if !parents.contains(&pop[i]) {
            parents.push(pop[i]);
        }
    }
    let mut k = 0;
    while parents.len() < count && !ranked.is_empty() {
        parents.push(pop[ranked[k % ranked.len()]]);
        k += 1;
    }
    parents
}

/// One-point crossover: one cut in `1..NUM_PARAMS`, tails swapped, two children.
pub fn crossover(a: &Weights, b: &Weights, cut: usize) -> (Weights, Weights) {
    let mut c1 = *a;
    let mut c2 = *b;
    c1.0[cut..].copy_from_slice(&b.0[cut..]);
    c2.0[cut..].copy_from_slice(&a.0[cut..]);
    (c1, c2)
}

/// Shuffles the parents, pairs them, and makes `count` children by crossover and mutation
/// (reshuffling for more pairs when `count` exceeds the parents).
pub fn breed<R: Rng + ?Sized>(
    parents: &[Weights],
    count: usize,
    mutation: f64,
    rng: &mut R,
) -> Vec<Weights> {
    let mut children = Vec::with_capacity(count + 1);
    if parents.is_empty() {
        return children;
    }
    while children.len() < count {
        let mut order = parents.to_vec();
        order.shuffle(rng);
        for pair in order.chunks(2) {
            if children.len() >= count {
                break;
            }
            let (a, b) = (pair[0], *pair.get(1).unwrap_or(&pair[0]));
            let cut = rng.random_range(1..NUM_PARAMS);
            let (c1, c2) = crossover(&a, &b, cut);
            children.push(c1);
            children.push(c2);
        }
    }
    children.truncate(count);
    for c in children.iter_mut() {
        if rng.random_bool(mutation) {
            let i = rng.random_range(0..NUM_PARAMS);
            c.0[i] = (rng.next_u32() >> 16) as u16 as i16;
        }
    }
    children
}

/// Mean absolute difference between pairs of individuals, per weight, as a share of 65535.
pub fn diversity(pop: &[Weights]) -> f64 {
    let n = pop.len();
    if n < 2 {
        return 0.0;
    }
    let mut total = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            for k in 0..NUM_PARAMS {
                total += (pop[i].0[k] as i32 - pop[j].0[k] as i32).unsigned_abs() as u64;
            }
        }
    }
    let pairs = (n * (n - 1) / 2) as f64;
    total as f64 / pairs / NUM_PARAMS as f64 / 65535.0
}

/// The generation's best plays the best so far twice, colours swapped, from one ballot opening
/// drawn for the duel; the challenger takes over if it scores at least as well.
fn duel(challenger: &Weights, holder: &Weights, s: &Settings, g: u64) -> Duel {
    let mut rng = derive(s.seed, Purpose::Duel, g, 0);
    let opening = rng.random_range(0..ballot().len());
    // The two games (challenger Black, then White) run side by side; each has its own generator.
    let play = |k: u64| {
        let mut grng = derive(s.seed, Purpose::Duel, g, k + 1);
        let (wb, ww) = if k == 0 {
            (challenger, holder)
        } else {
            (holder, challenger)
        };
        tournament::with_searchers(s.search, |sb, sw| {
            tournament::play_game(sb, sw, wb, ww, s.openings, opening, s.rules, &mut grng)
        })
        .result()
        .map(|r| r.0)
    };
    let (first, second) = rayon::join(|| play(0), || play(1));
    let mut pts = (0u32, 0u32);
    for (result, challenger_black) in [(first, true), (second, false)] {
        match (result, challenger_black) {
            (Some(Outcome::BlackWin), true) | (Some(Outcome::WhiteWin), false) => pts.0 += 2,
            (Some(Outcome::BlackWin), false) | (Some(Outcome::WhiteWin), true) => pts.1 += 2,
            _ => {
                pts.0 += 1;
                pts.1 += 1;
            }
        }
    }
    Duel {
        challenger: pts.0,
        holder: pts.1,
        replaced: pts.0 >= pts.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn w(v: i16) -> Weights {
        Weights([v; NUM_PARAMS])
    }

    #[test]
    fn crossover_swaps_tails_at_one_cut() {
        let (c1, c2) = crossover(&w(1), &w(2), 10);
        assert_eq!(&c1.0[..10], &[1; 10]);
        assert_eq!(&c1.0[10..], &[2; 50]);
        assert_eq!(&c2.0[..10], &[2; 10]);
        assert_eq!(&c2.0[10..], &[1; 50]);
    }

    #[test]
    fn roulette_without_noise_sorts_by_points() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(roulette_order(&[3, 9, 1, 9], 0, &mut rng), vec![1, 3, 0, 2]);
    }

    #[test]
    fn parents_are_distinct_while_possible() {
        let pop = vec![w(1), w(1), w(2), w(3)];
        let p = select_parents(&pop, &[0, 1, 2, 3], 2);
        assert_eq!(p, vec![w(1), w(2)]);
        let same = vec![w(5); 4];
        assert_eq!(select_parents(&same, &[0, 1, 2, 3], 2), vec![w(5), w(5)]);
    }

    #[test]
    fn mutation_changes_at_most_one_weight() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let kids = breed(&[w(7), w(7)], 100, 1.0, &mut rng);
        assert_eq!(kids.len(), 100);
        for k in &kids {
            assert!(k.0.iter().filter(|&&x| x != 7).count() <= 1);
        }
        assert!(kids.iter().any(|k| *k != w(7)));
        let none = breed(&[w(7), w(7)], 10, 0.0, &mut rng);
        assert!(none.iter().all(|k| *k == w(7)));
    }

    #[test]
    fn diversity_is_zero_for_clones_and_about_a_third_for_random() {
        assert_eq!(diversity(&[w(4), w(4), w(4)]), 0.0);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let pop: Vec<Weights> = (0..16).map(|_| Weights::random(&mut rng)).collect();
        let d = diversity(&pop);
        assert!((0.28..0.39).contains(&d), "{d}");
    }
}
