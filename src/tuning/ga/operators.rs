//! The operators: random individuals, selection, crossover, mutation, and the population's
//! diversity. Each draws from the generator it is given.

use super::settings::{Mutation, Settings, Steps, STEP_RANGE};
use crate::eval::{ParamSet, Weights};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use std::collections::{HashMap, HashSet};

/// A random weight vector of `set`, each weight uniform in `[-range, range]` (the whole `i16`
/// range for 32767 and above, drawn exactly as [`Weights::random_of`]).
pub fn random_weights<R: Rng + ?Sized>(set: ParamSet, range: u16, rng: &mut R) -> Weights {
    if range >= i16::MAX as u16 {
        return Weights::random_of(set, rng);
    }
    let mut w = Weights::zero_of(set);
    let r = range as i32;
    // A network's weights start at an eighth of the range: drawn as wide as the weighted sum's,
    // the network's noise swamps the sum (docs/results.md, "The network set"). A board
    // network, thousands of weights, starts at 0 (the vector plays as its weighted sum
    // alone): random ones only add noise, and the fit starts a zero network itself.
    let (linear, net) = match set {
        ParamSet::Net66(_) => (crate::eval::NUM_ALL, (r / 8).max(1)),
        ParamSet::Board(_) => (crate::eval::NUM_ALL, 0),
        _ => (usize::MAX, r),
    };
    for (i, x) in w.values_mut().iter_mut().enumerate() {
        if i >= linear && net == 0 {
            break;
        }
        let r = if i < linear { r } else { net };
        *x = rng.random_range(-r..=r) as i16;
    }
    w
}

/// A newcomer of a session with settings `s`: [`random_weights`] of its set, or for an outside
/// engine's session (no weights of ours) its declared values, each gene moved by a uniform
/// draw in `-init_range..=init_range` (clamped to the `i16` range, which spans the parameter's
/// declared range).
pub fn newcomer<R: Rng + ?Sized>(s: &Settings, rng: &mut R) -> Weights {
    let range = s.ga.init_range;
    let Some(engine) = &s.engine else {
        return random_weights(s.ga.params, range, rng);
    };
    let mut w = engine.defaults();
    let r = range as i32;
    for x in w.values_mut() {
        let v = *x as i32 + rng.random_range(-r..=r);
        *x = v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    }
    w
}

