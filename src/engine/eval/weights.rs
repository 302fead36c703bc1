//! Parameter sets ([`ParamSet`]) and weight vectors ([`Weights`], the genotype), with their
//! forms in checkpoints (serde).

use super::names::{
    board_input_name, board_len, board_params, engine_params, net_len, net_params, phased_params,
    Param, ALL_PARAMS, BOARD_INPUTS, MAX_HIDDEN, NUM_ALL, NUM_PARAMS, PARAMS,
};
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The hidden units of `net66` when the name gives none.
pub const DEFAULT_HIDDEN: u8 = 8;
/// The hidden units of `board` when the name gives none.
pub const DEFAULT_BOARD_HIDDEN: u8 = 32;
/// The most weights any parameter set has (the board network with [`MAX_HIDDEN`] units).
pub const MAX_WEIGHTS: usize = board_len(MAX_HIDDEN);

/// Which parameters a weight vector weighs.
///
/// Serialized (checkpoints) as an enum whose variants keep their order, so older checkpoints
/// load; a `Net66` read from a file is checked to have 1..=[`MAX_HIDDEN`] units.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(try_from = "ParamSetRepr")]
pub enum ParamSet {
    /// The 60 parameters of the thesis, in its order.
    #[default]
    Thesis60,
    /// The 60 and six endgame parameters (king chase, a weaker king's distance from the double
    /// corners, trading when ahead).
    Endgame66,
    /// Two weights for each of the 66, one for the opening and one for the endgame, mixed by
    /// the pieces left: `(open * n + end * (24 - n)) / 24` with `n` pieces on the board (at
    /// most 24). Opening weights first, then endgame weights.
    Phased132,
    /// The 66 weighted and summed as in `Endgame66`, plus a network over the same 66 values
    /// with this many hidden units (1..=[`MAX_HIDDEN`]): each unit clamps its weighted sum plus
    /// bias (shifted right by `NET_SHIFT`) to `0..=``NET_ACT_MAX`, and the units' activations
    /// times the output weights are added to the sum. Weights: the 66, then per unit its 66
    /// input weights and its bias, then the output weights ([`net_len`]).
    Net66(u8),
    /// The `int` parameters of an outside engine, this many (1..=`MAX_WEIGHTS`): their
    /// names, ranges and how a weight stands for a value are the session's (an `EngineSpec`).
    /// Never evaluated here (the engine plays its own games): [`crate::evaluate`] gives 0.
    Engine(u16),
    /// The 66 weighted and summed as in `Endgame66`, plus a network over the board with this
    /// many hidden units (1..=[`MAX_HIDDEN`]): its inputs are the pieces on the squares (own
    /// man, own king, opponent man, opponent king, the board turned for White so that a side's
    /// men always advance the same way) and whether the evaluated player is to move; each unit
    /// clamps its bias plus the weights of the inputs present (shifted right by `NET_SHIFT`)
    /// to `0..=``NET_ACT_MAX`, and the activations times the output weights are added to the
    /// sum. The units' sums are kept up to date as a search makes moves. Weights: the 66, then
    /// each input's weights into the units, then the biases, then the output weights
    /// ([`board_len`]).
    Board(u8),
}

/// [`ParamSet`] as stored, before its hidden units are checked.
#[derive(Deserialize)]
enum ParamSetRepr {
    Thesis60,
    Endgame66,
    Phased132,
    Net66(u8),
    Engine(u16),
    Board(u8),
}

