//! The evaluation: 60 parameters counted on the board for one player, weighted and summed
//! (the thesis's 60, and the endgame parameters of the larger sets).
//!
//! Every parameter is defined once, in [`eval_trace`], which reports each value to a [`Trace`].
//! [`evaluate`] runs it with a [`WeightedSum`] (value * weight, accumulated), [`features`] with a
//! [`FeatureVector`] (the values themselves), so the search and the feature dump cannot disagree.
//! Everything is computed with bitboard masks, one-step diagonal shifts and popcounts; only the
//! capture parameters (16, 17, 19, 20) walk the jump tree, and only when a capture exists.
//!
//! docs/parameters.md describes every parameter set and parameter for readers of the weights.
//!
//! "The player" P is the side the search maximises, whoever is to move; the opponent is O.
//! Conventions where the thesis leaves room (see the parameter table in [`PARAMS`]):
//! - Rows are counted from a side's own back row (Black: row 0 = squares 1-4; White: row 7 =
//!   squares 29-32). Bottom rows = its 2 nearest rows, middle rows = squares 13-20 for both sides,
//!   top rows = its 3 farthest rows. A side's third row (Black 9-12, White 21-24) is in no band.
//! - Distance to promotion of a man = rows still to advance: 7 - row for Black, row for White.
//! - Movable, lonely, blocking and block lines look only at the board (a movable piece has a
//!   free square to step to, whether or not a capture makes that step illegal).
//! - Moves/captures count legal moves as the move generator does: two jump paths taking the same
//!   pieces are two moves.

use crate::board::{step, Color, Dir, Position, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use crate::movegen;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Number of evaluation parameters (and weights).
pub const NUM_PARAMS: usize = 60;

/// |evaluate(..)| never exceeds this, so a search can put terminal (win/loss) scores beyond it.
///
/// For positions reachable in play the weighted sum stays far below (about 1000 * 32768); the
/// bound only matters for artificial positions, where the sum is saturated to it.
pub const MAX_EVAL: i32 = 1 << 30;

/// Number of endgame parameters that follow the 60 in the larger parameter sets.
pub const NUM_ENDGAME: usize = 6;
/// The 60 parameters and the endgame parameters.
pub const NUM_ALL: usize = NUM_PARAMS + NUM_ENDGAME;
/// The most hidden units of the network set ([`ParamSet::Net66`]).
pub const MAX_HIDDEN: usize = 32;
/// The hidden units of `net66` when the name gives none.
pub const DEFAULT_HIDDEN: u8 = 8;
/// The most weights any parameter set has (the network set with [`MAX_HIDDEN`] units).
pub const MAX_WEIGHTS: usize = net_len(MAX_HIDDEN);
/// The network's inputs (the 66 values) are clamped to `-NET_INPUT_CLAMP..=NET_INPUT_CLAMP`, so
/// a hidden unit's sum stays within an `i32` (66 * 511 * 32768 + 32768 < 2^31); real positions
/// stay far inside it (only the capture counts of artificial positions reach it).
pub const NET_INPUT_CLAMP: i32 = 511;
/// A hidden unit's sum is shifted right by this many bits (divided by 256, rounding down) before
/// the clipped activation.
pub const NET_SHIFT: u32 = 8;
/// A hidden unit's activation is clamped to `0..=NET_ACT_MAX` (a clipped ReLU).
pub const NET_ACT_MAX: i32 = 127;

/// The weights of `net66` with `hidden` units: the 66 linear weights, then per hidden unit its
/// 66 input weights and its bias, then one output weight per hidden unit.
pub const fn net_len(hidden: usize) -> usize {
    NUM_ALL + hidden * (NUM_ALL + 2)
}
/// The number of pieces at which the phased set's mix is all opening weights (24 at the start).
pub const PHASE_PIECES: i64 = 24;

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
    /// bias (shifted right by [`NET_SHIFT`]) to `0..=`[`NET_ACT_MAX`], and the units' activations
    /// times the output weights are added to the sum. Weights: the 66, then per unit its 66
    /// input weights and its bias, then the output weights ([`net_len`]).
    Net66(u8),
}

/// [`ParamSet`] as stored, before its hidden units are checked.
#[derive(Deserialize)]
enum ParamSetRepr {
    Thesis60,
    Endgame66,
    Phased132,
    Net66(u8),
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

impl ParamSet {
    /// One set of each kind (the network with its default [`DEFAULT_HIDDEN`] units).
    pub const ALL: [ParamSet; 4] = [
        ParamSet::Thesis60,
        ParamSet::Endgame66,
        ParamSet::Phased132,
        ParamSet::Net66(DEFAULT_HIDDEN),
    ];

    /// Every set: the three linear ones, then the network with 1 to [`MAX_HIDDEN`] units.
    pub fn every() -> impl Iterator<Item = ParamSet> {
        ParamSet::ALL[..3]
            .iter()
            .copied()
            .chain((1..=MAX_HIDDEN as u8).map(ParamSet::Net66))
    }

    /// The number of weights.
    pub const fn len(self) -> usize {
        match self {
            ParamSet::Thesis60 => NUM_PARAMS,
            ParamSet::Endgame66 => NUM_ALL,
            ParamSet::Phased132 => 2 * NUM_ALL,
            ParamSet::Net66(h) => net_len(h as usize),
        }
    }

    /// The network's hidden units (0 for the linear sets).
    pub const fn hidden(self) -> usize {
        match self {
            ParamSet::Net66(h) => h as usize,
            _ => 0,
        }
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
        }
    }

    /// The set with this name (`net66` alone is `net66:8`).
    pub fn from_name(name: &str) -> Option<ParamSet> {
        if name == "net66" {
            return Some(ParamSet::Net66(DEFAULT_HIDDEN));
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
        }
    }

