#!/usr/bin/env python3
"""A small English draughts engine that speaks the Hub protocol: the kind a student writes.

Python's standard library only. Alpha-beta with iterative deepening over a hand-written
evaluation whose weights are Hub `int` parameters, so any Hub client can set them
(`set-param name=king value=140`) and a tuner can tune them. Run it under checkers-ga:

    checkers-ga match classic "hub:python3 examples/hub_engine.py" --depth 4 --games 20

The board: the 32 dark squares in standard numbering, Black's men on 1-12 moving first,
toward 32; White's on 21-32. Hub's position string (as pydraughts writes it for English
draughts) is the side letter then one character per square with the colours swapped and the
board turned: character k (0-based, after the side letter) is square 32 - k; `w` is a Black man,
`W` a Black king, `b` a White man, `B` a White king, `e` empty; `W` first means Black to move.
Moves are in standard numbering: `11-15`, and a capture `FROMxTOxC1xC2...` with the taken
squares.

Settings: `set-param` may come at any time, any number of times (between games too); it takes
effect from the next `go`. A tuning session sends them so: `hub`, `init`, then before each game
`set-param` for each tuned parameter, `init` and `new-game` (docs/engines.md, "The order we
send"). A value that is not an integer is refused with an `error` line and
the old value kept; one out of the declared range is clamped to it. `init` always answers
`ready`.

Deterministic: at a fixed depth (`level depth=N`) the move depends only on the position, the
weights and N. Moves are generated in square order (1 to 32, then a fixed order of
directions), never in the order of a dict or a set, so the way the position was reached or sent
does not matter; among root moves of equal score the first in that order wins (after each
depth the best move so far is searched first). Only `stop`, or a clock (`level move-time=` or
`level time=`), cuts a search short.

Speed: the squares' neighbours, the evaluation's value of each piece on each square and the
distances between squares are tables computed once; a leaf counts its moves for the mobility
term without listing them. None of this changes what a position is worth.
"""

import shlex
import sys
import threading
import time
from operator import getitem

# Parameters: name -> (default, min, max). Scores are in hundredths of a man (the `man` weight
# is the unit and is not tuned).
PARAMS = {
    "king": (130, 100, 300),
    "centre": (6, -30, 30),
    "edge": (-4, -30, 30),
    "back-rank": (8, -30, 40),
    "double-corner": (5, -30, 30),
    "advance": (2, -10, 10),
    "king-distance": (3, 0, 20),
    "mobility": (2, 0, 10),
}
MAN = 100
WIN = 100000


def rc(s):
    """Row 0..7 (row 0 holds squares 1-4) and column 0..7 of square s."""
    r = (s - 1) // 4
    c = 2 * ((s - 1) % 4) + (1 if r % 2 == 0 else 0)
    return r, c


SQ = {rc(s): s for s in range(1, 33)}
CENTRE = {14, 15, 18, 19}
EDGE = {5, 13, 21, 12, 20, 28}
DOUBLE_CORNER = {1, 5, 28, 32}

# A board is a list of 33 characters: board[s] is square s's piece, 'b' a Black man, 'B' a
# Black king, 'w' a White man, 'W' a White king, EMPTY none (board[0] is unused and EMPTY).
# The side to move is 'b' or 'w'.
EMPTY = "."
PIECES = {"b": "bB", "w": "wW"}
OPPONENT = {"b": "w", "w": "b"}
KING_DIRS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
DIRS = {"b": KING_DIRS[:2], "w": KING_DIRS[2:], "B": KING_DIRS, "W": KING_DIRS}
# Where a man crowns (a king crowns nowhere).
CROWNS = {"b": frozenset(range(29, 33)), "w": frozenset(range(1, 5)), "B": (), "W": ()}


def _neighbours(far):
    """piece -> square -> the squares one step away (far: the (over, to) pairs of a jump), in
    the order of DIRS."""
    table = {}
    for piece, dirs in DIRS.items():
        rows = [()]
        for s in range(1, 33):
            r, c = rc(s)
            if far:
                rows.append(tuple((SQ[r + dr, c + dc], SQ[r + 2 * dr, c + 2 * dc])
                                  for dr, dc in dirs if (r + 2 * dr, c + 2 * dc) in SQ))
            else:
                rows.append(tuple(SQ[r + dr, c + dc] for dr, dc in dirs if (r + dr, c + dc) in SQ))
        table[piece] = rows
    return table