impl TryFrom<ParamSetRepr> for ParamSet {
    type Error = String;
    fn try_from(r: ParamSetRepr) -> Result<ParamSet, String> {
        Ok(match r {
            ParamSetRepr::Thesis60 => ParamSet::Thesis60,
            ParamSetRepr::Endgame66 => ParamSet::Endgame66,
            ParamSetRepr::Phased132 => ParamSet::Phased132,
            ParamSetRepr::Net66(h) if (1..=MAX_HIDDEN).contains(&(h as usize)) => {
                ParamSet::Net66(h)
            }
            ParamSetRepr::Net66(h) => {
                return Err(format!(
                    "net66 with {h} hidden units (expected 1..={MAX_HIDDEN})"
                ))
            }
            ParamSetRepr::Engine(n) if (1..=MAX_WEIGHTS).contains(&(n as usize)) => {
                ParamSet::Engine(n)
            }
            ParamSetRepr::Engine(n) => {
                return Err(format!(
                    "an outside engine's set of {n} parameters (expected 1..={MAX_WEIGHTS})"
                ))
            }
            ParamSetRepr::Board(h) if (1..=MAX_HIDDEN).contains(&(h as usize)) => {
                ParamSet::Board(h)
            }
            ParamSetRepr::Board(h) => {
                return Err(format!(
                    "board with {h} hidden units (expected 1..={MAX_HIDDEN})"
                ))
            }
        })
    }
}

/// The names of the network sets, `net66:1` to `net66:32`.
const NET_NAMES: [&str; MAX_HIDDEN] = [
    "net66:1", "net66:2", "net66:3", "net66:4", "net66:5", "net66:6", "net66:7", "net66:8",
    "net66:9", "net66:10", "net66:11", "net66:12", "net66:13", "net66:14", "net66:15", "net66:16",
    "net66:17", "net66:18", "net66:19", "net66:20", "net66:21", "net66:22", "net66:23", "net66:24",
    "net66:25", "net66:26", "net66:27", "net66:28", "net66:29", "net66:30", "net66:31", "net66:32",
];

/// The names of the board network sets, `board:1` to `board:32`.
const BOARD_NAMES: [&str; MAX_HIDDEN] = [
    "board:1", "board:2", "board:3", "board:4", "board:5", "board:6", "board:7", "board:8",
    "board:9", "board:10", "board:11", "board:12", "board:13", "board:14", "board:15", "board:16",
    "board:17", "board:18", "board:19", "board:20", "board:21", "board:22", "board:23", "board:24",
    "board:25", "board:26", "board:27", "board:28", "board:29", "board:30", "board:31", "board:32",
];

impl ParamSet {
    /// One set of each kind (the networks with their default [`DEFAULT_HIDDEN`] and
    /// [`DEFAULT_BOARD_HIDDEN`] units).
    pub const ALL: [ParamSet; 5] = [
        ParamSet::Thesis60,
        ParamSet::Endgame66,
        ParamSet::Phased132,
        ParamSet::Net66(DEFAULT_HIDDEN),
        ParamSet::Board(DEFAULT_BOARD_HIDDEN),
    ];

    /// Every set: the three linear ones, then the network with 1 to [`MAX_HIDDEN`] units, then
    /// the board network with as many.
    pub fn every() -> impl Iterator<Item = ParamSet> {
        ParamSet::ALL[..3]
            .iter()
            .copied()
            .chain((1..=MAX_HIDDEN as u8).map(ParamSet::Net66))
            .chain((1..=MAX_HIDDEN as u8).map(ParamSet::Board))
    }

    /// The number of weights.
    pub const fn len(self) -> usize {
        match self {
            ParamSet::Thesis60 => NUM_PARAMS,
            ParamSet::Endgame66 => NUM_ALL,
            ParamSet::Phased132 => 2 * NUM_ALL,
            ParamSet::Net66(h) => net_len(h as usize),
            ParamSet::Engine(n) => n as usize,
            ParamSet::Board(h) => board_len(h as usize),
        }
    }

    /// The network's hidden units (0 for the linear sets).
    pub const fn hidden(self) -> usize {
        match self {
            ParamSet::Net66(h) | ParamSet::Board(h) => h as usize,
            _ => 0,
        }
    }

    /// Whether the set is a board network (`board:H`).
    pub const fn is_board(self) -> bool {
        matches!(self, ParamSet::Board(_))
    }