    /// The index of the parameter with this name.
    pub fn index_of(self, name: &str) -> Option<usize> {
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

impl fmt::Display for ParamSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ParamSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ParamSet::from_name(s).ok_or_else(|| {
            format!(
                "unknown parameter set '{s}' (expected thesis60, endgame66, phased132, or \
                 net66[:H] with H hidden units in 1..={MAX_HIDDEN})"
            )
        })
    }
}

/// A weight vector: the genotype the GA evolves, for one [`ParamSet`] (weight `i` multiplies
/// parameter `set.params()[i]`). `Copy`; the unused tail is always 0 (equality, hashing and
/// `Debug` look only at the set's weights).
#[derive(Clone, Copy)]
pub struct Weights {
    set: ParamSet,
    w: [i16; MAX_WEIGHTS],
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

    pub const fn set(&self) -> ParamSet {
        self.set
    }

    /// The number of weights (the set's).
    pub const fn len(&self) -> usize {
        self.set.len()
    }

    pub const fn is_empty(&self) -> bool {
        false
    }

    pub fn values(&self) -> &[i16] {
        &self.w[..self.set.len()]
    }

    pub fn values_mut(&mut self) -> &mut [i16] {
        let n = self.set.len();
        &mut self.w[..n]
    }

    /// The same weights in `to` where `to` holds every parameter of this set (thesis60 into
    /// endgame66 with the endgame weights 0; either into phased132 with equal opening and
    /// endgame weights; either into net66 with every network weight 0, which evaluates as the
    /// weighted sum alone; net66 into net66 with more hidden units, the new units' weights 0).
    /// None otherwise.
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

/// A parameter's stable short name (used by weight files, `show`, exports) and description.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Param {
    pub name: &'static str,
    pub description: &'static str,
}

const fn p(name: &'static str, description: &'static str) -> Param {
    Param { name, description }
}

/// The 60 parameters in the thesis's order (weight `i` multiplies parameter `PARAMS[i]`).
pub const PARAMS: [Param; NUM_PARAMS] = [
    p("men", "own men"),
    p("kings", "own kings"),
    p("opp_men", "opponent men"),
    p("opp_kings", "opponent kings"),
    p("wall_men", "own men at the wall (border squares)"),
    p("wall_kings", "own kings at the wall (border squares)"),
    p("opp_wall_men", "opponent men at the wall (border squares)"),
    p(
        "opp_wall_kings",
        "opponent kings at the wall (border squares)",
    ),
    p("movable_men", "own men with a non-capturing move"),
    p("movable_kings", "own kings with a non-capturing move"),
    p("opp_movable_men", "opponent men with a non-capturing move"),
    p(
        "opp_movable_kings",
        "opponent kings with a non-capturing move",
    ),
    p("moves", "legal moves of the player (as if to move)"),
    p("opp_moves", "legal moves of the opponent (as if to move)"),
    p("has_capture", "the player has a capture (0/1)"),
    p("captures", "number of capture moves of the player"),
    p(
        "longest_capture",
        "pieces taken by the player's longest capture",
    ),
    p("opp_has_capture", "the opponent has a capture (0/1)"),
    p("opp_captures", "number of capture moves of the opponent"),
    p(
        "opp_longest_capture",
        "pieces taken by the opponent's longest capture",
    ),
    p(
        "promotion_distance",
        "sum of distances of own men to their crowning row",
    ),
    p(
        "opp_promotion_distance",
        "sum of distances of opponent men to their crowning row",
    ),
    p(
        "free_promotion_squares",
        "empty squares on the player's crowning row",
    ),
    p(
        "opp_free_promotion_squares",
        "empty squares on the opponent's crowning row",
    ),
    p("bottom_men", "own men in own bottom rows (own 2 back rows)"),
    p(
        "bottom_kings",
        "own kings in own bottom rows (own 2 back rows)",
    ),
    p(
        "opp_bottom_men",
        "opponent men in the opponent's bottom rows",
    ),
    p(
        "opp_bottom_kings",
        "opponent kings in the opponent's bottom rows",
    ),
    p("middle_men", "own men in the middle rows (squares 13-20)"),
    p(
        "middle_kings",
        "own kings in the middle rows (squares 13-20)",
    ),
    p(
        "opp_middle_men",
        "opponent men in the middle rows (squares 13-20)",
    ),
    p(
        "opp_middle_kings",
        "opponent kings in the middle rows (squares 13-20)",
    ),
    p(
        "top_men",
        "own men in own top rows (the 3 rows nearest the opponent)",
    ),
    p(
        "top_kings",
        "own kings in own top rows (the 3 rows nearest the opponent)",
    ),
    p("opp_top_men", "opponent men in the opponent's top rows"),
    p("opp_top_kings", "opponent kings in the opponent's top rows"),
    p(
        "lonely_men",
        "own men with no piece on any diagonal neighbour",
    ),
    p(
        "lonely_kings",
        "own kings with no piece on any diagonal neighbour",
    ),
    p(
        "opp_lonely_men",
        "opponent men with no piece on any diagonal neighbour",
    ),
    p(
        "opp_lonely_kings",
        "opponent kings with no piece on any diagonal neighbour",
    ),
    p(
        "corner_man",
        "an own man on its back-row single corner (0/1)",
    ),
    p(
        "corner_king",
        "an own king on the opponent's single corner (0/1)",
    ),
    p(
        "double_corner",
        "own men on both squares of the own double corner (0/1)",
    ),
    p(
        "opp_corner_man",
        "an opponent man on its back-row single corner (0/1)",
    ),
    p(
        "opp_corner_king",
        "an opponent king on the player's single corner (0/1)",
    ),
    p(
        "opp_double_corner",
        "opponent men on both squares of its double corner (0/1)",
    ),
    p("triangle", "Triangle pattern, player (0/1)"),
    p("oreo", "Oreo pattern, player (0/1)"),
    p("bridge", "Bridge pattern, player (0/1)"),
    p("dog", "Dog pattern, player (0/1)"),
    p("opp_triangle", "Triangle pattern, opponent (0/1)"),
    p("opp_oreo", "Oreo pattern, opponent (0/1)"),
    p("opp_bridge", "Bridge pattern, opponent (0/1)"),
    p("opp_dog", "Dog pattern, opponent (0/1)"),
    p("blocking", "own pieces right behind an own piece"),
    p(
        "block_lines",
        "own runs of 3 or more pieces on one diagonal",
    ),
    p(
        "longest_block_line",
        "length of the longest own block line (0 if none)",
    ),
    p(
        "opp_blocking",
        "opponent pieces right behind an opponent piece",
    ),
    p(
        "opp_block_lines",
        "opponent runs of 3 or more pieces on one diagonal",
    ),
    p(
        "opp_longest_block_line",
        "length of the longest opponent block line (0 if none)",
    ),
];

