//! The Rust and the C export: the evaluation as source code (a module, a header) with the
//! weights, its opening comment (where the weights come from, which side a value is for, what
//! a man is worth) and the values it states for two positions (CHECK), which `checkers-ga eval`
//! prints too.

use crate::board::{Color, Position};
use crate::eval::{ParamSet, Weights, BOARD_INPUTS, NET_ACT_MAX, NET_INPUT_CLAMP, NET_SHIFT};
use crate::yardstick::Evaluator;
use std::fmt::Write as _;

/// `source` on one line, safe inside a `//` or `/* */` comment.
pub(super) fn comment_text(source: &str) -> String {
    source
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "* /")
}

/// What one man is worth in the weights' units, as the exports state it (`MAN_VALUE`):
/// [`crate::man_value`], the one definition of a man, or 1 for weights that do not value a
/// man (they still get a usable, if meaningless, scale).
pub fn man_value(w: &Weights) -> i32 {
    crate::man_value(&(*w).into()).unwrap_or(1)
}

/// The median [`crate::man_median`] of `w`, which [`man_value`] is when it is at least 1.
fn man_median(w: &Weights) -> i64 {
    crate::man_median(&(*w).into())
}

/// The position the exports' CHECK gives values of besides the start position: White to move,
/// kings on both sides, a capture for White.
pub const CHECK_FEN: &str = "W:W18,19,24,26,K7:B5,9,10,14,K28";

/// A position's static values as the exports' functions give them (`checkers-ga eval` prints
/// them; the exports' CHECK states them for two positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticValues {
    /// Black's value, whoever is to move: `evaluate(black, white, kings, 0)` (a board set's
    /// with `player_to_move` = Black is to move).
    pub black: i32,
    /// White's value: `evaluate(black, white, kings, 1)`.
    pub white: i32,
    /// The position as a leaf of a negamax search whose root player is Black:
    /// `evaluate_for_root(black, white, kings, white_to_move, 0)` (Black's value, negated when
    /// White is to move).
    pub root_black: i32,
    /// The same with White the root player: `evaluate_for_root(..., white_to_move, 1)`.
    pub root_white: i32,
    /// The antisymmetric value for the side to move, (own - opponent's) / 2 rounded toward 0:
    /// `evaluate_side_to_move(black, white, kings, white_to_move)`.
    pub side_to_move: i32,
}