    /// Never: every set has weights (for clippy's len-without-is-empty).
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The set's name in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            ParamSet::Thesis60 => "thesis60",
            ParamSet::Endgame66 => "endgame66",
            ParamSet::Phased132 => "phased132",
            ParamSet::Net66(h) => NET_NAMES[h as usize - 1],
            ParamSet::Engine(_) => "engine",
            ParamSet::Board(h) => BOARD_NAMES[h as usize - 1],
        }
    }

    /// The set with this name (`net66` alone is `net66:8`, `board` alone `board:32`).
    pub fn from_name(name: &str) -> Option<ParamSet> {
        if name == "net66" {
            return Some(ParamSet::Net66(DEFAULT_HIDDEN));
        }
        if name == "board" {
            return Some(ParamSet::Board(DEFAULT_BOARD_HIDDEN));
        }
        ParamSet::every().find(|s| s.name() == name)
    }

    /// The set with this many weights.
    pub fn from_len(n: usize) -> Option<ParamSet> {
        ParamSet::every().find(|s| s.len() == n)
    }

    /// Its parameters, in weight order: a name and a description each.
    pub fn params(self) -> &'static [Param] {
        match self {
            ParamSet::Thesis60 => &PARAMS,
            ParamSet::Endgame66 => &ALL_PARAMS,
            ParamSet::Phased132 => phased_params(),
            ParamSet::Net66(h) => net_params(h as usize),
            ParamSet::Engine(n) => engine_params(n as usize),
            ParamSet::Board(h) => board_params(h as usize),
        }
    }

    /// The index of the parameter with this name.
    pub fn index_of(self, name: &str) -> Option<usize> {
        if let ParamSet::Board(h) = self {
            return board_index_of(h as usize, name);
        }
        let ParamSet::Net66(h) = self else {
            return self.params().iter().position(|p| p.name == name);
        };
        // Read the index off the name (a network has hundreds of weights), then check it.
        let h = h as usize;
        let unit = |rest: &str| -> Option<usize> {
            rest.parse::<usize>().ok().filter(|j| (1..=h).contains(j))
        };
        let i = if let Some(rest) = name.strip_prefix("hidden") {
            let (j, what) = rest.split_once('.')?;
            let base = NUM_ALL + (unit(j)? - 1) * (NUM_ALL + 1);
            if what == "bias" {
                base + NUM_ALL
            } else {
                base + ALL_PARAMS.iter().position(|p| p.name == what)?
            }
        } else if let Some(j) = name.strip_prefix("out") {
            NUM_ALL + h * (NUM_ALL + 1) + unit(j)? - 1
        } else {
            ALL_PARAMS.iter().position(|p| p.name == name)?
        };
        (self.params()[i].name == name).then_some(i)
    }
}

/// The index of the board set's parameter `name` with `h` units, read off the name (thousands
/// of weights), then checked.
fn board_index_of(h: usize, name: &str) -> Option<usize> {
    let unit = |rest: &str| -> Option<usize> {
        rest.parse::<usize>().ok().filter(|j| (1..=h).contains(j))
    };
    let i = if let Some((input, j)) = name.split_once('>') {
        let input = (0..BOARD_INPUTS).find(|&i| board_input_name(i) == input)?;
        NUM_ALL + input * h + unit(j)? - 1
    } else if let Some(rest) = name.strip_prefix("hidden") {
        let j = rest.strip_suffix(".bias")?;
        NUM_ALL + BOARD_INPUTS * h + unit(j)? - 1
    } else if let Some(j) = name.strip_prefix("out") {
        NUM_ALL + (BOARD_INPUTS + 1) * h + unit(j)? - 1
    } else {
        ALL_PARAMS.iter().position(|p| p.name == name)?
    };
    (ParamSet::Board(h as u8).params()[i].name == name).then_some(i)
}

impl fmt::Display for ParamSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A parameter set's name that names none (the name given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown parameter set '{0}' (expected thesis60, endgame66, phased132, net66[:H] or \
     board[:H] with H hidden units in 1..={MAX_HIDDEN})"
)]
pub struct UnknownParamSet(pub String);

impl std::str::FromStr for ParamSet {
    type Err = UnknownParamSet;
    fn from_str(s: &str) -> Result<Self, UnknownParamSet> {
        ParamSet::from_name(s).ok_or_else(|| UnknownParamSet(s.to_string()))
    }
}