/// The 60 and the endgame parameters: the parameters of [`ParamSet::Endgame66`].
pub const ALL_PARAMS: [Param; NUM_ALL] = {
    let mut all = [p("", ""); NUM_ALL];
    let mut i = 0;
    while i < NUM_PARAMS {
        all[i] = PARAMS[i];
        i += 1;
    }
    let endgame = ENDGAME_PARAMS;
    let mut k = 0;
    while k < NUM_ENDGAME {
        all[NUM_PARAMS + k] = endgame[k];
        k += 1;
    }
    all
};

/// The endgame parameters: only the kings ahead in number chase, and a side trades when ahead.
pub const ENDGAME_PARAMS: [Param; NUM_ENDGAME] = [
    p(
        "king_chase",
        "more kings, opponent only kings: per own king 14 - distance to the nearest opponent king, + 4 * cornered_distance",
    ),
    p(
        "opp_king_chase",
        "opponent more kings, own pieces only kings: the same for the opponent's kings chasing own kings",
    ),
    p(
        "cornered_distance",
        "more kings, opponent only kings: sum of the opponent kings' distances to the nearest double-corner square",
    ),
    p(
        "opp_cornered_distance",
        "opponent more kings, own pieces only kings: sum of own kings' distances to the nearest double-corner square",
    ),
    p(
        "trade",
        "(own pieces - opponent pieces) * (24 - pieces on the board): trading when ahead",
    ),
    p(
        "centre_kings",
        "own kings on the 8 centre squares (10, 11, 14, 15, 18, 19, 22, 23), except in a king ending",
    ),
];

/// The phased set's parameters: each of the 66 twice, `NAME@open` then (after all of those)
/// `NAME@end`.
fn phased_params() -> &'static [Param] {
    static PHASED: std::sync::OnceLock<Vec<Param>> = std::sync::OnceLock::new();
    PHASED.get_or_init(|| {
        let mut v = Vec::with_capacity(2 * NUM_ALL);
        for (phase, when) in [("open", "in the opening"), ("end", "in the endgame")] {
            for q in ALL_PARAMS.iter() {
                let name: &'static str = Box::leak(format!("{}@{phase}", q.name).into_boxed_str());
                let description: &'static str =
                    Box::leak(format!("{} ({when})", q.description).into_boxed_str());
                v.push(Param { name, description });
            }
        }
        v
    })
}

/// The network set's parameters with `hidden` units: the 66, then `hiddenJ.NAME` and
/// `hiddenJ.bias` for each unit J (from 1), then `outJ`.
fn net_params(hidden: usize) -> &'static [Param] {
    static NETS: [std::sync::OnceLock<Vec<Param>>; MAX_HIDDEN] =
        [const { std::sync::OnceLock::new() }; MAX_HIDDEN];
    NETS[hidden - 1].get_or_init(|| {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let mut v = Vec::with_capacity(net_len(hidden));
        v.extend_from_slice(&ALL_PARAMS);
        for j in 1..=hidden {
            for q in ALL_PARAMS.iter() {
                v.push(Param {
                    name: leak(format!("hidden{j}.{}", q.name)),
                    description: leak(format!("hidden unit {j}: input weight of {}", q.name)),
                });
            }
            v.push(Param {
                name: leak(format!("hidden{j}.bias")),
                description: leak(format!("hidden unit {j}: bias")),
            });
        }
        for j in 1..=hidden {
            v.push(Param {
                name: leak(format!("out{j}")),
                description: leak(format!("output weight of hidden unit {j}")),
            });
        }
        v
    })
}

/// The index (0-based) of the parameter with this short name.
pub fn param_index(name: &str) -> Option<usize> {
    PARAMS.iter().position(|p| p.name == name)
}

/// Receives each parameter's value as [`eval_trace`] computes it (`param` is 0-based).
pub trait Trace {
    fn add(&mut self, param: usize, value: i32);
}

/// Accumulates value * weight: the evaluation.
///
/// The sum is an `i64`: a value is an `i32` and a weight at most 2^15 in magnitude, so a term is
/// below 2^46 and 60 terms below 2^52: no overflow (the original tool's 32-bit sum could).
pub struct WeightedSum<'a> {
    pub weights: &'a Weights,
    pub sum: i64,
}

impl Trace for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        self.sum += value as i64 * self.weights.w[param] as i64;
    }
}

/// Accumulates the opening and the endgame sums of the phased set.
struct PhasedSum<'a> {
    w: &'a [i16; MAX_WEIGHTS],
    open: i64,
    end: i64,
}

impl Trace for PhasedSum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        self.open += value as i64 * self.w[param] as i64;
        self.end += value as i64 * self.w[NUM_ALL + param] as i64;
    }
}