STEPS = _neighbours(False)
JUMPS = _neighbours(True)
# The king-distance term's distance: the larger of the row and column differences.
DIST = [[0] * 33] + [
    [0] + [max(abs(rc(a)[0] - rc(t)[0]), abs(rc(a)[1] - rc(t)[1])) for t in range(1, 33)]
    for a in range(1, 33)
]


class Position:
    """board: a list of 33 characters (see EMPTY); turn 'b' or 'w'."""

    def __init__(self, board, turn):
        self.board = board
        self.turn = turn

    @staticmethod
    def from_hub(text):
        if len(text) != 33 or text[0] not in "WB":
            raise ValueError(f"bad position {text!r}")
        board = [EMPTY] * 33
        swap = {"w": "b", "W": "B", "b": "w", "B": "W"}
        for k, ch in enumerate(text[1:]):
            if ch in swap:
                board[32 - k] = swap[ch]
            elif ch != "e":
                raise ValueError(f"bad square {ch!r} in {text!r}")
        return Position(board, "b" if text[0] == "W" else "w")

    def moves(self):
        """Legal moves as (from, to, taken): taken the captured squares in the order taken."""
        return moves(self.board, self.turn)

    def play(self, move):
        return Position(play(self.board, move), OPPONENT[self.turn])


def moves(board, turn):
    """The legal moves of `turn`: the captures when there are any (a capture is compulsory and
    goes on to its end), else the steps; by square, then by direction."""
    own, enemy = PIECES[turn], PIECES[OPPONENT[turn]]
    out = []
    for s, p in enumerate(board):
        if p in own:
            for over, to in JUMPS[p][s]:
                if board[over] in enemy and board[to] == EMPTY:
                    if to in CROWNS[p]:  # a man that crowns ends its move
                        out.append((s, to, (over,)))
                    else:
                        _jumps(board, to, p, s, (over,), enemy, out)
    if out:
        return out
    for s, p in enumerate(board):
        if p in own:
            for to in STEPS[p][s]:
                if board[to] == EMPTY:
                    out.append((s, to, ()))
    return out


def _jumps(board, at, piece, start, taken, enemy, out):
    """The rest of a capture that started on `start` and has reached `at`, having taken
    `taken` (those stay on the board until the move ends: none is jumped twice)."""
    found = False
    for over, to in JUMPS[piece][at]:
        if board[over] in enemy and over not in taken and (board[to] == EMPTY or to == start):
            found = True
            if to in CROWNS[piece]:
                out.append((start, to, taken + (over,)))
            else:
                _jumps(board, to, piece, start, taken + (over,), enemy, out)
    if not found:
        out.append((start, at, taken))


def count_steps(board, turn):
    """How many steps `turn` has, or None when it has a capture (then only captures are
    legal: see moves())."""
    own, enemy = PIECES[turn], PIECES[OPPONENT[turn]]
    n = 0
    for s, p in enumerate(board):
        if p in own:
            for over, to in JUMPS[p][s]:
                if board[over] in enemy and board[to] == EMPTY:
                    return None
            for to in STEPS[p][s]:
                if board[to] == EMPTY:
                    n += 1
    return n


def play(board, move):
    """The board after `move` (a new list)."""
    start, to, taken = move
    b = board[:]
    piece = b[start]
    b[start] = EMPTY
    for t in taken:
        b[t] = EMPTY
    if to in CROWNS[piece]:
        piece = piece.upper()
    b[to] = piece
    return b


def hub_move(move):
    start, to, taken = move
    if taken:
        return "x".join(str(s) for s in [start, to] + sorted(taken))
    return f"{start}-{to}"


