/* An engine author's program, for tests/export.rs: a plain alpha-beta (negamax) search of
 * English draughts with its own move generator, and two evaluations exported by
 * `checkers-ga export --format c` (net66.h with the prefix net66_, endgame66.h with endgame66_)
 * at its leaves. Nothing of checkers-ga's is used but those two headers.
 *
 * Input (standard input), one position a line: `black white kings white_to_move depth`
 * (bitboards as the headers define them: bit i is square i + 1). Output, one line each:
 * `value move tie...`: the root value, the move chosen (the first of the best in this
 * program's generation order) and every root move of that same value, moves written as
 * `11-15` or `15x24x31`. Argument: `net66` or `endgame66`, the evaluation to use; with a
 * second argument `black`, the search is instead the minimax of an older engine that always
 * maximizes for Black (Black maximizes and White minimizes at every node) with
 * `evaluate_for_black` at its leaves, and the root value is given for the root player.
 *
 * `author-search bench net66|endgame66 ROUNDS` times the evaluation instead (for
 * scripts/bench-export.sh): 312 positions, the start and positions 6 to 40 random plies after
 * it (a fixed generator), each evaluated for both players ROUNDS times; it prints
 * `eval_ns X`, the CPU time per evaluation in nanoseconds.
 *
 * The search rules are the ones the export's comment describes for a negamax search: leaves are
 * evaluated for the root player with `evaluate_for_root`; a side with no move has lost,
 * -(WIN - ply); at depth 0 a side that must capture keeps searching (captures are forced). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net66.h"
#include "endgame66.h"
/* Twice: the include guards work. */
#include "net66.h"
#include "endgame66.h"

#define WIN 1500000000
#define INF (WIN + 1)
#define MAX_PLY 128
#define MAX_MOVES 128

typedef struct {
    uint32_t black, white, kings;
    int white_to_move;
} Pos;

typedef struct {
    uint32_t from, to, captured; /* bit indices, a bitboard */
    int nsq;
    int sq[14]; /* from, each landing square, to (1-32) */
} Move;

typedef struct {
    Move m[MAX_MOVES];
    int n;
} MoveList;

/* Board geometry: square s (0..31) on row s / 4; even rows have their squares one column to
 * the right of odd rows'. dir 0 up-left, 1 up-right (toward square 32), 2 down-left, 3
 * down-right. */
static int neighbour(int s, int d) {
    int row = s / 4, col = 2 * (s % 4) + 1 - row % 2;
    int r = row + (d < 2 ? 1 : -1), c = col + (d % 2 == 0 ? -1 : 1);
    if (r < 0 || r > 7 || c < 0 || c > 7) return -1;
    if ((r + c) % 2 == 0) return -1;
    return r * 4 + c / 2;
}

static int NB[32][4];

static void init_board(void) {
    int s, d;
    for (s = 0; s < 32; s++)
        for (d = 0; d < 4; d++) NB[s][d] = neighbour(s, d);
}

static void add_jumps(const Pos *p, int king, uint32_t crown, int cur, uint32_t taken,
                      uint32_t empty, uint32_t opp, Move *m, MoveList *out) {
    int d, found = 0;
    for (d = 0; d < 4; d++) {
        int mid, land;
        if (!king && (p->white_to_move ? d < 2 : d >= 2)) continue;
        mid = NB[cur][d];
        if (mid < 0 || !(opp & (1u << mid)) || (taken & (1u << mid))) continue;
        land = NB[mid][d];
        if (land < 0 || !(empty & (1u << land))) continue;
        found = 1;
        m->sq[m->nsq++] = land + 1;
        if (!king && (crown & (1u << land))) {
            /* A man that reaches the crowning row stops there. */
            Move done = *m;
            done.to = (uint32_t)land;
            done.captured = taken | (1u << mid);
            out->m[out->n++] = done;
        } else {
            add_jumps(p, king, crown, land, taken | (1u << mid), empty, opp, m, out);
        }
        m->nsq--;
    }
    if (!found && m->nsq > 1) {
        Move done = *m;
        done.to = (uint32_t)cur;
        done.captured = taken;
        out->m[out->n++] = done;
    }
}