/// The network's input vector length: the 66 values and zeros to a multiple of 8.
const NET_INPUTS: usize = NUM_ALL.next_multiple_of(8);

/// The network's output for the inputs `x` (the 66 values, clamped) with `hidden` units whose
/// weights follow the 66 linear weights in `w`: the sum over the units of the output weight
/// times `clamp((bias + sum of input weight * input) >> NET_SHIFT, 0, NET_ACT_MAX)`.
///
/// Each unit is a dot product of 66 `i16` pairs into an `i32` (no overflow: the inputs are at
/// most [`NET_INPUT_CLAMP`] in magnitude); the output, at most 32 * 127 * 32768 in magnitude,
/// fits an `i32` too.
#[inline]
pub fn net_output(w: &[i16], hidden: usize, x: &[i16; NET_INPUTS]) -> i32 {
    net_output_with(w, hidden, x, dot66)
}

/// [`net_output`] with the dot product `dot` (the same value by any instruction set).
#[inline(always)]
fn net_output_with(
    w: &[i16],
    hidden: usize,
    x: &[i16; NET_INPUTS],
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i32 {
    let outs = NUM_ALL + hidden * (NUM_ALL + 1);
    let mut out = 0i32;
    for j in 0..hidden {
        let unit = &w[NUM_ALL + j * (NUM_ALL + 1)..][..NUM_ALL + 1];
        let d = dot(unit[..NUM_ALL].try_into().expect("66 weights"), x);
        let act = ((d + unit[NUM_ALL] as i32) >> NET_SHIFT).clamp(0, NET_ACT_MAX);
        out += act * w[outs + j] as i32;
    }
    out
}

/// The network set's evaluation before saturation: the weighted sum of the 66 values plus
/// [`net_output`] over them. With AVX2 (chosen at run time) the dot products take 16 pairs an
/// instruction instead of 8; integer arithmetic, so the value is the same either way.
#[inline]
fn net_sum(pos: &Position, player: Color, w: &[i16; MAX_WEIGHTS], hidden: usize) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the only feature the function enables.
            return unsafe { net_sum_avx2(pos, player, w, hidden) };
        }
    }
    net_sum_with(pos, player, w, hidden, dot66)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn net_sum_avx2(pos: &Position, player: Color, w: &[i16; MAX_WEIGHTS], hidden: usize) -> i64 {
    // The closure inherits the function's AVX2, so it may call the AVX2 dot product.
    net_sum_with(pos, player, w, hidden, |a, b| dot66_avx2(a, b))
}

/// [`net_sum`] with the dot product `dot`.
#[inline(always)]
fn net_sum_with(
    pos: &Position,
    player: Color,
    w: &[i16; MAX_WEIGHTS],
    hidden: usize,
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i64 {
    let mut f = FeatureVector([0i32; NUM_ALL]);
    all_trace(pos, player, &mut f);
    net_value(&f.0, w, hidden, dot)
}

/// The network set's value of the 66 values `f`. They become the network's inputs (clamped);
/// when none needed the clamp (every real position: the values are counts and distances of at
/// most a few hundred), the weighted sum is one more dot product of `i16` pairs, which cannot
/// overflow an `i32` (66 * 511 * 32768 < 2^31); otherwise it is summed in `i64`.
#[inline(always)]
fn net_value(
    f: &[i32; NUM_ALL],
    w: &[i16; MAX_WEIGHTS],
    hidden: usize,
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i64 {
    let mut x = [0i16; NET_INPUTS];
    let mut clamped = false;
    for (xi, &v) in x.iter_mut().zip(f) {
        clamped |= v.unsigned_abs() > NET_INPUT_CLAMP as u32;
        *xi = v.clamp(-NET_INPUT_CLAMP, NET_INPUT_CLAMP) as i16;
    }
    let linear: &[i16; NUM_ALL] = w[..NUM_ALL].try_into().expect("66 weights");
    let sum = if clamped {
        f.iter()
            .zip(linear)
            .map(|(&v, &w)| v as i64 * w as i64)
            .sum()
    } else {
        dot(linear, &x) as i64
    };
    sum + net_output_with(w, hidden, &x, dot) as i64
}

/// The dot product of a unit's 66 input weights with the 66 inputs (the padding of `x` unused).
#[inline(always)]
fn dot66(w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; the loads are unaligned loads of 8 i16 inside the
        // 66 (at offsets 0..64) of both arrays.
        unsafe {
            let mut acc = _mm_setzero_si128();
            for k in 0..NUM_ALL / 8 {
                let a = _mm_loadu_si128(w.as_ptr().add(8 * k) as *const __m128i);
                let b = _mm_loadu_si128(x.as_ptr().add(8 * k) as *const __m128i);
                // Products of i16 pairs, adjacent ones added: 4 i32 lanes.
                acc = _mm_add_epi32(acc, _mm_madd_epi16(a, b));
            }
            hsum_tail(acc, w, x)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        w.iter().zip(x).map(|(&a, &b)| a as i32 * b as i32).sum()
    }
}

/// [`dot66`] by AVX2: 16 pairs an instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn dot66_avx2(w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    use std::arch::x86_64::*;
    // SAFETY: unaligned loads of 16 i16 inside the 66 (at offsets 0..64) of both arrays.
    unsafe {
        let mut acc = _mm256_setzero_si256();
        for k in 0..NUM_ALL / 16 {
            let a = _mm256_loadu_si256(w.as_ptr().add(16 * k) as *const __m256i);
            let b = _mm256_loadu_si256(x.as_ptr().add(16 * k) as *const __m256i);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        hsum_tail(half, w, x)
    }
}

/// The sum of the 4 lanes of `acc`, plus the products of the pairs past the last multiple of 16
/// (the 64th and 65th).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn hsum_tail(acc: std::arch::x86_64::__m128i, w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    use std::arch::x86_64::*;
    const { assert!(NUM_ALL / 16 * 16 == NUM_ALL / 8 * 8) };
    // SAFETY: SSE2 is part of x86-64.
    let s = unsafe {
        let s = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b01_00_11_10>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    };
    let tail: i32 = (NUM_ALL / 8 * 8..NUM_ALL)
        .map(|i| w[i] as i32 * x[i] as i32)
        .sum();
    s + tail
}

/// Records the values: the feature vector (the 60, or the 60 and the endgame parameters).
pub struct FeatureVector<const N: usize>(pub [i32; N]);

impl<const N: usize> Trace for FeatureVector<N> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        if param < N {
            self.0[param] = value;
        }
    }
}