impl StaticValues {
    /// The values of `pos` by `eval`.
    pub fn of(eval: &Evaluator, pos: &Position) -> StaticValues {
        let black = eval.evaluate(pos, Color::Black);
        let white = eval.evaluate(pos, Color::White);
        let stm = pos.side_to_move();
        let (own, opp) = match stm {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        StaticValues {
            black,
            white,
            root_black: if stm == Color::Black { black } else { -black },
            root_white: if stm == Color::White { white } else { -white },
            side_to_move: ((own as i64 - opp as i64) / 2) as i32,
        }
    }
}

/// `v` in men as the exports' `to_centimen(v)` gives it (hundredths, rounded toward 0), written
/// as men with two decimals (`-0.31`), for `man` units a man.
pub fn men_text(v: i32, man: i32) -> String {
    let centi = v as i64 * 100 / man.max(1) as i64;
    let sign = if centi < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", centi.abs() / 100, centi.abs() % 100)
}

/// The three bitboards of `pos` as the exports take them, in hex: `(black, white, kings)`.
pub fn bitboards(pos: &Position) -> (String, String, String) {
    let k = pos.kings(Color::Black).0 | pos.kings(Color::White).0;
    (
        format!("0x{:08x}", pos.pieces(Color::Black).0),
        format!("0x{:08x}", pos.pieces(Color::White).0),
        format!("0x{k:08x}"),
    )
}

/// The export's call that gives `player`'s value (0 Black, 1 White) of `pos`, as `eval` and
/// the exports' CHECK write it: `f` the function's prefix; a board set's call has
/// `player_to_move` too.
pub fn evaluate_call(f: &str, set: ParamSet, pos: &Position, player: Color) -> String {
    let p = (player == Color::White) as u8;
    if set.is_board() {
        let to_move = (player == pos.side_to_move()) as u8;
        format!("{f}evaluate(black, white, kings, {p}, {to_move})")
    } else {
        format!("{f}evaluate(black, white, kings, {p})")
    }
}

/// The CHECK paragraph of an export's opening comment: the values of the start position and
/// of [`CHECK_FEN`] with these weights, which `checkers-ga eval` prints too.
fn check_text(w: &Weights, f: &str) -> String {
    let eval: Evaluator = (*w).into();
    let mut text = format!(
        "CHECK: `checkers-ga eval WEIGHTS [FEN]` prints a position's values with these weights; \
         this {} must give the same.",
        if f.is_empty() { "module" } else { "header" }
    );
    let start = Position::start();
    let other = crate::notation::parse_fen(CHECK_FEN).unwrap_or(start);
    for (what, pos) in [("The start position", start), (CHECK_FEN, other)] {
        let v = StaticValues::of(&eval, &pos);
        let (b, wh, k) = bitboards(&pos);
        let wtm = (pos.side_to_move() == Color::White) as u8;
        let side = pos.side_to_move().name();
        text.push_str(&format!(
            " {what} (black = {b}, white = {wh}, kings = {k}, {side} to move): {} = {} \
             (Black's value), {} = {} (White's), {f}evaluate_side_to_move(black, white, kings, \
             {wtm}) = {}.",
            evaluate_call(f, w.set(), &pos, Color::Black),
            v.black,
            evaluate_call(f, w.set(), &pos, Color::White),
            v.white,
            v.side_to_move
        ));
    }
    text
}

/// How [`man_value`] is defined, for the exports' comments.
const MAN_VALUE_TEXT: &str = "the median, over the positions of the 156 ballot openings in use \
     (after their three moves), both players, and each man of the player, of the player's value \
     minus its value with that man taken off the board; computed by checkers-ga export from \
     these weights (at least 1)";

/// The template `text` (written with `checkers_` and `CHECKERS_`) with `prefix` in lower and
/// upper case.
fn prefixed(text: &str, prefix: &str) -> String {
    text.replace("checkers_", prefix)
        .replace("CHECKERS_", &prefix.to_ascii_uppercase())
}

/// The template `text` for `set`: a line starting with `@board` is kept (without the mark and
/// one space after it) only for a board set, one starting with `@plain` only for the others.
fn for_set(text: &str, set: ParamSet) -> String {
    let mut s = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let marked = |mark: &str| {
            line.strip_prefix(mark)
                .map(|l| l.strip_prefix(' ').unwrap_or(l))
        };
        match (marked("@board"), marked("@plain")) {
            (Some(l), _) if set.is_board() => s.push_str(l),
            (None, Some(l)) if !set.is_board() => s.push_str(l),
            (None, None) => s.push_str(line),
            _ => {}
        }
    }
    s
}

