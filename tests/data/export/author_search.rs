//! An engine author's program, for tests/export.rs: a plain alpha-beta (negamax) search of
//! English draughts with its own move generator, and two evaluations exported by
//! `checkers-ga export --format rust` (the modules `net66` and `endgame66`) at its leaves.
//! Nothing of checkers-ga's is used but those two files.
//!
//! Input (standard input), one position a line: `black white kings white_to_move depth`
//! (bitboards as the exports define them: bit i is square i + 1). Output, one line each:
//! `value move tie...`: the root value, the move chosen (the first of the best in this
//! program's generation order) and every root move of that same value, moves written as
//! `11-15` or `15x24x31`. Argument: `net66` or `endgame66`, the evaluation to use.
//!
//! The search rules are the ones the export's comment describes for a negamax search: leaves
//! are evaluated for the root player with `evaluate_for_root`; a side with no move has lost,
//! -(WIN - ply); at depth 0 a side that must capture keeps searching (captures are forced).

// Exports are libraries: this program does not use every function of them.
#[allow(dead_code)]
mod endgame66;
#[allow(dead_code)]
mod net66;

use std::io::BufRead;

const WIN: i32 = 1_500_000_000;
const INF: i32 = WIN + 1;
const MAX_PLY: i32 = 128;

#[derive(Clone, Copy)]
struct Pos {
    black: u32,
    white: u32,
    kings: u32,
    white_to_move: bool,
}

#[derive(Clone)]
struct Move {
    from: usize,
    to: usize,
    captured: u32,
    /// From, each landing square, to (1-32).
    squares: Vec<usize>,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sep = if self.captured != 0 { "x" } else { "-" };
        let text: Vec<String> = self.squares.iter().map(|s| s.to_string()).collect();
        f.write_str(&text.join(sep))
    }
}

/// Square `s` (0..31) one step in direction `d` (0 up-left, 1 up-right: toward square 32, 2
/// down-left, 3 down-right), if on the board.
fn neighbour(s: usize, d: usize) -> Option<usize> {
    let row = (s / 4) as i32;
    let col = (2 * (s % 4) + 1) as i32 - row % 2;
    let r = row + if d < 2 { 1 } else { -1 };
    let c = col + if d % 2 == 0 { -1 } else { 1 };
    if !(0..8).contains(&r) || !(0..8).contains(&c) || (r + c) % 2 == 0 {
        return None;
    }
    Some((r * 4 + c / 2) as usize)
}

struct Gen<'a> {
    p: &'a Pos,
    king: bool,
    crown: u32,
    empty: u32,
    opp: u32,
    out: Vec<Move>,
}

impl Gen<'_> {
    fn man_may(&self, d: usize) -> bool {
        self.king || if self.p.white_to_move { d >= 2 } else { d < 2 }
    }

    fn jumps(&mut self, cur: usize, taken: u32, path: &mut Vec<usize>) {
        let mut found = false;
        for d in 0..4 {
            if !self.man_may(d) {
                continue;
            }
            let Some(mid) = neighbour(cur, d) else {
                continue;
            };
            if self.opp & (1 << mid) == 0 || taken & (1 << mid) != 0 {
                continue;
            }
            let Some(land) = neighbour(mid, d) else {
                continue;
            };
            if self.empty & (1 << land) == 0 {
                continue;
            }
            found = true;
            path.push(land + 1);
            if !self.king && self.crown & (1 << land) != 0 {
                // A man that reaches the crowning row stops there.
                self.out.push(Move {
                    from: path[0] - 1,
                    to: land,
                    captured: taken | 1 << mid,
                    squares: path.clone(),
                });
            } else {
                self.jumps(land, taken | 1 << mid, path);
            }
            path.pop();
        }
        if !found && path.len() > 1 {
            self.out.push(Move {
                from: path[0] - 1,
                to: cur,
                captured: taken,
                squares: path.clone(),
            });
        }
    }
}