/// Evaluation of `pos` for `player` (whoever is to move): sum of parameter * weight (for the
/// phased set, the opening and endgame sums mixed by the pieces left; for the network set, plus
/// the network's output over the same values, [`net_output`]), saturated to
/// `-MAX_EVAL..=MAX_EVAL` (never reached by real positions).
#[inline]
pub fn evaluate(pos: &Position, player: Color, w: &Weights) -> i32 {
    let sum = match w.set {
        ParamSet::Thesis60 => {
            let mut t = WeightedSum { weights: w, sum: 0 };
            eval_trace(pos, player, &mut t);
            t.sum
        }
        ParamSet::Endgame66 => {
            let mut t = WeightedSum { weights: w, sum: 0 };
            all_trace(pos, player, &mut t);
            t.sum
        }
        ParamSet::Phased132 => {
            let mut t = PhasedSum {
                w: &w.w,
                open: 0,
                end: 0,
            };
            all_trace(pos, player, &mut t);
            let n = (pos.occupied().count() as i64).min(PHASE_PIECES);
            (t.open * n + t.end * (PHASE_PIECES - n)) / PHASE_PIECES
        }
        ParamSet::Net66(h) => net_sum(pos, player, &w.w, h as usize),
    };
    sum.clamp(-(MAX_EVAL as i64), MAX_EVAL as i64) as i32
}

/// The 60 parameter values of `pos` for `player`, in the thesis's order.
pub fn features(pos: &Position, player: Color) -> [i32; NUM_PARAMS] {
    let mut t = FeatureVector([0; NUM_PARAMS]);
    eval_trace(pos, player, &mut t);
    t.0
}

/// The 60 parameter values and the endgame parameters, in the order of [`ALL_PARAMS`].
pub fn all_features(pos: &Position, player: Color) -> [i32; NUM_ALL] {
    let mut t = FeatureVector([0; NUM_ALL]);
    all_trace(pos, player, &mut t);
    t.0
}

/// Reports the parameters of the larger sets (the 60, then the endgame parameters). In a
/// [`king_ending`] only material (parameters 0..4), the chase and cornered terms and trade speak:
/// the 60's positional terms (and centre kings) are learnt from games with men on the board, and
/// there they would outweigh what converts such an ending (driving the lone kings out of the
/// double corners).
#[inline]
pub fn all_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    if king_ending(pos) {
        eval_trace(pos, player, &mut KingEnding(t));
        endgame_trace(pos, player, &mut KingEnding(t));
    } else {
        eval_trace(pos, player, t);
        endgame_trace(pos, player, t);
    }
}

/// A king ending: one side has only kings left, and the other side has more kings.
#[inline]
pub fn king_ending(pos: &Position) -> bool {
    let ahead = |weak: Color| {
        let pieces = pos.pieces(weak).0;
        let kings = pos.kings(weak).0;
        pieces != 0
            && pieces == kings
            && pos.kings(weak.opposite()).0.count_ones() > kings.count_ones()
    };
    ahead(Color::Black) || ahead(Color::White)
}

/// Passes on only the material parameters (0..4) and the endgame parameters but centre kings.
struct KingEnding<'a, T>(&'a mut T);

impl<T: Trace> Trace for KingEnding<'_, T> {
    #[inline(always)]
    fn add(&mut self, param: usize, value: i32) {
        if param < 4 || (NUM_PARAMS..NUM_PARAMS + 5).contains(&param) {
            self.0.add(param, value);
        }
    }
}

/// The squares nearest the corners a weaker king runs to: the two double corners.
const DOUBLE_CORNERS: [u8; 4] = [1, 5, 28, 32];
/// How much the weaker kings' distance from the double corners counts in the chase, against one
/// step of a stronger king towards them. A ratio of about 3 or more drives a lone king out of its
/// double corner at depths 2 to 6 (less lets the stronger kings crowd it and repeat): the chase
/// alone then converts whatever its (positive) weight, and `cornered_distance` refines it.
const CORNERED_IN_CHASE: i32 = 4;
/// The 8 centre squares.
const CENTRE8: u32 = sq(10) | sq(11) | sq(14) | sq(15) | sq(18) | sq(19) | sq(22) | sq(23);

/// Manhattan distance between two squares on the 8x8 board (rows plus columns, 0..14).
#[inline]
fn manhattan(a: u8, b: u8) -> i32 {
    use crate::board::{col_of, row_of};
    (row_of(a) as i32 - row_of(b) as i32).abs() + (col_of(a) as i32 - col_of(b) as i32).abs()
}

/// Squares (1..32) of a bitboard.
#[inline]
fn squares_of(mut b: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let s = b.trailing_zeros() as u8 + 1;
        b &= b - 1;
        Some(s)
    })
}