/// A weight vector: the genotype the GA evolves, for one [`ParamSet`] (weight `i` multiplies
/// parameter `set.params()[i]`). `Copy`; the unused tail is always 0 (equality, hashing and
/// `Debug` look only at the set's weights).
#[derive(Clone, Copy)]
pub struct Weights {
    set: ParamSet,
    /// The weights, the unused tail 0 (read directly by the evaluation: a fixed-size array
    /// lets it fold each weight's index at compile time).
    pub(super) w: [i16; MAX_WEIGHTS],
}

impl Weights {
    /// Weights of the thesis's 60 parameters.
    pub const fn thesis(values: [i16; NUM_PARAMS]) -> Weights {
        let mut w = [0i16; MAX_WEIGHTS];
        let mut i = 0;
        while i < NUM_PARAMS {
            w[i] = values[i];
            i += 1;
        }
        Weights {
            set: ParamSet::Thesis60,
            w,
        }
    }

    /// Weights of `set` from its values (None when the count is not the set's).
    pub fn new(set: ParamSet, values: &[i16]) -> Option<Weights> {
        if values.len() != set.len() {
            return None;
        }
        let mut w = [0i16; MAX_WEIGHTS];
        w[..values.len()].copy_from_slice(values);
        Some(Weights { set, w })
    }

    /// A random weight vector of the 60: each weight uniform over the whole `i16` range.
    pub fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Weights {
        Weights::random_of(ParamSet::Thesis60, rng)
    }

    /// A random weight vector of `set`: each weight uniform over the whole `i16` range.
    pub fn random_of<R: rand::Rng + ?Sized>(set: ParamSet, rng: &mut R) -> Weights {
        let mut w = Weights::zero_of(set);
        for x in w.values_mut() {
            // The high 16 bits of a uniform u32 are a uniform u16, reinterpreted as i16.
            *x = (rng.next_u32() >> 16) as u16 as i16;
        }
        w
    }

    /// All 60 weights 0.
    pub const fn zero() -> Weights {
        Weights::zero_of(ParamSet::Thesis60)
    }

    /// All weights of `set` 0.
    pub const fn zero_of(set: ParamSet) -> Weights {
        Weights {
            set,
            w: [0; MAX_WEIGHTS],
        }
    }

    /// The parameter set the weights are of.
    pub const fn set(&self) -> ParamSet {
        self.set
    }

    /// The number of weights (the set's).
    pub const fn len(&self) -> usize {
        self.set.len()
    }

    /// Never: every set has weights (for clippy's len-without-is-empty).
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The set's weights, in the order of its parameters.
    pub fn values(&self) -> &[i16] {
        &self.w[..self.set.len()]
    }

    /// The set's weights, to change them.
    pub fn values_mut(&mut self) -> &mut [i16] {
        let n = self.set.len();
        &mut self.w[..n]
    }

