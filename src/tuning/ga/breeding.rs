//! The next population, composed of operators of one shape (each adds its part to a
//! [`Brood`]): children of the selected parents, the elite, newcomers, the fitted vector.

use super::operators::*;
use super::settings::{Method, Mutation, Selection, Settings, Steps};
use crate::eval::Weights;
use crate::rng::{derive, Purpose};
use rand::Rng;

/// Generation `g`'s population `pop` as breeding sees it: its steps, points and noisy ranking.
struct Breeding<'a> {
    pop: &'a [Weights],
    /// Under [`Mutation::Adaptive`], `pop`'s steps (missing ones are a newcomer's).
    steps: &'a [Steps],
    points: &'a [u32],
    genotypes: Genotypes,
    /// By points plus noise, best first ([`noisy_ranking`]).
    ranked: Vec<usize>,
    s: &'a Settings,
    /// A newcomer's steps.
    initial: Steps,
}

impl Breeding<'_> {
    /// The steps of individual `i`: those of the first with its weights.
    fn steps_of(&self, i: usize) -> Steps {
        let first = self.genotypes.first(i);
        self.steps.get(first).copied().unwrap_or(self.initial)
    }

    /// The parents, by the session's selection (population/2 of them, indices into `pop`).
    fn select<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<usize> {
        let count = self.pop.len() / 2;
        match self.s.ga.method {
            Method::Ga(Selection::Truncation) => truncation(&self.genotypes, &self.ranked, count),
            Method::Ga(Selection::Roulette) => roulette_wheel(self.points, count, rng),
            Method::Ga(Selection::Tournament(k)) => tournament_select(self.points, count, k, rng),
            // Never bred: `next_population` copies the fitted vector; the mean draws its
            // pairs around its centre.
            Method::FitOnly | Method::Mean { .. } => Vec::new(),
        }
    }

    /// Children in all but the elite's and the newcomers' places.
    fn children(&self) -> usize {
        self.pop.len() - self.s.elite - self.s.newcomers
    }
}

/// The next population as it is built: individuals with their steps.
struct Brood {
    weights: Vec<Weights>,
    steps: Vec<Steps>,
}

impl Brood {
    fn push(&mut self, w: Weights, steps: Steps) {
        self.weights.push(w);
        self.steps.push(steps);
    }

    /// Children of the selected parents by crossover and mutation.
    fn breed<R: Rng + ?Sized>(&mut self, b: &Breeding, parents: &[usize], rng: &mut R) {
        let weights: Vec<Weights> = parents.iter().map(|&i| b.pop[i]).collect();
        let steps: Vec<Steps> = parents.iter().map(|&i| b.steps_of(i)).collect();
        let (s, kind) = (b.s, b.s.ga.mutation);
        for (w, st) in breed(
            &weights,
            Some(&steps),
            b.children(),
            s.mutation_chance,
            kind,
            rng,
        ) {
            self.push(w, st);
        }
    }

    /// The elite: `best` (the best so far) first, then the best-ranked distinct others, filled
    /// up with the best-ranked (duplicates allowed) when there are too few distinct ones.
    fn keep_elite(&mut self, b: &Breeding, best: Weights) {
        let best_at = b.genotypes.find(&best);
        self.push(best, best_at.map_or(b.initial, |i| b.steps_of(i)));
        let end = b.children() + b.s.elite;
        let mut kept = vec![best_at];
        for &i in &b.ranked {
            if self.weights.len() >= end {
                break;
            }
            let first = Some(b.genotypes.first(i));
            if !kept.contains(&first) {
                kept.push(first);
                self.push(b.pop[i], b.steps_of(i));
            }
        }
        for &i in b
            .ranked
            .iter()
            .cycle()
            .take(end.saturating_sub(self.weights.len()))
        {
            self.push(b.pop[i], b.steps_of(i));
        }
    }

    /// Fresh random individuals up to the population's size.
    fn add_newcomers<R: Rng + ?Sized>(&mut self, b: &Breeding, rng: &mut R) {
        while self.weights.len() < b.pop.len() {
            self.push(newcomer(b.s, rng), b.initial);
        }
    }

    /// The fitted vector in place of the first newcomer (of the last child when there are no
    /// newcomers), with a newcomer's steps.
    fn add_fitted(&mut self, b: &Breeding, fitted: Option<Weights>) {
        let at = match b.s.newcomers {
            0 => b.children().checked_sub(1),
            _ => Some(b.children() + b.s.elite),
        };
        if let (Some(f), Some(at)) = (fitted, at) {
            self.weights[at] = f;
            self.steps[at] = b.initial;
        }
    }
}

/// The next population of generation `g`, whose population `pop` (with `steps`) scored
/// `points`: children of the parents selected by `points`, the elite (`best` first), and
/// newcomers, the first of them `fitted` when given (else the last child). Its steps are empty
/// unless the mutation is [`Mutation::Adaptive`].
pub(super) fn next_population(
    pop: &[Weights],
    steps: &[Steps],
    points: &[u32],
    best: Weights,
    fitted: Option<Weights>,
    s: &Settings,
    g: u64,
) -> (Vec<Weights>, Vec<Steps>) {
    if s.ga.method == Method::FitOnly {
        let next = fitted.unwrap_or(pop[0]);
        return (vec![next; pop.len()], Vec::new());
    }
    let mut rng = derive(s.seed, Purpose::Breeding, g, 0);
    let b = Breeding {
        pop,
        steps,
        points,
        genotypes: Genotypes::of(pop),
        ranked: noisy_ranking(points, s.factor, &mut rng),
        s,
        initial: Steps::initial(s.ga.mutation.sigma()),
    };
    let parents = b.select(&mut rng);
    let mut next = Brood {
        weights: Vec::with_capacity(pop.len()),
        steps: Vec::with_capacity(pop.len()),
    };
    next.breed(&b, &parents, &mut rng);
    next.keep_elite(&b, best);
    next.add_newcomers(&b, &mut rng);
    next.add_fitted(&b, fitted);
    if !matches!(s.ga.mutation, Mutation::Adaptive { .. }) {
        next.steps.clear();
    }
    (next.weights, next.steps)
}