/// (chase, cornered) for a side `strong` with more kings than `weak` has, when the weak side has
/// only kings left: cornered is the sum over the weak kings of the distance to the nearest
/// double-corner square, and chase the sum over the strong side's kings of 14 minus the distance
/// to the nearest weak king, plus [`CORNERED_IN_CHASE`] times cornered. (0, 0) otherwise. While the weak side still has men, its kings in the double corners
/// are out of play rather than cornered, so these terms stay silent there.
#[inline]
fn chase(strong_kings: u32, weak: u32, weak_kings: u32) -> (i32, i32) {
    if strong_kings.count_ones() <= weak_kings.count_ones() || weak == 0 || weak != weak_kings {
        return (0, 0);
    }
    let mut chase = 0;
    for k in squares_of(strong_kings) {
        let nearest = squares_of(weak)
            .map(|o| manhattan(k, o))
            .min()
            .unwrap_or(14);
        chase += 14 - nearest;
    }
    let mut cornered = 0;
    for k in squares_of(weak_kings) {
        cornered += DOUBLE_CORNERS
            .iter()
            .map(|&c| manhattan(k, c))
            .min()
            .unwrap_or(0);
    }
    (chase + CORNERED_IN_CHASE * cornered, cornered)
}

/// Reports the endgame parameters (indices 60.. of [`ALL_PARAMS`]) of `pos` for `player`.
#[inline]
pub fn endgame_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    let (own, opp) = (pos.pieces(player).0, pos.pieces(player.opposite()).0);
    let (own_k, opp_k) = (pos.kings(player).0, pos.kings(player.opposite()).0);
    let (mut c, mut oc) = ((0, 0), (0, 0));
    if own_k | opp_k != 0 {
        c = chase(own_k, opp, opp_k);
        oc = chase(opp_k, own, own_k);
    }
    let (np, no) = (own.count_ones() as i32, opp.count_ones() as i32);
    t.add(NUM_PARAMS, c.0);
    t.add(NUM_PARAMS + 1, oc.0);
    t.add(NUM_PARAMS + 2, c.1);
    t.add(NUM_PARAMS + 3, oc.1);
    t.add(NUM_PARAMS + 4, (np - no) * (24 - (np + no)).max(0));
    t.add(NUM_PARAMS + 5, (own_k & CENTRE8).count_ones() as i32);
}

// ---------------------------------------------------------------------------------------------
// Board geometry. Bit i = square i + 1; row r holds bits 4r..4r+3.

const fn sq(s: u32) -> u32 {
    1 << (s - 1)
}

/// The 14 border squares: 1-4, 29-32, 5, 13, 21, 12, 20, 28.
const WALL: u32 = 0xF000_000F | 0x1010_1010 | 0x0808_0808;
/// Rows 3 and 4 (squares 13-20): the middle rows for both sides.
const MIDDLE: u32 = 0x000F_F000;
/// Squares of rows 4-7, rows 2,3,6,7 and rows 1,3,5,7: the three bits of a square's row number.
const ROW_BIT2: u32 = 0xFFFF_0000;
const ROW_BIT1: u32 = 0xFF00_FF00;
const ROW_BIT0: u32 = 0xF0F0_F0F0;

/// Sum of the row numbers (0..7) of the squares of `b`.
#[inline(always)]
fn row_sum(b: u32) -> i32 {
    (4 * (b & ROW_BIT2).count_ones()
        + 2 * (b & ROW_BIT1).count_ones()
        + (b & ROW_BIT0).count_ones()) as i32
}

/// Squares with at least one occupied diagonal neighbour.
#[inline(always)]
fn neighbours(occ: u32) -> u32 {
    step(occ, Dir::UpLeft)
        | step(occ, Dir::UpRight)
        | step(occ, Dir::DownLeft)
        | step(occ, Dir::DownRight)
}

/// One side's geometry, as compile-time constants.
trait Side {
    const COLOR: Color;
    /// Directions its men move in.
    const FWD: [Dir; 2];
    /// The other two directions (kings only).
    const BACK: [Dir; 2];
    /// The row where its men crown.
    const CROWN: u32;
    const BOTTOM: u32;
    const TOP: u32;
    /// Its back-row single corner (a man there counts) and the opponent's (a king there counts).
    const CORNER_MAN: u32;
    const CORNER_KING: u32;
    const DOUBLE_CORNER: u32;
    const TRIANGLE: u32;
    const OREO: u32;
    const BRIDGE: u32;
    /// Dog: an own piece on `DOG_OWN` and an opponent piece on `DOG_OPP`.
    const DOG_OWN: u32;
    const DOG_OPP: u32;
    /// Sum of distances to the crowning row of the men `men`.
    fn promotion_distance(men: u32) -> i32;
}

struct Black;
struct White;

impl Side for Black {
    const COLOR: Color = Color::Black;
    const FWD: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const BACK: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const CROWN: u32 = BLACK_CROWN_ROW;
    const BOTTOM: u32 = 0x0000_00FF; // 1-8
    const TOP: u32 = 0xFFF0_0000; // 21-32
    const CORNER_MAN: u32 = sq(4);
    const CORNER_KING: u32 = sq(29);
    const DOUBLE_CORNER: u32 = sq(1) | sq(5);
    const TRIANGLE: u32 = sq(1) | sq(2) | sq(6);
    const OREO: u32 = sq(2) | sq(3) | sq(7);
    const BRIDGE: u32 = sq(1) | sq(3);
    const DOG_OWN: u32 = sq(1);
    const DOG_OPP: u32 = sq(5);
    #[inline(always)]
    fn promotion_distance(men: u32) -> i32 {
        7 * men.count_ones() as i32 - row_sum(men)
    }
}