    /// The same weights in `to` where `to` holds every parameter of this set (thesis60 into
    /// endgame66 with the endgame weights 0; either into phased132 with equal opening and
    /// endgame weights; either into net66 with every network weight 0, which evaluates as the
    /// weighted sum alone; net66 into net66 with more hidden units, the new units' weights 0;
    /// thesis60 or endgame66 into a board network, every network weight 0; a board network into
    /// one with more units, the new units' weights 0). None otherwise.
    pub fn widen(&self, to: ParamSet) -> Option<Weights> {
        let mut out = Weights::zero_of(to);
        match (self.set, to) {
            (a, b) if a == b => return Some(*self),
            (ParamSet::Thesis60, ParamSet::Endgame66)
            | (ParamSet::Thesis60 | ParamSet::Endgame66, ParamSet::Net66(_)) => {
                out.w[..self.len()].copy_from_slice(self.values())
            }
            (ParamSet::Net66(a), ParamSet::Net66(b)) if a < b => {
                let (a, b) = (a as usize, b as usize);
                let units = NUM_ALL + a * (NUM_ALL + 1);
                out.w[..units].copy_from_slice(&self.w[..units]);
                let (from_out, to_out) = (units, NUM_ALL + b * (NUM_ALL + 1));
                out.w[to_out..to_out + a].copy_from_slice(&self.w[from_out..from_out + a]);
            }
            (ParamSet::Thesis60 | ParamSet::Endgame66, ParamSet::Board(_)) => {
                out.w[..self.len()].copy_from_slice(self.values())
            }
            (ParamSet::Board(a), ParamSet::Board(b)) if a < b => {
                let (a, b) = (a as usize, b as usize);
                out.w[..NUM_ALL].copy_from_slice(&self.w[..NUM_ALL]);
                // Every input row, the biases and the outputs: the first `a` of each `b`.
                for row in 0..BOARD_INPUTS + 2 {
                    out.w[NUM_ALL + row * b..][..a]
                        .copy_from_slice(&self.w[NUM_ALL + row * a..][..a]);
                }
            }
            (ParamSet::Thesis60 | ParamSet::Endgame66, ParamSet::Phased132) => {
                let n = self.len();
                out.w[..n].copy_from_slice(self.values());
                out.w[NUM_ALL..NUM_ALL + n].copy_from_slice(self.values());
            }
            _ => return None,
        }
        Some(out)
    }
}

impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        self.set == other.set && self.values() == other.values()
    }
}

impl Eq for Weights {}

impl std::hash::Hash for Weights {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.set.hash(state);
        self.values().hash(state);
    }
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Weights")
            .field("set", &self.set)
            .field("w", &self.values())
            .finish()
    }
}

impl std::ops::Index<usize> for Weights {
    type Output = i16;
    fn index(&self, i: usize) -> &i16 {
        &self.values()[i]
    }
}

impl std::ops::IndexMut<usize> for Weights {
    fn index_mut(&mut self, i: usize) -> &mut i16 {
        &mut self.values_mut()[i]
    }
}

/// Material only: own man +100, own king +160, opponent man -100, opponent king -160 (the
/// built-in `material` set and the default yardstick).
pub const fn material() -> Weights {
    let mut w = [0i16; NUM_PARAMS];
    w[0] = 100;
    w[1] = 160;
    w[2] = -100;
    w[3] = -160;
    Weights::thesis(w)
}

impl Default for Weights {
    fn default() -> Self {
        Weights::zero()
    }
}

/// Serialized as the set, then its weights as a sequence (checkpoints).
impl Serialize for Weights {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut t = serializer.serialize_tuple(2)?;
        t.serialize_element(&self.set)?;
        t.serialize_element(self.values())?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Weights {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Weights, D::Error> {
        let (set, values): (ParamSet, Vec<i16>) = Deserialize::deserialize(deserializer)?;
        if values.len() != set.len() {
            return Err(de::Error::invalid_length(
                values.len(),
                &format!("{} weights of {set}", set.len()).as_str(),
            ));
        }
        Ok(Weights::new(set, &values).expect("length checked"))
    }
}

/// The 60 weights as the first checkpoint format stored them: a fixed tuple of 60 `i16`.
pub struct Thesis60Tuple(pub Weights);

impl<'de> Deserialize<'de> for Thesis60Tuple {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Thesis60Tuple, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Thesis60Tuple;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a sequence of {NUM_PARAMS} i16 weights")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Thesis60Tuple, A::Error> {
                let mut w = [0i16; NUM_PARAMS];
                for (i, x) in w.iter_mut().enumerate() {
                    *x = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?;
                }
                Ok(Thesis60Tuple(Weights::thesis(w)))
            }
        }
        deserializer.deserialize_tuple(NUM_PARAMS, V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn random_weights_cover_the_range() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let (mut lo, mut hi) = (0i16, 0i16);
        for _ in 0..1000 {
            let w = Weights::random(&mut r);
            lo = lo.min(*w.values().iter().min().unwrap());
            hi = hi.max(*w.values().iter().max().unwrap());
        }
        assert!(lo < -32000 && hi > 32000, "{lo} {hi}");
        assert_eq!(*Weights::zero().values(), [0; NUM_PARAMS]);
    }
}