def find_move(pos, text):
    try:
        squares = [int(x) for x in text.replace("-", "x").split("x")]
    except ValueError:
        raise ValueError(f"not a move: {text}") from None
    for m in pos.moves():
        if hub_move(m) == text or (
            "x" in text
            and m[2]
            and squares[:2] == [m[0], m[1]]
            and sorted(squares[2:]) == sorted(m[2])
        ):
            return m
    raise ValueError(f"illegal move {text}")


def piece_values(w):
    """For each side to move, the list of 33 dicts square -> piece -> what the piece there is
    worth to that side (its own pieces count for it, the others against it; EMPTY is 0)."""
    out = {}
    for turn in "bw":
        squares = [{EMPTY: 0}]
        for s in range(1, 33):
            r, _ = rc(s)
            values = {EMPTY: 0}
            for p in "bBwW":
                side = p.lower()
                if p.isupper():
                    v = w["king"]
                    if s in DOUBLE_CORNER:
                        v += w["double-corner"]
                else:
                    v = MAN + w["advance"] * (r if side == "b" else 7 - r)
                    if (side == "b" and r == 0) or (side == "w" and r == 7):
                        v += w["back-rank"]
                if s in CENTRE:
                    v += w["centre"]
                if s in EDGE:
                    v += w["edge"]
                values[p] = v if side == turn else -v
            squares.append(values)
        out[turn] = squares
    return out


def evaluate(board, turn, w, values, mobility):
    """The score for the side to move, in hundredths of a man: each piece's value on its
    square (`values`, from piece_values(w)), the king-distance term in the ending, and
    `mobility` (the number of the side to move's legal moves) times its weight."""
    score = sum(map(getitem, values[turn], board))
    # In the ending, kings go after the enemy: the closer the better for the side ahead.
    if board.count("b") + board.count("w") <= 4 and score != 0:
        behind = OPPONENT[turn] if score > 0 else turn
        ahead = OPPONENT[behind]
        king = ahead.upper()
        if king in board:
            targets = [s for s, p in enumerate(board) if p in PIECES[behind]]
            for k, p in enumerate(board):
                if p == king:
                    dist = min((DIST[k][t] for t in targets), default=0)
                    bonus = w["king-distance"] * (7 - dist)
                    score += bonus if ahead == turn else -bonus
    return score + w["mobility"] * mobility