impl Side for White {
    const COLOR: Color = Color::White;
    const FWD: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const BACK: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const CROWN: u32 = WHITE_CROWN_ROW;
    const BOTTOM: u32 = 0xFF00_0000; // 25-32
    const TOP: u32 = 0x0000_0FFF; // 1-12
    const CORNER_MAN: u32 = sq(29);
    const CORNER_KING: u32 = sq(4);
    const DOUBLE_CORNER: u32 = sq(28) | sq(32);
    const TRIANGLE: u32 = sq(27) | sq(31) | sq(32);
    const OREO: u32 = sq(26) | sq(30) | sq(31);
    const BRIDGE: u32 = sq(30) | sq(32);
    const DOG_OWN: u32 = sq(32);
    const DOG_OPP: u32 = sq(28);
    #[inline(always)]
    fn promotion_distance(men: u32) -> i32 {
        row_sum(men)
    }
}

/// The 30 values of one side (parameters 1-60 are these for P and O, interleaved).
#[derive(Default)]
struct SideStats {
    men: i32,
    kings: i32,
    wall_men: i32,
    wall_kings: i32,
    movable_men: i32,
    movable_kings: i32,
    moves: i32,
    has_capture: i32,
    captures: i32,
    longest_capture: i32,
    promotion_distance: i32,
    free_promotion: i32,
    bottom_men: i32,
    bottom_kings: i32,
    middle_men: i32,
    middle_kings: i32,
    top_men: i32,
    top_kings: i32,
    lonely_men: i32,
    lonely_kings: i32,
    corner_man: i32,
    corner_king: i32,
    double_corner: i32,
    triangle: i32,
    oreo: i32,
    bridge: i32,
    dog: i32,
    blocking: i32,
    block_lines: i32,
    longest_block_line: i32,
}

#[inline(always)]
fn pc(b: u32) -> i32 {
    b.count_ones() as i32
}

#[inline(always)]
fn all(b: u32, mask: u32) -> i32 {
    (b & mask == mask) as i32
}

/// Block lines along one diagonal orientation `d`: (number of maximal runs of 3 or more own
/// pieces, length of the longest such run or 0).
#[inline(always)]
fn runs(own: u32, d: Dir) -> (i32, i32) {
    let back = d.reverse();
    // l_k = squares starting a chain of k own pieces in direction d: l_{k+1} = own & (l_k - d).
    let l2 = own & step(own, back);
    let l3 = own & step(l2, back);
    if l3 == 0 {
        return (0, 0);
    }
    // A maximal run starts on an own piece whose neighbour behind (in -d) is not own.
    let start = own & !step(own, d);
    let count = pc(l3 & start);
    let mut longest = 3;
    let mut l = own & step(l3, back);
    while l != 0 {
        longest += 1;
        l = own & step(l, back);
    }
    (count, longest)
}

/// All values of side `S` (own pieces `own`, of which `kings` are kings; opponent pieces `opp`).
#[inline(always)]
fn side_stats<S: Side>(own: u32, kings: u32, opp: u32, has_neighbour: u32) -> SideStats {
    let men = own & !kings;
    let occ = own | opp;
    let empty = !occ;
    let mut s = SideStats {
        men: pc(men),
        kings: pc(kings),
        wall_men: pc(men & WALL),
        wall_kings: pc(kings & WALL),
        ..SideStats::default()
    };

    // Non-capturing steps: forward for every piece, backward for kings.
    let fwd0 = step(empty, S::FWD[0].reverse());
    let fwd1 = step(empty, S::FWD[1].reverse());
    let bk0 = step(empty, S::BACK[0].reverse());
    let bk1 = step(empty, S::BACK[1].reverse());
    let fwd_free = fwd0 | fwd1;
    s.movable_men = pc(men & fwd_free);
    s.movable_kings = pc(kings & (fwd_free | bk0 | bk1));

    let j = movegen::jumpers(S::COLOR, men, kings, opp, empty);
    if j != 0 {
        let (count, longest) = movegen::capture_stats(S::COLOR, kings, opp, empty, j);
        // At most a few hundred sequences and 12 pieces: both fit an i32.
        let (count, longest) = (count as i32, longest as i32);
        s.has_capture = 1;
        s.captures = count;
        s.longest_capture = longest;
        s.moves = count;
    } else {
        s.moves = pc(own & fwd0) + pc(own & fwd1) + pc(kings & bk0) + pc(kings & bk1);
    }

    s.promotion_distance = S::promotion_distance(men);
    s.free_promotion = pc(empty & S::CROWN);
    s.bottom_men = pc(men & S::BOTTOM);
    s.bottom_kings = pc(kings & S::BOTTOM);
    s.middle_men = pc(men & MIDDLE);
    s.middle_kings = pc(kings & MIDDLE);
    s.top_men = pc(men & S::TOP);
    s.top_kings = pc(kings & S::TOP);
    s.lonely_men = pc(men & !has_neighbour);
    s.lonely_kings = pc(kings & !has_neighbour);
    s.corner_man = (men & S::CORNER_MAN != 0) as i32;
    s.corner_king = (kings & S::CORNER_KING != 0) as i32;
    s.double_corner = all(men, S::DOUBLE_CORNER);
    s.triangle = all(own, S::TRIANGLE);
    s.oreo = all(own, S::OREO);
    s.bridge = all(own, S::BRIDGE);
    s.dog = ((own & S::DOG_OWN != 0) && (opp & S::DOG_OPP != 0)) as i32;

    // Blocking: an own piece on a forward neighbour.
    s.blocking = pc(own & (step(own, S::FWD[0].reverse()) | step(own, S::FWD[1].reverse())));
    let (c0, l0) = runs(own, Dir::UpLeft);
    let (c1, l1) = runs(own, Dir::UpRight);
    s.block_lines = c0 + c1;
    s.longest_block_line = l0.max(l1);
    s
}

