// Evaluation weights exported by `checkers-ga export --format rust` from
// thesis-table-4-2.json (JSON weight file).
// Weight i multiplies parameter i of NAMES; each parameter is defined in docs/parameters.md
// of the checkers-ga repository (file formats: docs/formats.md).

/// The parameter set the weights are for.
pub const PARAMS: &str = "thesis60";

/// The 60 evaluation weights.
pub const WEIGHTS: [i16; 60] = [
    -27848, // 1 men
    0,      // 2 kings
    22520,  // 3 opp_men
    -24912, // 4 opp_kings
    25644,  // 5 wall_men
    0,      // 6 wall_kings
    0,      // 7 opp_wall_men
    27337,  // 8 opp_wall_kings
    0,      // 9 movable_men
    4708,   // 10 movable_kings
    6119,   // 11 opp_movable_men
    0,      // 12 opp_movable_kings
    21613,  // 13 moves
    0,      // 14 opp_moves
    0,      // 15 has_capture
    -28692, // 16 captures
    -20989, // 17 longest_capture
    -20551, // 18 opp_has_capture
    0,      // 19 opp_captures
    -13876, // 20 opp_longest_capture
    0,      // 21 promotion_distance
    -24871, // 22 opp_promotion_distance
    0,      // 23 free_promotion_squares
    -30665, // 24 opp_free_promotion_squares
    0,      // 25 bottom_men
    0,      // 26 bottom_kings
    0,      // 27 opp_bottom_men
    0,      // 28 opp_bottom_kings
    -24696, // 29 middle_men
    26462,  // 30 middle_kings
    -32375, // 31 opp_middle_men
    0,      // 32 opp_middle_kings
    0,      // 33 top_men
    27159,  // 34 top_kings
    0,      // 35 opp_top_men
    0,      // 36 opp_top_kings
    0,      // 37 lonely_men
    -20871, // 38 lonely_kings
    0,      // 39 opp_lonely_men
    11132,  // 40 opp_lonely_kings
    -25605, // 41 corner_man
    -32651, // 42 corner_king
    0,      // 43 double_corner
    0,      // 44 opp_corner_man
    0,      // 45 opp_corner_king
    25836,  // 46 opp_double_corner
    -25839, // 47 triangle
    1326,   // 48 oreo
    0,      // 49 bridge
    0,      // 50 dog
    0,      // 51 opp_triangle
    -618,   // 52 opp_oreo
    0,      // 53 opp_bridge
    14026,  // 54 opp_dog
    0,      // 55 blocking
    0,      // 56 block_lines
    0,      // 57 longest_block_line
    32446,  // 58 opp_blocking
    -28419, // 59 opp_block_lines
    0,      // 60 opp_longest_block_line
];

/// The parameter names, in the same order.
pub const NAMES: [&str; 60] = [
    "men",
    "kings",
    "opp_men",
    "opp_kings",
    "wall_men",
    "wall_kings",
    "opp_wall_men",
    "opp_wall_kings",
    "movable_men",
    "movable_kings",
    "opp_movable_men",
    "opp_movable_kings",
    "moves",
    "opp_moves",
    "has_capture",
    "captures",
    "longest_capture",
    "opp_has_capture",
    "opp_captures",
    "opp_longest_capture",
    "promotion_distance",
    "opp_promotion_distance",
    "free_promotion_squares",
    "opp_free_promotion_squares",
    "bottom_men",
    "bottom_kings",
    "opp_bottom_men",
    "opp_bottom_kings",
    "middle_men",
    "middle_kings",
    "opp_middle_men",
    "opp_middle_kings",
    "top_men",
    "top_kings",
    "opp_top_men",
    "opp_top_kings",
    "lonely_men",
    "lonely_kings",
    "opp_lonely_men",
    "opp_lonely_kings",
    "corner_man",
    "corner_king",
    "double_corner",
    "opp_corner_man",
    "opp_corner_king",
    "opp_double_corner",
    "triangle",
    "oreo",
    "bridge",
    "dog",
    "opp_triangle",
    "opp_oreo",
    "opp_bridge",
    "opp_dog",
    "blocking",
    "block_lines",
    "longest_block_line",
    "opp_blocking",
    "opp_block_lines",
    "opp_longest_block_line",
];