/// `text` in lines of at most `width` characters (longer words alone on a line), for comments.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The set's evaluation after the values are computed, for the Rust export: `evaluate`.
fn rust_evaluate(set: ParamSet) -> String {
    let head = |what: &str| {
        let text = format!(
            "The evaluation of the position for the player: {what}, saturated to -2^30..=2^30."
        );
        let doc: String = wrap_words(&text, 96)
            .iter()
            .map(|l| format!("/// {l}\n"))
            .collect();
        format!(
            "{doc}\
             pub fn evaluate(black: u32, white: u32, kings: u32, player_is_white: bool) -> i32 {{\n"
        )
    };
    match set {
        ParamSet::Thesis60 => head("the weighted sum of the 60 values")
            + "    let v = features(black, white, kings, player_is_white, false);\n\
               \x20   saturate(weighted_sum(&v[..60], 0))\n}\n",
        ParamSet::Endgame66 => head("the weighted sum of the 66 values")
            + "    let v = features(black, white, kings, player_is_white, true);\n\
               \x20   saturate(weighted_sum(&v, 0))\n}\n",
        ParamSet::Phased132 => head(
            "the opening and endgame sums of the 66 values, mixed by the n pieces on the \
             board: (open * n + end * (24 - n)) / 24",
        ) + "    let v = features(black, white, kings, player_is_white, true);\n\
             \x20   let n = ((black | white).count_ones() as i64).min(24);\n\
             \x20   saturate((weighted_sum(&v, 0) * n + weighted_sum(&v, 66) * (24 - n)) / 24)\n}\n",
        ParamSet::Net66(h) => format!(
            "/// The network's hidden units.\n\
             pub const HIDDEN: usize = {h};\n\n"
        ) + &head(&net_description()) + &format!(
            "    let v = features(black, white, kings, player_is_white, true);\n\
             \x20   let x = v.map(|x| x.clamp(-{NET_INPUT_CLAMP}, {NET_INPUT_CLAMP}));\n\
             \x20   let outs = 66 + HIDDEN * 67;\n\
             \x20   let mut sum = weighted_sum(&v, 0);\n\
             \x20   for j in 0..HIDDEN {{\n\
             \x20       let unit = &WEIGHTS[66 + j * 67..66 + j * 67 + 67];\n\
             \x20       let dot: i32 = x.iter().zip(unit).map(|(&x, &w)| x * w as i32).sum();\n\
             \x20       let act = ((dot + unit[66] as i32) >> {NET_SHIFT}).clamp(0, {NET_ACT_MAX});\n\
             \x20       sum += (act * WEIGHTS[outs + j] as i32) as i64;\n\
             \x20   }}\n\
             \x20   saturate(sum)\n}}\n"
        ),
        // Refused before: an outside engine's parameters are exported as its settings.
        ParamSet::Engine(_) => head("none (an outside engine's parameters)") + "    0\n}\n",
        ParamSet::Board(h) => format!(
            "/// The network's hidden units.\n\
             pub const HIDDEN: usize = {h};\n\n\
             /// The network's inputs: own men, own kings, opponent men and opponent kings on squares\n\
             /// 1-32 of the player's side of the board (input kind * 32 + square - 1), then to_move.\n\
             pub const BOARD_INPUTS: usize = {BOARD_INPUTS};\n\n"
        ) + &board_head(&board_description()) + &format!(
            "    let v = features(black, white, kings, player_is_white, true);\n\
             \x20   let (own, opp) = if player_is_white {{ (white, black) }} else {{ (black, white) }};\n\
             \x20   // For White the board is turned: square s is its square 33 - s (bit s is bit 31 - s).\n\
             \x20   let turn = |b: u32| if player_is_white {{ b.reverse_bits() }} else {{ b }};\n\
             \x20   let planes = [own & !kings, own & kings, opp & !kings, opp & kings].map(turn);\n\
             \x20   let mut sums = [0i32; HIDDEN];\n\
             \x20   // Adds the HIDDEN weights from WEIGHTS[from] (an input's row, or the biases).\n\
             \x20   let mut add = |from: usize| {{\n\
             \x20       for (s, &w) in sums.iter_mut().zip(&WEIGHTS[from..from + HIDDEN]) {{\n\
             \x20           *s += w as i32;\n\
             \x20       }}\n\
             \x20   }};\n\
             \x20   add(66 + BOARD_INPUTS * HIDDEN);\n\
             \x20   for (kind, &plane) in planes.iter().enumerate() {{\n\
             \x20       let mut bits = plane;\n\
             \x20       while bits != 0 {{\n\
             \x20           add(66 + (kind * 32 + bits.trailing_zeros() as usize) * HIDDEN);\n\
             \x20           bits &= bits - 1;\n\
             \x20       }}\n\
             \x20   }}\n\
             \x20   if player_to_move {{\n\
             \x20       add(66 + (BOARD_INPUTS - 1) * HIDDEN);\n\
             \x20   }}\n\
             \x20   let outs = &WEIGHTS[66 + (BOARD_INPUTS + 1) * HIDDEN..];\n\
             \x20   let mut sum = weighted_sum(&v, 0);\n\
             \x20   for (&s, &out) in sums.iter().zip(outs) {{\n\
             \x20       sum += ((s >> {NET_SHIFT}).clamp(0, {NET_ACT_MAX}) * out as i32) as i64;\n\
             \x20   }}\n\
             \x20   saturate(sum)\n}}\n"
        ),
    }
}