/// Individuals ordered by total plus a random integer in `[0, factor)` (0: none), best first
/// (ties keep the population order): the noisy ranking of truncation selection and the elite.
pub fn noisy_ranking<R: Rng + ?Sized>(points: &[u32], factor: u32, rng: &mut R) -> Vec<usize> {
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

/// Which individuals of a population share their weights: for each, the index of the first
/// with the same weights (each vector hashed once, instead of compared with every other).
#[derive(Clone, Debug)]
pub struct Genotypes {
    first: Vec<usize>,
    index: HashMap<Weights, usize>,
}

impl Genotypes {
    /// The genotypes of `pop`.
    pub fn of(pop: &[Weights]) -> Genotypes {
        let mut index = HashMap::with_capacity(pop.len());
        let first = pop
            .iter()
            .enumerate()
            .map(|(i, w)| *index.entry(*w).or_insert(i))
            .collect();
        Genotypes { first, index }
    }

    /// The first individual with individual `i`'s weights.
    pub fn first(&self, i: usize) -> usize {
        self.first[i]
    }

    /// The first individual with weights `w`, if any has them.
    pub fn find(&self, w: &Weights) -> Option<usize> {
        self.index.get(w).copied()
    }
}

/// Truncation selection: the first `count` distinct genotypes in `ranked` order, filled up with
/// duplicates (again in ranked order) when there are not enough distinct ones. Indices into
/// the population.
pub fn truncation(genotypes: &Genotypes, ranked: &[usize], count: usize) -> Vec<usize> {
    let mut parents: Vec<usize> = Vec::with_capacity(count);
    let mut taken = HashSet::with_capacity(count);
    for &i in ranked {
        if parents.len() == count {
            break;
        }
        if taken.insert(genotypes.first(i)) {
            parents.push(i);
        }
    }
    let mut k = 0;
    while parents.len() < count && !ranked.is_empty() {
        parents.push(ranked[k % ranked.len()]);
        k += 1;
    }
    parents
}

/// One-point crossover: one cut in `1..len`, tails swapped, two children (of the same set).
pub fn crossover(a: &Weights, b: &Weights, cut: usize) -> (Weights, Weights) {
    let mut c1 = *a;
    let mut c2 = *b;
    c1.values_mut()[cut..].copy_from_slice(&b.values()[cut..]);
    c2.values_mut()[cut..].copy_from_slice(&a.values()[cut..]);
    (c1, c2)
}

/// Children of shuffled pairs of `parents` by one-point crossover, `count` of them; each child is
/// mutated by `kind` with chance `mutation`.
#[cfg_attr(not(test), allow(dead_code))] // used by the unit tests
pub fn breed_with<R: Rng + ?Sized>(
    parents: &[Weights],
    count: usize,
    mutation: f64,
    kind: Mutation,
    rng: &mut R,
) -> Vec<Weights> {
    breed(parents, None, count, mutation, kind, rng)
        .into_iter()
        .map(|(w, _)| w)
        .collect()
}

/// [`breed_with`] for individuals that carry [`Steps`] (`steps[i]` is `parents[i]`'s; None:
/// every parent's are those of a newcomer): each child with its steps, the geometric mean of
/// its parents', adapted when it is mutated by [`Mutation::Adaptive`]. Draws the same numbers
/// as [`breed_with`] for the other kinds.
pub fn breed<R: Rng + ?Sized>(
    parents: &[Weights],
    steps: Option<&[Steps]>,
    count: usize,
    mutation: f64,
    kind: Mutation,
    rng: &mut R,
) -> Vec<(Weights, Steps)> {
    let initial = Steps::initial(kind.sigma());
    let mut children = Vec::with_capacity(count + 1);
    if parents.is_empty() {
        return children;
    }
    let steps_of = |i: usize| steps.and_then(|s| s.get(i).copied()).unwrap_or(initial);
    while children.len() < count {
        let mut order: Vec<usize> = (0..parents.len()).collect();
        order.shuffle(rng);
        for pair in order.chunks(2) {
            if children.len() >= count {
                break;
            }
            let (ia, ib) = (pair[0], *pair.get(1).unwrap_or(&pair[0]));
            let (a, b) = (parents[ia], parents[ib]);
            // A genome of one gene has no cut: its children are its parents (no draw).
            let (c1, c2) = match a.len() {
                0 | 1 => (a, b),
                n => crossover(&a, &b, rng.random_range(1..n)),
            };
            let st = Steps::mean(steps_of(ia), steps_of(ib));
            children.push((c1, st));
            children.push((c2, st));
        }
    }
    children.truncate(count);
    for (c, st) in children.iter_mut() {
        if rng.random_bool(mutation) {
            match kind {
                Mutation::Adaptive { genes, .. } => mutate_adaptive(c, st, genes, rng),
                _ => mutate(c, kind, rng),
            }
        }
    }
    children
}

/// Fitness-proportionate selection: `count` parents, each drawn with probability proportional
/// to its points (uniformly when every individual scored 0). Indices into `points`.
pub fn roulette_wheel<R: Rng + ?Sized>(points: &[u32], count: usize, rng: &mut R) -> Vec<usize> {
    let total: u64 = points.iter().map(|&p| p as u64).sum();
    (0..count)
        .map(|_| {
            if total == 0 {
                return rng.random_range(0..points.len());
            }
            let mut spin = rng.random_range(0..total);
            for (i, &p) in points.iter().enumerate() {
                if spin < p as u64 {
                    return i;
                }
                spin -= p as u64;
            }
            points.len() - 1
        })
        .collect()
}

/// Tournament selection: `count` parents, each the one with the most points among `k` drawn at
/// random (with replacement; the first drawn wins a tie). Indices into `points`.
pub fn tournament_select<R: Rng + ?Sized>(
    points: &[u32],
    count: usize,
    k: u32,
    rng: &mut R,
) -> Vec<usize> {
    (0..count)
        .map(|_| {
            let mut best = rng.random_range(0..points.len());
            for _ in 1..k {
                let c = rng.random_range(0..points.len());
                if points[c] > points[best] {
                    best = c;
                }
            }
            best
        })
        .collect()
}

/// A standard normal draw (Box-Muller on two uniforms of the generator).
fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Mutates one child as `kind` says.
pub fn mutate<R: Rng + ?Sized>(child: &mut Weights, kind: Mutation, rng: &mut R) {
    match kind {
        Mutation::Replace => {
            let i = rng.random_range(0..child.len());
            child[i] = (rng.next_u32() >> 16) as u16 as i16;
        }
        Mutation::Layered { sigma, genes } if child.set().hidden() > 0 => {
            let linear = crate::eval::NUM_ALL;
            for _ in 0..genes {
                let (i, s) = if rng.random_bool(0.5) {
                    (rng.random_range(0..linear), sigma)
                } else {
                    (rng.random_range(linear..child.len()), (sigma / 8).max(1))
                };
                step(child, i, s, rng);
            }
        }
        Mutation::Gauss { sigma, genes } | Mutation::Layered { sigma, genes } => {
            for _ in 0..genes {
                let i = rng.random_range(0..child.len());
                step(child, i, sigma, rng);
            }
        }
        Mutation::Adaptive { sigma, genes } => {
            mutate_adaptive(child, &mut Steps::initial(sigma), genes, rng)
        }
    }
}

/// A self-adaptive mutation ([`Mutation::Adaptive`]): `steps` first change by log-normal
/// factors (the network's only in a network set), then `genes` weights move by them.
pub fn mutate_adaptive<R: Rng + ?Sized>(
    child: &mut Weights,
    steps: &mut Steps,
    genes: u32,
    rng: &mut R,
) {
    let tau = 1.0 / (2.0 * (child.len() as f64).sqrt()).sqrt();
    let adapt = |s: &mut f32, rng: &mut R| {
        let v = *s as f64 * (tau * gaussian(rng)).exp();
        *s = (v as f32).clamp(STEP_RANGE.0, STEP_RANGE.1);
    };
    let net = child.set().hidden() > 0;
    adapt(&mut steps.sum, rng);
    if net {
        adapt(&mut steps.net, rng);
    }
    let linear = crate::eval::NUM_ALL;
    for _ in 0..genes {
        let (i, s) = match net {
            true if rng.random_bool(0.5) => (rng.random_range(linear..child.len()), steps.net),
            true => (rng.random_range(0..linear), steps.sum),
            false => (rng.random_range(0..child.len()), steps.sum),
        };
        step_by(child, i, s as f64, rng);
    }
}

/// Moves weight `i` by a Gaussian step of standard deviation `sigma`, rounded and clamped.
fn step<R: Rng + ?Sized>(child: &mut Weights, i: usize, sigma: u32, rng: &mut R) {
    step_by(child, i, sigma as f64, rng)
}

/// [`step`] of any size.
fn step_by<R: Rng + ?Sized>(child: &mut Weights, i: usize, sigma: f64, rng: &mut R) {
    let step = (gaussian(rng) * sigma).round();
    let v = (child[i] as f64 + step).clamp(i16::MIN as f64, i16::MAX as f64);
    child[i] = v as i16;
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
            for (x, y) in pop[i].values().iter().zip(pop[j].values()) {
                total += (*x as i32 - *y as i32).unsigned_abs() as u64;
            }
        }
    }
    let pairs = (n * (n - 1) / 2) as f64;
    total as f64 / pairs / pop[0].len() as f64 / 65535.0
}
