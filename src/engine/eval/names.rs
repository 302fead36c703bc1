//! The table of parameter names: how many parameters there are, and each one's short name and
//! description, for every parameter set (the 60, the endgame parameters, and the names the
//! phased and network sets derive from them).

/// Number of evaluation parameters (and weights).
pub const NUM_PARAMS: usize = 60;
/// Number of endgame parameters that follow the 60 in the larger parameter sets.
pub const NUM_ENDGAME: usize = 6;
/// The 60 parameters and the endgame parameters.
pub const NUM_ALL: usize = NUM_PARAMS + NUM_ENDGAME;
/// The most hidden units of the network set ([`ParamSet::Net66`](super::ParamSet::Net66)).
pub const MAX_HIDDEN: usize = 32;

/// The weights of `net66` with `hidden` units: the 66 linear weights, then per hidden unit its
/// 66 input weights and its bias, then one output weight per hidden unit.
pub const fn net_len(hidden: usize) -> usize {
    NUM_ALL + hidden * (NUM_ALL + 2)
}

/// The board network's inputs: a piece of each kind (own man, own king, opponent man, opponent
/// king, from the evaluated player's side of the board) on each of the 32 squares, and the
/// player to move (1 input).
pub const BOARD_INPUTS: usize = 4 * 32 + 1;

/// The weights of `board` with `hidden` units: the 66 linear weights, then for each of the
/// [`BOARD_INPUTS`] its weight into every unit (input-major, so a piece's weights are one row),
/// then the units' biases, then their output weights.
pub const fn board_len(hidden: usize) -> usize {
    NUM_ALL + hidden * (BOARD_INPUTS + 2)
}

/// A parameter's stable short name (used by weight files, `show`, exports) and description.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Param {
    /// The short name: lower case and `_` (the phased and network sets' derived names add
    /// `@`, `.` and digits).
    pub name: &'static str,
    /// What the parameter counts, in a sentence.
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

/// The 60 and the endgame parameters: the parameters of [`ParamSet::Endgame66`](super::ParamSet::Endgame66).
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
pub(super) fn phased_params() -> &'static [Param] {
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

/// Placeholder names of an outside engine's `n` tuned parameters (`gene1`, ...): their real
/// names are the engine's, kept with the session.
pub(super) fn engine_params(n: usize) -> &'static [Param] {
    static ENGINE: std::sync::OnceLock<Vec<Param>> = std::sync::OnceLock::new();
    let all = ENGINE.get_or_init(|| {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        (1..=MAX_WEIGHTS_OF_NETS)
            .map(|i| Param {
                name: leak(format!("gene{i}")),
                description: leak(format!(
                    "an outside engine's parameter {i} (its name is in the session)"
                )),
            })
            .collect()
    });
    &all[..n.min(all.len())]
}

/// The most weights of any set: the board network with [`MAX_HIDDEN`] units.
const MAX_WEIGHTS_OF_NETS: usize = board_len(MAX_HIDDEN);

/// The board input `i`'s name (`own_man@5`, ..., `opp_king@32`, `to_move`): a kind of piece on
/// a square, squares numbered from the evaluated player's side as Black's are.
pub fn board_input_name(i: usize) -> String {
    if i == 4 * 32 {
        return "to_move".to_string();
    }
    let kind = ["own_man", "own_king", "opp_man", "opp_king"][i / 32];
    format!("{kind}@{}", i % 32 + 1)
}

/// The board set's parameters with `hidden` units: the 66, then `INPUT>J` for each input and
/// unit J (from 1), input by input, then `hiddenJ.bias`, then `outJ`.
pub(super) fn board_params(hidden: usize) -> &'static [Param] {
    static BOARDS: [std::sync::OnceLock<Vec<Param>>; MAX_HIDDEN] =
        [const { std::sync::OnceLock::new() }; MAX_HIDDEN];
    BOARDS[hidden - 1].get_or_init(|| {
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let mut v = Vec::with_capacity(board_len(hidden));
        v.extend_from_slice(&ALL_PARAMS);
        for i in 0..BOARD_INPUTS {
            let input = board_input_name(i);
            for j in 1..=hidden {
                v.push(Param {
                    name: leak(format!("{input}>{j}")),
                    description: leak(format!("hidden unit {j}: input weight of {input}")),
                });
            }
        }
        push_units(&mut v, hidden, "bias");
        push_units(&mut v, hidden, "out");
        v
    })
}

/// Appends one parameter per hidden unit 1..=`hidden`: its bias (`hiddenJ.bias`, `what` =
/// "bias") or its output weight (`outJ`, "out").
fn push_units(v: &mut Vec<Param>, hidden: usize, what: &str) {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    for j in 1..=hidden {
        v.push(if what == "bias" {
            Param {
                name: leak(format!("hidden{j}.bias")),
                description: leak(format!("hidden unit {j}: bias")),
            }
        } else {
            Param {
                name: leak(format!("out{j}")),
                description: leak(format!("output weight of hidden unit {j}")),
            }
        });
    }
}

/// The network set's parameters with `hidden` units: the 66, then `hiddenJ.NAME` and
/// `hiddenJ.bias` for each unit J (from 1), then `outJ`.
pub(super) fn net_params(hidden: usize) -> &'static [Param] {
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
        push_units(&mut v, hidden, "out");
        v
    })
}

/// The index (0-based) of the parameter with this short name.
pub fn param_index(name: &str) -> Option<usize> {
    PARAMS.iter().position(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_identifiers() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert_eq!(param_index(p.name), Some(i));
            assert!(!p.description.is_empty());
        }
    }
}