/// The head of a board set's `evaluate` for the Rust export: its doc comment (`what` it
/// computes) and its signature, with `player_to_move`.
fn board_head(what: &str) -> String {
    let text = format!(
        "The evaluation of the position for the player: {what}, saturated to -2^30..=2^30. \
         {BOARD_INPUTS_TEXT}"
    );
    let doc: String = wrap_words(&text, 96)
        .iter()
        .map(|l| format!("/// {l}\n"))
        .collect();
    format!(
        "{doc}\
         pub fn evaluate(\n\
         \x20   black: u32,\n\
         \x20   white: u32,\n\
         \x20   kings: u32,\n\
         \x20   player_is_white: bool,\n\
         \x20   player_to_move: bool,\n\
         ) -> i32 {{\n"
    )
}

/// The set's evaluation after the values are computed, for the C export:
/// `checkers_evaluate_body` (which `checkers_evaluate` calls, export_eval_search.c.txt).
fn c_evaluate(set: ParamSet) -> String {
    let head = |what: &str| {
        let text = format!(
            "The evaluation of the position for the player: {what}, saturated to -2^30..=2^30."
        );
        let doc = wrap_words(&text, 93).join("\n * ");
        format!(
            "/* {doc} */\n\
             CHECKERS_ALWAYS_INLINE int32_t checkers_evaluate_body(uint32_t black, uint32_t white,\n\
             \x20                                                     uint32_t kings, int player_is_white) {{\n\
             \x20   int32_t v[66];\n"
        )
    };
    match set {
        ParamSet::Thesis60 => head("the weighted sum of the 60 values")
            + "    checkers_features(black, white, kings, player_is_white, 0, v);\n\
               \x20   return checkers_saturate(checkers_weighted_sum(v, 60, 0));\n}\n",
        ParamSet::Endgame66 => head("the weighted sum of the 66 values")
            + "    checkers_features(black, white, kings, player_is_white, 1, v);\n\
               \x20   return checkers_saturate(checkers_weighted_sum(v, 66, 0));\n}\n",
        ParamSet::Phased132 => head(
            "the opening and endgame sums of the 66 values, mixed by the n pieces on the \
             board: (open * n + end * (24 - n)) / 24",
        ) + "    int64_t n = checkers_pc(black | white);\n\
             \x20   if (n > 24) n = 24;\n\
             \x20   checkers_features(black, white, kings, player_is_white, 1, v);\n\
             \x20   return checkers_saturate((checkers_weighted_sum(v, 66, 0) * n\n\
             \x20                             + checkers_weighted_sum(v, 66, 66) * (24 - n)) / 24);\n}\n",
        ParamSet::Net66(h) => format!(
            "/* The network's hidden units. */\n#define CHECKERS_HIDDEN {h}\n\n"
        ) + &head(&net_description()) + &format!(
            "    int16_t x[66];\n\
             \x20   int64_t sum;\n\
             \x20   int32_t out = 0;\n\
             \x20   int i, j, clamped = 0;\n\
             \x20   checkers_features(black, white, kings, player_is_white, 1, v);\n\
             \x20   {{\n\
             \x20       /* The inputs: the values clamped to -{c}..{c} (loops of 64 vectorize) */\n\
             \x20       int32_t lo = 0, hi = 0;\n\
             \x20       for (i = 0; i < 64; i++) {{\n\
             \x20           lo = v[i] < lo ? v[i] : lo;\n\
             \x20           hi = v[i] > hi ? v[i] : hi;\n\
             \x20       }}\n\
             \x20       for (; i < 66; i++) {{\n\
             \x20           lo = v[i] < lo ? v[i] : lo;\n\
             \x20           hi = v[i] > hi ? v[i] : hi;\n\
             \x20       }}\n\
             \x20       clamped = lo < -{c} || hi > {c};\n\
             \x20   }}\n\
             \x20   if (clamped) {{\n\
             \x20       for (i = 0; i < 66; i++) x[i] = (int16_t)(v[i] > {c} ? {c} : v[i] < -{c} ? -{c} : v[i]);\n\
             \x20   }} else {{\n\
             \x20       for (i = 0; i < 64; i++) x[i] = (int16_t)v[i];\n\
             \x20       x[64] = (int16_t)v[64];\n\
             \x20       x[65] = (int16_t)v[65];\n\
             \x20   }}\n\
             \x20   /* The same sum either way; one dot product when no value needed the clamp. */\n\
             \x20   sum = clamped ? checkers_weighted_sum(v, 66, 0) : checkers_dot66(CHECKERS_WEIGHTS, x);\n\
             \x20   for (j = 0; j < CHECKERS_HIDDEN; j++) {{\n\
             \x20       const int16_t *unit = CHECKERS_WEIGHTS + 66 + j * 67;\n\
             \x20       int32_t dot = checkers_dot66(unit, x) + unit[66], act;\n\
             \x20       /* dot >> {NET_SHIFT} clamped to 0..{NET_ACT_MAX} (no shift of a negative number) */\n\
             \x20       act = dot <= 0 ? 0 : (dot >> {NET_SHIFT}) > {NET_ACT_MAX} ? {NET_ACT_MAX} : dot >> {NET_SHIFT};\n\
             \x20       out += act * CHECKERS_WEIGHTS[66 + CHECKERS_HIDDEN * 67 + j];\n\
             \x20   }}\n\
             \x20   return checkers_saturate(sum + out);\n}}\n",
            c = NET_INPUT_CLAMP
        ),
        // Refused before: an outside engine's parameters are exported as its settings.
        ParamSet::Engine(_) => {
            head("none (an outside engine's parameters)") + "    (void)v;\n    return 0;\n}\n"
        }
        ParamSet::Board(h) => {
            let text = format!(
                "The evaluation of the position for the player: {}, saturated to -2^30..=2^30. \
                 {BOARD_INPUTS_TEXT}",
                board_description()
            );
            let doc = wrap_words(&text, 93).join("\n * ");
            format!(
                "/* The network's hidden units. */\n#define CHECKERS_HIDDEN {h}\n\n\
                 /* The network's inputs: own men, own kings, opponent men and opponent kings on\n\
                 \x20* squares 1-32 of the player's side of the board (input kind * 32 + square - 1),\n\
                 \x20* then to_move. */\n\
                 #define CHECKERS_BOARD_INPUTS {BOARD_INPUTS}\n\n\
                 /* b with its bits reversed (bit s to bit 31 - s): the board turned half round. */\n\
                 CHECKERS_ALWAYS_INLINE uint32_t checkers_turn(uint32_t b) {{\n\
                 \x20   b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);\n\
                 \x20   b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);\n\
                 \x20   b = ((b >> 4) & 0x0F0F0F0Fu) | ((b & 0x0F0F0F0Fu) << 4);\n\
                 \x20   b = ((b >> 8) & 0x00FF00FFu) | ((b & 0x00FF00FFu) << 8);\n\
                 \x20   return (b >> 16) | (b << 16);\n\
                 }}\n\n\
                 /* {doc} */\n\
                 CHECKERS_ALWAYS_INLINE int32_t checkers_evaluate_body(uint32_t black, uint32_t white,\n\
                 \x20                                                     uint32_t kings, int player_is_white,\n\
                 \x20                                                     int player_to_move) {{\n\
                 \x20   int32_t v[66], sums[CHECKERS_HIDDEN], out = 0;\n\
                 \x20   uint32_t own = player_is_white ? white : black, opp = player_is_white ? black : white;\n\
                 \x20   uint32_t planes[4], bits;\n\
                 \x20   const int16_t *row;\n\
                 \x20   int kind, j;\n\
                 \x20   checkers_features(black, white, kings, player_is_white, 1, v);\n\
                 \x20   planes[0] = own & ~kings;\n\
                 \x20   planes[1] = own & kings;\n\
                 \x20   planes[2] = opp & ~kings;\n\
                 \x20   planes[3] = opp & kings;\n\
                 \x20   row = CHECKERS_WEIGHTS + 66 + CHECKERS_BOARD_INPUTS * CHECKERS_HIDDEN; /* the biases */\n\
                 \x20   for (j = 0; j < CHECKERS_HIDDEN; j++) sums[j] = row[j];\n\
                 \x20   for (kind = 0; kind < 4; kind++) {{\n\
                 \x20       /* For White the board is turned: square s is its square 33 - s. */\n\
                 \x20       bits = player_is_white ? checkers_turn(planes[kind]) : planes[kind];\n\
                 \x20       for (; bits; bits &= bits - 1) {{\n\
                 \x20           row = CHECKERS_WEIGHTS + 66 + (kind * 32 + (int)checkers_low(bits)) * CHECKERS_HIDDEN;\n\
                 \x20           for (j = 0; j < CHECKERS_HIDDEN; j++) sums[j] += row[j];\n\
                 \x20       }}\n\
                 \x20   }}\n\
                 \x20   if (player_to_move) {{\n\
                 \x20       row = CHECKERS_WEIGHTS + 66 + (CHECKERS_BOARD_INPUTS - 1) * CHECKERS_HIDDEN;\n\
                 \x20       for (j = 0; j < CHECKERS_HIDDEN; j++) sums[j] += row[j];\n\
                 \x20   }}\n\
                 \x20   row = CHECKERS_WEIGHTS + 66 + (CHECKERS_BOARD_INPUTS + 1) * CHECKERS_HIDDEN; /* the outputs */\n\
                 \x20   for (j = 0; j < CHECKERS_HIDDEN; j++) {{\n\
                 \x20       /* sums[j] >> {NET_SHIFT} clamped to 0..{NET_ACT_MAX} (no shift of a negative number) */\n\
                 \x20       int32_t s = sums[j], act = s <= 0 ? 0 : (s >> {NET_SHIFT}) > {NET_ACT_MAX} ? {NET_ACT_MAX} : s >> {NET_SHIFT};\n\
                 \x20       out += act * row[j];\n\
                 \x20   }}\n\
                 \x20   return checkers_saturate(checkers_weighted_sum(v, 66, 0) + out);\n}}\n"
            )
        }
    }
}