static void generate(const Pos *p, MoveList *out) {
    uint32_t own = p->white_to_move ? p->white : p->black;
    uint32_t opp = p->white_to_move ? p->black : p->white;
    uint32_t crown = p->white_to_move ? 0x0000000Fu : 0xF0000000u;
    uint32_t empty = ~(own | opp);
    int s, d;
    out->n = 0;
    for (s = 0; s < 32; s++) {
        Move m;
        if (!(own & (1u << s))) continue;
        m.from = (uint32_t)s;
        m.nsq = 1;
        m.sq[0] = s + 1;
        /* The origin is empty while the piece jumps. */
        add_jumps(p, (p->kings >> s) & 1u, crown, s, 0, empty | (1u << s), opp, &m, out);
    }
    if (out->n) return;
    for (s = 0; s < 32; s++) {
        int king = (p->kings >> s) & 1u;
        if (!(own & (1u << s))) continue;
        for (d = 0; d < 4; d++) {
            int t;
            Move m;
            if (!king && (p->white_to_move ? d < 2 : d >= 2)) continue;
            t = NB[s][d];
            if (t < 0 || !(empty & (1u << t))) continue;
            m.from = (uint32_t)s;
            m.to = (uint32_t)t;
            m.captured = 0;
            m.nsq = 2;
            m.sq[0] = s + 1;
            m.sq[1] = t + 1;
            out->m[out->n++] = m;
        }
    }
}

static Pos play(const Pos *p, const Move *m) {
    Pos q = *p;
    uint32_t from = 1u << m->from, to = 1u << m->to;
    uint32_t *own = p->white_to_move ? &q.white : &q.black;
    uint32_t *opp = p->white_to_move ? &q.black : &q.white;
    uint32_t crown = p->white_to_move ? 0x0000000Fu : 0xF0000000u;
    int king = (p->kings & from) != 0;
    *own = (*own & ~from) | to;
    *opp &= ~m->captured;
    q.kings &= ~(from | m->captured);
    if (king || (to & crown)) q.kings |= to;
    q.white_to_move = !p->white_to_move;
    return q;
}

static int use_net;
static int for_black;
static int root_is_white;

static int32_t leaf(const Pos *p) {
    return use_net ? net66_evaluate_for_root(p->black, p->white, p->kings, p->white_to_move,
                                             root_is_white)
                   : endgame66_evaluate_for_root(p->black, p->white, p->kings,
                                                 p->white_to_move, root_is_white);
}