fn generate(p: &Pos) -> Vec<Move> {
    let (own, opp) = if p.white_to_move {
        (p.white, p.black)
    } else {
        (p.black, p.white)
    };
    let crown = if p.white_to_move {
        0x0000_000F
    } else {
        0xF000_0000
    };
    let mut g = Gen {
        p,
        king: false,
        crown,
        empty: !(own | opp),
        opp,
        out: Vec::new(),
    };
    for s in (0..32).filter(|s| own & (1 << s) != 0) {
        g.king = p.kings & (1 << s) != 0;
        // The origin is empty while the piece jumps.
        g.empty = !(own | opp) | 1 << s;
        g.jumps(s, 0, &mut vec![s + 1]);
    }
    if !g.out.is_empty() {
        return g.out;
    }
    g.empty = !(own | opp);
    for s in (0..32).filter(|s| own & (1 << s) != 0) {
        g.king = p.kings & (1 << s) != 0;
        for d in 0..4 {
            if !g.man_may(d) {
                continue;
            }
            if let Some(t) = neighbour(s, d).filter(|&t| g.empty & (1 << t) != 0) {
                g.out.push(Move {
                    from: s,
                    to: t,
                    captured: 0,
                    squares: vec![s + 1, t + 1],
                });
            }
        }
    }
    g.out
}

fn play(p: &Pos, m: &Move) -> Pos {
    let mut q = *p;
    let (from, to) = (1u32 << m.from, 1u32 << m.to);
    let crown = if p.white_to_move {
        0x0000_000F
    } else {
        0xF000_0000
    };
    let king = p.kings & from != 0;
    let (own, opp) = if p.white_to_move {
        (&mut q.white, &mut q.black)
    } else {
        (&mut q.black, &mut q.white)
    };
    *own = (*own & !from) | to;
    *opp &= !m.captured;
    q.kings &= !(from | m.captured);
    if king || to & crown != 0 {
        q.kings |= to;
    }
    q.white_to_move = !p.white_to_move;
    q
}

struct Search {
    use_net: bool,
    root_is_white: bool,
}

impl Search {
    fn leaf(&self, p: &Pos) -> i32 {
        let (b, w, k, stm, root) = (p.black, p.white, p.kings, p.white_to_move, self.root_is_white);
        if self.use_net {
            net66::evaluate_for_root(b, w, k, stm, root)
        } else {
            endgame66::evaluate_for_root(b, w, k, stm, root)
        }
    }

    fn negamax(&self, p: &Pos, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        let list = generate(p);
        if list.is_empty() {
            return -(WIN - ply);
        }
        // At the horizon, a side that must capture keeps searching.
        if (depth <= 0 && list[0].captured == 0) || ply >= MAX_PLY - 1 {
            return self.leaf(p);
        }
        let mut best = -INF;
        for m in &list {
            let v = -self.negamax(&play(p, m), depth - 1, ply + 1, -beta, -alpha);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    assert!(
        which == "net66" || which == "endgame66",
        "usage: author_search net66|endgame66 < positions"
    );
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let f: Vec<u32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let p = Pos {
            black: f[0],
            white: f[1],
            kings: f[2],
            white_to_move: f[3] == 1,
        };
        let depth = f[4] as i32;
        let s = Search {
            use_net: which == "net66",
            root_is_white: p.white_to_move,
        };
        let list = generate(&p);
        if list.is_empty() {
            println!("none");
            continue;
        }
        let mut best = -INF;
        let mut chosen = 0;
        let mut ties: Vec<usize> = Vec::new();
        for (i, m) in list.iter().enumerate() {
            // Window (best - 1, INF): a move as good as the best so far gets its exact value.
            let v = -s.negamax(&play(&p, m), depth - 1, 1, -INF, -(best - 1).max(-INF));
            if v > best {
                best = v;
                chosen = i;
                ties.clear();
            }
            if v == best {
                ties.push(i);
            }
        }
        let ties: Vec<String> = ties.iter().map(|&i| list[i].to_string()).collect();
        println!("{best} {} {}", list[chosen], ties.join(" "));
    }
}