class Search:
    def __init__(self, weights, deadline, stop):
        self.w = weights
        self.values = piece_values(weights)
        self.deadline = deadline
        self.stop = stop
        self.nodes = 0
        self.killers = {}

    def out_of_time(self):
        return self.stop.is_set() or (self.deadline is not None and time.time() > self.deadline)

    def negamax(self, board, turn, depth, alpha, beta, ply):
        self.nodes += 1
        if self.nodes % 512 == 0 and self.out_of_time():
            raise TimeoutError
        if depth <= 0:
            # A quiet leaf: its value, or a loss without a move; captures are searched on.
            n = count_steps(board, turn)
            if n is not None:
                return evaluate(board, turn, self.w, self.values, n) if n else -WIN + ply
        ms = moves(board, turn)
        if not ms:
            return -WIN + ply
        # The move that last refuted a move at this ply first (a "killer"): the order of
        # the moves changes how much is searched, never what the search finds.
        killer = self.killers.get(ply)
        if killer is not None and killer in ms and len(ms) > 1:
            ms.remove(killer)
            ms.insert(0, killer)
        best = -WIN - 1
        other = OPPONENT[turn]
        for m in ms:
            v = -self.negamax(play(board, m), other, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.killers[ply] = m
                        break
        return best

    def root(self, pos, depth, order):
        best, best_move = -WIN - 1, order[0]
        alpha = -WIN - 1
        other = OPPONENT[pos.turn]
        for m in order:
            v = -self.negamax(play(pos.board, m), other, depth - 1, -WIN - 1, -alpha, 1)
            if v > best:
                best, best_move = v, m
            alpha = max(alpha, v)
        return best, best_move


def think(pos, weights, max_depth, seconds, stop, say):
    """Iterative deepening; the best move of the last finished depth, and info lines."""
    start = time.time()
    deadline = start + seconds if seconds is not None else None
    order = pos.moves()
    if len(order) == 1:
        return order[0]
    search = Search(weights, deadline, stop)
    best_move = order[0]
    for depth in range(1, max_depth + 1):
        try:
            score, move = search.root(pos, depth, order)
        except TimeoutError:
            break
        best_move = move
        order.remove(move)
        order.insert(0, move)
        t = max(time.time() - start, 1e-6)
        say(
            f"info depth={depth} score={score / 100:.2f} nodes={search.nodes} "
            f"time={t:.3f} nps={search.nodes / t:.0f} pv=\"{hub_move(move)}\""
        )
        if abs(score) > WIN - 1000 or (deadline is not None and time.time() - start > seconds / 2):
            break
    return best_move


def parse(line):
    """A Hub line: its command and a dict of its arguments (quoted values unquoted)."""
    words = shlex.split(line)
    if not words:
        return None, {}
    args = {}
    for w in words[1:]:
        k, _, v = w.partition("=")
        args[k] = v
    return words[0], args


def number(args, name, kind=int):
    """Argument `name` as a number; a ValueError saying which when it is not one."""
    text = args.get(name, "")
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a number") from None


class Engine:
    """The protocol's state: weights, the position, the level, the search under way."""

    def __init__(self):
        self.weights = {name: d for name, (d, _, _) in PARAMS.items()}
        self.lock = threading.Lock()
        self.pos, self.depth, self.seconds = None, 64, 1.0
        self.stop = threading.Event()
        self.worker = None

    def say(self, text):
        with self.lock:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

    def handle(self, cmd, args):
        """Answers one command; False once it is `quit`."""
        if cmd == "hub":
            self.say('id name="hub_engine.py" version=1.1 author="checkers-ga example"')
            for name, (d, lo, hi) in PARAMS.items():
                self.say(f"param name={name} value={d} type=int min={lo} max={hi}")
            self.say("wait")
        elif cmd == "set-param":
            name, value = args.get("name"), args.get("value", "")
            if name in PARAMS:
                lo, hi = PARAMS[name][1:]
                try:
                    v = int(value)
                except ValueError:
                    raise ValueError(
                        f"set-param {name}: {value!r} is not an integer, {name} stays "
                        f"{self.weights[name]}"
                    ) from None
                self.weights[name] = max(lo, min(hi, v))
        elif cmd == "init":
            self.say("ready")
        elif cmd == "ping":
            self.say("pong")
        elif cmd == "pos":
            p = Position.from_hub(args.get("pos", ""))
            for m in args.get("moves", "").split():
                p = p.play(find_move(p, m))
            self.pos = p
        elif cmd == "level":
            if "depth" in args:
                depth, seconds = max(1, number(args, "depth")), None
            elif "move-time" in args:
                depth, seconds = 64, number(args, "move-time", float)
            elif "time" in args:
                left = number(args, "time", float) + float(args.get("inc") or 0)
                depth, seconds = 64, max(0.01, left / float(args.get("moves") or 30))
            else:
                depth, seconds = 64, None
            self.depth, self.seconds = depth, seconds
        elif cmd == "go":
            if self.pos is None:
                raise ValueError("go before pos")
            self.finish()
            self.stop.clear()
            pos, depth, seconds, weights = self.pos, self.depth, self.seconds, dict(self.weights)

            def run():
                m = think(pos, weights, depth, seconds, self.stop, self.say)
                self.say(f"done move={hub_move(m)}")

            self.worker = threading.Thread(target=run)
            self.worker.start()
        elif cmd == "stop":
            self.stop.set()
        elif cmd == "quit":
            return False
        # new-game and unknown commands: nothing to do.
        return True

    def finish(self):
        """Stops the search under way, if any, and waits for its answer."""
        self.stop.set()
        if self.worker is not None:
            self.worker.join()
            self.worker = None


def main():
    engine = Engine()
    for line in sys.stdin:
        try:
            cmd, args = parse(line.strip())
            if not engine.handle(cmd, args):
                break
        except ValueError as e:
            # Hub quotes a value in double quotes and has no escapes.
            text = str(e).replace('"', "'")
            engine.say(f'error message="{text}"')
    engine.finish()


if __name__ == "__main__":
    main()