static int32_t negamax(const Pos *p, int depth, int ply, int32_t alpha, int32_t beta) {
    MoveList list;
    int i;
    int32_t best = -INF;
    generate(p, &list);
    if (list.n == 0) return -(WIN - ply);
    /* At the horizon, a side that must capture keeps searching. */
    if ((depth <= 0 && list.m[0].captured == 0) || ply >= MAX_PLY - 1) return leaf(p);
    for (i = 0; i < list.n; i++) {
        Pos q = play(p, &list.m[i]);
        int32_t v = -negamax(&q, depth - 1, ply + 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
    }
    return best;
}

static int32_t leaf_for_black(const Pos *p) {
    return use_net ? net66_evaluate_for_black(p->black, p->white, p->kings, p->white_to_move,
                                              root_is_white)
                   : endgame66_evaluate_for_black(p->black, p->white, p->kings,
                                                  p->white_to_move, root_is_white);
}

/* Alpha-beta minimax from Black's point of view: Black maximizes, White minimizes; a side with
 * no move has lost (WIN - ply for Black when White cannot move). */
static int32_t minimax_black(const Pos *p, int depth, int ply, int32_t alpha, int32_t beta) {
    MoveList list;
    int i;
    int32_t best = p->white_to_move ? INF : -INF;
    generate(p, &list);
    if (list.n == 0) return p->white_to_move ? WIN - ply : -(WIN - ply);
    if ((depth <= 0 && list.m[0].captured == 0) || ply >= MAX_PLY - 1) return leaf_for_black(p);
    for (i = 0; i < list.n; i++) {
        Pos q = play(p, &list.m[i]);
        int32_t v = minimax_black(&q, depth - 1, ply + 1, alpha, beta);
        if (p->white_to_move ? v < best : v > best) {
            best = v;
            if (p->white_to_move && v < beta) beta = v;
            if (!p->white_to_move && v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
    }
    return best;
}

static void print_move(const Move *m) {
    int i;
    for (i = 0; i < m->nsq; i++) printf("%s%d", i ? (m->captured ? "x" : "-") : "", m->sq[i]);
}

static int32_t evaluate(const Pos *p, int white) {
    return use_net ? net66_evaluate(p->black, p->white, p->kings, white)
                   : endgame66_evaluate(p->black, p->white, p->kings, white);
}

static int bench(long rounds) {
    static Pos set[312];
    uint32_t seed = 12345u;
    int n = 0, i, c;
    long r;
    volatile int64_t sink = 0;
    clock_t start;
    double ns;
    set[n].black = 0x00000FFFu;
    set[n].white = 0xFFF00000u;
    set[n].kings = 0;
    set[n++].white_to_move = 0;
    while (n < 312) {
        Pos p = set[0];
        int plies = 6 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 35, ply;
        for (ply = 0; ply < plies; ply++) {
            MoveList list;
            generate(&p, &list);
            if (list.n == 0) break;
            seed = seed * 1103515245u + 12345u;
            p = play(&p, &list.m[(seed >> 16) % (uint32_t)list.n]);
        }
        set[n++] = p;
    }
    start = clock();
    for (r = 0; r < rounds; r++)
        for (i = 0; i < n; i++)
            for (c = 0; c < 2; c++) sink += evaluate(&set[i], c);
    ns = (double)(clock() - start) / CLOCKS_PER_SEC * 1e9 / ((double)rounds * n * 2);
    printf("eval_ns %.1f\n", ns);
    return 0;
}

int main(int argc, char **argv) {
    unsigned long b, w, k;
    int stm, depth;
    if (argc == 4 && strcmp(argv[1], "bench") == 0) {
        use_net = strcmp(argv[2], "net66") == 0;
        init_board();
        return bench(atol(argv[3]));
    }
    if (argc < 2 || argc > 3 || (strcmp(argv[1], "net66") && strcmp(argv[1], "endgame66"))
        || (argc == 3 && strcmp(argv[2], "black"))) {
        fprintf(stderr, "usage: author-search net66|endgame66 [black] < positions\n");
        return 2;
    }
    use_net = strcmp(argv[1], "net66") == 0;
    for_black = argc == 3;
    init_board();
    while (scanf("%lu %lu %lu %d %d", &b, &w, &k, &stm, &depth) == 5) {
        Pos p;
        MoveList list;
        int i, chosen = -1, ties[MAX_MOVES], nties = 0;
        int32_t best = -INF;
        p.black = (uint32_t)b;
        p.white = (uint32_t)w;
        p.kings = (uint32_t)k;
        p.white_to_move = stm;
        root_is_white = stm;
        generate(&p, &list);
        if (list.n == 0) {
            printf("none\n");
            continue;
        }
        for (i = 0; i < list.n; i++) {
            Pos q = play(&p, &list.m[i]);
            /* Window (best - 1, INF): a move as good as the best so far gets its exact value. */
            int32_t lo = best - 1 < -INF ? -INF : best - 1, v;
            if (!for_black) {
                v = -negamax(&q, depth - 1, 1, -INF, -lo);
            } else if (!stm) {
                v = minimax_black(&q, depth - 1, 1, lo, INF);
            } else {
                /* White at the root minimizes Black's value: the root player's is its negation. */
                v = -minimax_black(&q, depth - 1, 1, -INF, -lo);
            }
            if (v > best) {
                best = v;
                chosen = i;
                nties = 0;
            }
            if (v == best) ties[nties++] = i;
        }
        printf("%ld ", (long)best);
        print_move(&list.m[chosen]);
        for (i = 0; i < nties; i++) {
            printf(" ");
            print_move(&list.m[ties[i]]);
        }
        printf("\n");
    }
    return 0;
}