/// The opening comment of an export: where it comes from, how to include it, which side its
/// value is for and its unit, as lines without the comment marks. `c`: the C header's text
/// (prefixed names), else the Rust module's.
fn usage_lines(w: &Weights, source: &str, prefix: &str, c: bool) -> Vec<String> {
    let up = prefix.to_ascii_uppercase();
    let module = prefix.trim_end_matches('_');
    let (fmt, f) = if c { ("c", prefix) } else { ("rust", "") };
    let man = man_value(w);
    let median = man_median(w);
    let board = w.set().is_board();
    let args = if board {
        "player_is_white, player_to_move"
    } else {
        "player_is_white"
    };
    let odd = if median < 1 {
        format!(
            " These weights do not value a man: the median is {median}, so MAN_VALUE is 1 and \
             to_centimen's values are not hundredths of a man."
        )
    } else {
        String::new()
    };
    let mut text = vec![
        format!("Evaluation weights exported by `checkers-ga export --format {fmt}` from"),
        format!("{}.", comment_text(source)),
        format!(
            "Weight i multiplies parameter i of {}NAMES; each parameter is defined in \
             docs/parameters.md of the checkers-ga repository (file formats: docs/formats.md). \
             {f}evaluate(black, white, kings, {args}) below is the whole evaluation \
             with these weights, as checkers-ga computes it.",
            if c { up.as_str() } else { "" }
        ),
        String::new(),
    ];
    text.push(if c {
        format!(
            "NAMES: every name here starts with {prefix} or {up} and the include guard is {up}H \
             (`export --prefix NAME` chooses the prefix; by default it comes from the weight \
             file's name), so the exports of other weights can live in the same program. C99 \
             or C++, this header and no other file: #include it under any file name."
        )
    } else {
        format!(
            "NAMES: save as {module}.rs and declare `mod {module};` (`export --prefix NAME` \
             chooses the suggested name; by default it comes from the weight file's name). The \
             names inside are not prefixed: each export is a module of its own, so the exports \
             of other weights can live in the same crate."
        )
    });
    text.push(String::new());
    text.push(
        "BOARD: a position is three 32-bit masks, black and white (each side's pieces) and kings \
         (the kings of both): bit i is square i + 1, squares 1-32 as in PDN, Black starts on \
         1-12 and moves toward 32 (the start: black = 0x00000fff, white = 0xfff00000, kings = \
         0). SIDE below says which player a value is for and what a search calls; UNIT what a \
         man is worth; CHECK the values of two positions to test a program against."
            .to_string(),
    );
    text.push(String::new());
    let to_move = if board {
        format!(
            " (player_to_move: whether that player is the side to move, an input of this board \
             set's network; {f}evaluate_for_root and {f}evaluate_side_to_move pass it \
             themselves)"
        )
    } else {
        ", whoever is to move".to_string()
    };
    text.push(format!(
        "SIDE: {f}evaluate(black, white, kings, {args}) is the value for the player \
         named{to_move}, and it is not antisymmetric (the two players' values of one \
         position do not sum to 0). At the leaves of a negamax search call \
         {f}evaluate_for_root(black, white, kings, white_to_move, root_is_white): the value for \
         the root player (the side choosing the move), negated where the opponent is to move, \
         which is what checkers-ga's own search does; then the search plays as checkers-ga's \
         (worked example before that function, at the end). A minimax search that always \
         maximizes for Black, as many older engines do, calls {f}evaluate_for_black(black, \
         white, kings, white_to_move, root_is_white) at its leaves instead: the same value from \
         Black's point of view."
    ));
    text.push(String::new());
    text.push(format!(
        "UNIT: one man is worth {}MAN_VALUE = {man} units: {MAN_VALUE_TEXT}. \
         {f}to_centimen(v) gives a value in hundredths of a man.{odd}",
        if c { up.as_str() } else { "" }
    ));
    text.push(String::new());
    text.push(check_text(w, f));
    let mut lines = Vec::new();
    for t in text {
        if t.is_empty() {
            lines.push(String::new());
        } else {
            lines.extend(wrap_words(&t, 94));
        }
    }
    lines
}