/// Computes every parameter of `pos` for `player` and reports it to `t` (0-based index, thesis
/// order). The single definition behind [`evaluate`] and [`features`].
///
/// On x86-64 the body is compiled a second time with the `popcnt` instruction enabled and chosen
/// at run time when the CPU has it (every x86-64 CPU since about 2008): the baseline target
/// counts bits with a dozen instructions each, which doubles the cost of an evaluation.
#[inline]
pub fn eval_trace<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports the only feature the function enables.
            return unsafe { eval_trace_popcnt(pos, player, t) };
        }
    }
    eval_body(pos, player, t)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn eval_trace_popcnt<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    eval_body(pos, player, t)
}

#[inline(always)]
fn eval_body<T: Trace>(pos: &Position, player: Color, t: &mut T) {
    let black = pos.pieces(Color::Black).0;
    let white = pos.pieces(Color::White).0;
    let kings = pos.kings(Color::Black).0 | pos.kings(Color::White).0;
    let has_neighbour = neighbours(black | white);
    let b = side_stats::<Black>(black, kings & black, white, has_neighbour);
    let w = side_stats::<White>(white, kings & white, black, has_neighbour);
    match player {
        Color::Black => emit(&b, &w, t),
        Color::White => emit(&w, &b, t),
    }
}

/// Reports P's and O's values in the thesis's order (one call per parameter, so a weighted sum folds
/// each weight's index at compile time).
#[inline(always)]
fn emit<T: Trace>(p: &SideStats, o: &SideStats, t: &mut T) {
    t.add(0, p.men);
    t.add(1, p.kings);
    t.add(2, o.men);
    t.add(3, o.kings);
    t.add(4, p.wall_men);
    t.add(5, p.wall_kings);
    t.add(6, o.wall_men);
    t.add(7, o.wall_kings);
    t.add(8, p.movable_men);
    t.add(9, p.movable_kings);
    t.add(10, o.movable_men);
    t.add(11, o.movable_kings);
    t.add(12, p.moves);
    t.add(13, o.moves);
    t.add(14, p.has_capture);
    t.add(15, p.captures);
    t.add(16, p.longest_capture);
    t.add(17, o.has_capture);
    t.add(18, o.captures);
    t.add(19, o.longest_capture);
    t.add(20, p.promotion_distance);
    t.add(21, o.promotion_distance);
    t.add(22, p.free_promotion);
    t.add(23, o.free_promotion);
    t.add(24, p.bottom_men);
    t.add(25, p.bottom_kings);
    t.add(26, o.bottom_men);
    t.add(27, o.bottom_kings);
    t.add(28, p.middle_men);
    t.add(29, p.middle_kings);
    t.add(30, o.middle_men);
    t.add(31, o.middle_kings);
    t.add(32, p.top_men);
    t.add(33, p.top_kings);
    t.add(34, o.top_men);
    t.add(35, o.top_kings);
    t.add(36, p.lonely_men);
    t.add(37, p.lonely_kings);
    t.add(38, o.lonely_men);
    t.add(39, o.lonely_kings);
    t.add(40, p.corner_man);
    t.add(41, p.corner_king);
    t.add(42, p.double_corner);
    t.add(43, o.corner_man);
    t.add(44, o.corner_king);
    t.add(45, o.double_corner);
    t.add(46, p.triangle);
    t.add(47, p.oreo);
    t.add(48, p.bridge);
    t.add(49, p.dog);
    t.add(50, o.triangle);
    t.add(51, o.oreo);
    t.add(52, o.bridge);
    t.add(53, o.dog);
    t.add(54, p.blocking);
    t.add(55, p.block_lines);
    t.add(56, p.longest_block_line);
    t.add(57, o.blocking);
    t.add(58, o.block_lines);
    t.add(59, o.longest_block_line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;
    use rand::SeedableRng;

    #[test]
    fn names_are_unique_identifiers() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert_eq!(param_index(p.name), Some(i));
            assert!(!p.description.is_empty());
        }
    }

    /// The network set's value written plainly: every product in `i64`.
    fn plain_net_value(f: &[i32; NUM_ALL], w: &[i16], hidden: usize) -> i64 {
        let x = f.map(|v| v.clamp(-NET_INPUT_CLAMP, NET_INPUT_CLAMP) as i64);
        let mut sum: i64 = f.iter().zip(w).map(|(&v, &w)| v as i64 * w as i64).sum();
        for j in 0..hidden {
            let unit = &w[NUM_ALL + j * (NUM_ALL + 1)..][..NUM_ALL + 1];
            let s: i64 = x.iter().zip(unit).map(|(&a, &b)| a * b as i64).sum();
            let act = ((s + unit[NUM_ALL] as i64) >> NET_SHIFT).clamp(0, NET_ACT_MAX as i64);
            sum += act * w[NUM_ALL + hidden * (NUM_ALL + 1) + j] as i64;
        }
        sum
    }

    #[test]
    fn the_network_value_is_the_plain_sum_by_every_dot_product() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for k in 0..3000 {
            let hidden = [1, 8, 32][k % 3];
            let w = Weights::random_of(ParamSet::Net66(hidden as u8), &mut r);
            // Values as in play, at the clamp's edges, and far beyond it (the i64 path).
            let bound = [600, 512, 100_000][k / 3 % 3];
            let f: [i32; NUM_ALL] = std::array::from_fn(|_| r.random_range(-bound..=bound));
            let want = plain_net_value(&f, w.values(), hidden);
            assert_eq!(net_value(&f, &w.w, hidden, dot66), want, "{k}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                let avx2 = |a: &[i16; NUM_ALL], b: &[i16; NET_INPUTS]| unsafe { dot66_avx2(a, b) };
                assert_eq!(net_value(&f, &w.w, hidden, avx2), want, "{k}");
            }
        }
    }

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
