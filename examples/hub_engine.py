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
"""

import shlex
import sys
import threading
import time

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
DIRS = {"b": ((1, -1), (1, 1)), "w": ((-1, -1), (-1, 1))}
KING_DIRS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def step(s, d, n=1):
    r, c = rc(s)
    return SQ.get((r + d[0] * n, c + d[1] * n))


class Position:
    """board: dict square -> 'b' (Black man), 'B', 'w' (White man), 'W'; turn 'b' or 'w'."""

    def __init__(self, board, turn):
        self.board = board
        self.turn = turn

    @staticmethod
    def from_hub(text):
        if len(text) != 33 or text[0] not in "WB":
            raise ValueError(f"bad position {text!r}")
        board = {}
        swap = {"w": "b", "W": "B", "b": "w", "B": "W"}
        for k, ch in enumerate(text[1:]):
            if ch in swap:
                board[32 - k] = swap[ch]
            elif ch != "e":
                raise ValueError(f"bad square {ch!r} in {text!r}")
        return Position(board, "b" if text[0] == "W" else "w")

    def moves(self):
        """Legal moves as (path, taken): path the squares visited, taken the captured ones."""
        jumps = []
        for s, p in self.board.items():
            if p.lower() == self.turn:
                self._jumps(s, p, [s], [], jumps)
        if jumps:
            return jumps
        out = []
        for s, p in self.board.items():
            if p.lower() != self.turn:
                continue
            for d in KING_DIRS if p.isupper() else DIRS[p]:
                t = step(s, d)
                if t and t not in self.board:
                    out.append(([s, t], []))
        return out

    def _jumps(self, s, piece, path, taken, out):
        found = False
        for d in KING_DIRS if piece.isupper() else DIRS[piece.lower()]:
            over, to = step(s, d), step(s, d, 2)
            if not over or not to or over in taken:
                continue
            q = self.board.get(over)
            if q is None or q.lower() == self.turn:
                continue
            if to in self.board and to != path[0]:
                continue
            found = True
            crowned = piece.islower() and rc(to)[0] == (7 if piece == "b" else 0)
            if crowned:  # a man that crowns ends its move
                out.append((path + [to], taken + [over]))
            else:
                self._jumps(to, piece, path + [to], taken + [over], out)
        if not found and taken:
            out.append((path, taken))

    def play(self, move):
        path, taken = move
        board = dict(self.board)
        piece = board.pop(path[0])
        for t in taken:
            del board[t]
        row = rc(path[-1])[0]
        if piece == "b" and row == 7:
            piece = "B"
        elif piece == "w" and row == 0:
            piece = "W"
        board[path[-1]] = piece
        return Position(board, "w" if self.turn == "b" else "b")


def hub_move(move):
    path, taken = move
    if taken:
        return "x".join(str(s) for s in [path[0], path[-1]] + sorted(taken))
    return f"{path[0]}-{path[-1]}"


def find_move(pos, text):
    for m in pos.moves():
        if hub_move(m) == text or (
            "x" in text
            and m[1]
            and [int(x) for x in text.split("x")[:2]] == [m[0][0], m[0][-1]]
            and sorted(int(x) for x in text.split("x")[2:]) == sorted(m[1])
        ):
            return m
    raise ValueError(f"illegal move {text}")


def evaluate(pos, w):
    """The score for the side to move, in hundredths of a man."""
    score = 0
    kings = {"b": [], "w": []}
    men = {"b": 0, "w": 0}
    for s, p in pos.board.items():
        side = p.lower()
        sign = 1 if side == pos.turn else -1
        r, _ = rc(s)
        if p.isupper():
            v = w["king"]
            kings[side].append(s)
            if s in DOUBLE_CORNER:
                v += w["double-corner"]
        else:
            men[side] += 1
            v = MAN + w["advance"] * (r if side == "b" else 7 - r)
            if (side == "b" and r == 0) or (side == "w" and r == 7):
                v += w["back-rank"]
        if s in CENTRE:
            v += w["centre"]
        if s in EDGE:
            v += w["edge"]
        score += sign * v
    # In the ending, kings go after the enemy: the closer the better for the side ahead.
    me, them = pos.turn, ("w" if pos.turn == "b" else "b")
    if men[me] + men[them] <= 4 and score != 0:
        ahead, behind = (me, them) if score > 0 else (them, me)
        targets = [s for s, p in pos.board.items() if p.lower() == behind]
        for k in kings[ahead]:
            kr, kc = rc(k)
            dist = min((max(abs(kr - rc(t)[0]), abs(kc - rc(t)[1])) for t in targets), default=0)
            bonus = w["king-distance"] * (7 - dist)
            score += bonus if ahead == me else -bonus
    score += w["mobility"] * len(pos.moves())
    return score


class Search:
    def __init__(self, weights, deadline, stop):
        self.w = weights
        self.deadline = deadline
        self.stop = stop
        self.nodes = 0

    def out_of_time(self):
        return self.stop.is_set() or (self.deadline is not None and time.time() > self.deadline)

    def negamax(self, pos, depth, alpha, beta, ply):
        self.nodes += 1
        if self.nodes % 512 == 0 and self.out_of_time():
            raise TimeoutError
        moves = pos.moves()
        if not moves:
            return -WIN + ply
        capture = bool(moves[0][1])
        if depth <= 0 and not capture:
            return evaluate(pos, self.w)
        best = -WIN - 1
        for m in moves:
            v = -self.negamax(pos.play(m), depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    def root(self, pos, depth, order):
        best, best_move = -WIN - 1, order[0]
        alpha = -WIN - 1
        for m in order:
            v = -self.negamax(pos.play(m), depth - 1, -WIN - 1, -alpha, 1)
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
            self.say('id name="hub_engine.py" version=1.0 author="checkers-ga example"')
            for name, (d, lo, hi) in PARAMS.items():
                self.say(f"param name={name} value={d} type=int min={lo} max={hi}")
            self.say("wait")
        elif cmd == "set-param":
            name, value = args.get("name"), args.get("value", "")
            if name in PARAMS:
                lo, hi = PARAMS[name][1:]
                self.weights[name] = max(lo, min(hi, int(value)))
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
            self.depth, self.seconds = 64, None
            if "depth" in args:
                self.depth = int(args["depth"])
            elif "move-time" in args:
                self.seconds = float(args["move-time"])
            elif "time" in args:
                left = float(args["time"]) + float(args.get("inc", 0))
                self.seconds = max(0.01, left / float(args.get("moves", 30)))
        elif cmd == "go" and self.pos is not None:
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
            engine.say(f'error message="{e}"')
    engine.finish()


if __name__ == "__main__":
    main()