/// Rust source for a module: the usage comment (side, unit, module name), `PARAMS`, `WEIGHTS`
/// (one weight per line, its number and name in a comment), `NAMES`, `MAN_VALUE`, and the
/// evaluation as code: `features` (the values of a position given as three bitboards),
/// `evaluate` (the set's sum, and for net66 the network), `evaluate_for_root`,
/// `evaluate_side_to_move` and `to_centimen`. `prefix` gives the suggested module name.
pub fn to_rust(w: &Weights, source: &str, prefix: &str) -> String {
    let mut s = String::new();
    for l in usage_lines(w, source, prefix, false) {
        let _ = writeln!(s, "//{}{l}", if l.is_empty() { "" } else { " " });
    }
    s.push('\n');
    let n = w.len();
    let params = w.set().params();
    s.push_str("/// The parameter set the weights are for.\n");
    let _ = writeln!(s, "pub const PARAMS: &str = \"{}\";\n", w.set());
    let _ = writeln!(s, "/// The {n} evaluation weights.");
    let _ = writeln!(s, "pub const WEIGHTS: [i16; {n}] = [");
    for (i, p) in params.iter().enumerate() {
        let v = format!("{},", w[i]);
        let _ = writeln!(s, "    {v:<7} // {} {}", i + 1, p.name);
    }
    s.push_str("];\n\n");
    s.push_str("/// The parameter names, in the same order.\n");
    let _ = writeln!(s, "pub const NAMES: [&str; {n}] = [");
    for p in params.iter() {
        let _ = writeln!(s, "    \"{}\",", p.name);
    }
    s.push_str("];\n\n");
    for l in wrap_words(&format!("What one man is worth: {MAN_VALUE_TEXT}."), 94) {
        let _ = writeln!(s, "/// {l}");
    }
    let _ = writeln!(s, "pub const MAN_VALUE: i32 = {};\n", man_value(w));
    s.push_str(&for_set(include_str!("export_eval.rs.txt"), w.set()));
    s.push('\n');
    s.push_str(&rust_evaluate(w.set()));
    s.push('\n');
    s.push_str(&for_set(include_str!("export_eval_search.rs.txt"), w.set()));
    s
}

/// A C header, every name starting with `prefix` (lower case) or its upper case: the usage
/// comment (side, unit, names), include guard `PREFIX_H`, `PREFIX_WEIGHTS` (int16_t, one per
/// line with its number and name in a comment), `PREFIX_NAMES`, `PREFIX_MAN_VALUE`, and the
/// evaluation as code (`static inline`): `prefix_features`, `prefix_evaluate`,
/// `prefix_evaluate_for_root`, `prefix_evaluate_side_to_move` and `prefix_to_centimen`.
pub fn to_c_header(w: &Weights, source: &str, prefix: &str) -> String {
    let mut s = String::new();
    let lines = usage_lines(w, source, prefix, true);
    for (i, l) in lines.iter().enumerate() {
        let lead = if i == 0 { "/*" } else { " *" };
        let _ = writeln!(s, "{lead}{}{l}", if l.is_empty() { "" } else { " " });
    }
    s.push_str(" */\n");
    s.push_str("#ifndef CHECKERS_H\n#define CHECKERS_H\n\n");
    s.push_str("#include <stdint.h>\n\n");
    let params = w.set().params();
    let _ = writeln!(s, "#define CHECKERS_PARAMS \"{}\"", w.set());
    let _ = writeln!(s, "#define CHECKERS_NUM_WEIGHTS {}\n", w.len());
    s.push_str("static const int16_t CHECKERS_WEIGHTS[CHECKERS_NUM_WEIGHTS] = {\n");
    for (i, p) in params.iter().enumerate() {
        // -32768 is unary minus on the int 32768: the result fits an int16_t.
        let v = format!("{},", w[i]);
        let _ = writeln!(s, "    {v:<7} /* {} {} */", i + 1, p.name);
    }
    s.push_str("};\n\n");
    s.push_str("static const char *const CHECKERS_NAMES[CHECKERS_NUM_WEIGHTS] = {\n");
    for p in params.iter() {
        let _ = writeln!(s, "    \"{}\",", p.name);
    }
    s.push_str("};\n\n");
    s.push_str("/* What one man is worth (see UNIT above). */\n");
    let _ = writeln!(s, "#define CHECKERS_MAN_VALUE {}\n", man_value(w));
    s.push_str(&for_set(include_str!("export_eval.c.txt"), w.set()));
    s.push('\n');
    s.push_str(&c_evaluate(w.set()));
    s.push('\n');
    s.push_str(&for_set(include_str!("export_eval_search.c.txt"), w.set()));
    s.push_str("\n#endif /* CHECKERS_H */\n");
    // The comment names the prefix already; the code is written with `checkers_`.
    let (head, code) = s.split_at(s.find("#ifndef").unwrap_or(0));
    format!("{head}{}", prefixed(code, prefix))
}

/// What a board set's evaluation computes, for the Rust and the C export alike.
fn board_description() -> String {
    format!(
        "the weighted sum of the 66 values plus the network's output over the pieces on the \
         board: the sum over the hidden units of the output weight times clamp((bias + the input \
         weights of the inputs present) >> {NET_SHIFT}, 0, {NET_ACT_MAX})"
    )
}

/// The board network's inputs, for the Rust and the C export alike.
const BOARD_INPUTS_TEXT: &str = "The inputs, from the player's side: own men, own kings, \
     opponent men and opponent kings on each square (for White the board is turned, its square s \
     being square 33 - s), and to_move when player_to_move (the player is the side to move).";

/// What the network set's evaluation computes, for the Rust and the C export alike.
fn net_description() -> String {
    format!(
        "the weighted sum of the 66 values plus the network's output: the sum over the hidden \
         units of the output weight times clamp((bias + sum of input weight * value) >> \
         {NET_SHIFT}, 0, {NET_ACT_MAX}), each value first clamped to \
         -{NET_INPUT_CLAMP}..={NET_INPUT_CLAMP}"
    )
}
