"""A tiny Hub engine for English draughts, for the tests of outside engines (python3, stdlib only).

It speaks the protocol as checkers-ga's client does (hub/wait, set-param, init/ready, new-game,
pos/level/go, quit), keeps the position from `pos pos=... moves="..."` and answers `go` with the
first legal move it finds (captures are compulsory; a multi-jump goes on to its end), or the
one `run(choose=...)` picks. The fakes in this folder use it and misbehave on purpose at a given
move (`run(on_go=...)`).

`set-param` and `init` may come any number of times, before or between games; `init` always
answers `ready`. The values of the declared `int` parameters are kept in `state.values`
(clamped to their range; a value that is not an integer gets an `error` line and the old value
stays); other names are ignored. `level` is kept in `state.level` (its arguments) and
otherwise ignored (the move does not depend on it).
`state` also counts the `new-game` commands this process received (`state.games`) and the `go`
commands since the last one (`state.game_goes`). Every fake takes `--marker=...` arguments and
ignores them (a test finds its processes by them); `--log=FILE` appends every line it reads to
FILE, after the process id, so a test can check what the client sent.

`--linger` makes a fake hard to end, as an engine with helpers of its own may be: it starts a
child that sleeps for an hour (its command line carries the engine's arguments, so the test's
marker; it holds none of the engine's pipes), and after `quit` or the end of its input it
sleeps for an hour itself rather than exit (one that exits mid-game, as exit.py does, still
leaves its child). Only a kill of its process group ends them.

Positions are written as pydraughts writes them: a side letter and 32 characters, the colours
swapped and the board turned half round (standard square s is character 33 - s; a Black man is
`w`, a Black king `W`, a White man `b`, a White king `B`, `e` empty; Black to move is `W`).
Moves are in standard numbering: `11-15`, captures `FROMxTOxC1xC2...`.
"""

import os
import shlex
import subprocess
import sys
import time

BLACK, WHITE = 0, 1


def coord(s):
    """Row (0 = Black's back rank, squares 1-4) and column of standard square s."""
    r = (s - 1) // 4
    return r, 2 * ((s - 1) % 4) + (1 if r % 2 == 0 else 0)


SQUARE = {coord(s): s for s in range(1, 33)}


def parse_pos(text):
    """(board, side): board maps a square to (colour, king)."""
    side = BLACK if text[0] == "W" else WHITE
    board = {}
    for i, ch in enumerate(text[1:33]):
        s = 32 - i
        if ch in "wW":
            board[s] = (BLACK, ch == "W")
        elif ch in "bB":
            board[s] = (WHITE, ch == "B")
    return board, side


def directions(colour, king):
    if king:
        return [(1, -1), (1, 1), (-1, -1), (-1, 1)]
    return [(1, -1), (1, 1)] if colour == BLACK else [(-1, -1), (-1, 1)]


def crowns(colour, s):
    r, _ = coord(s)
    return (colour == BLACK and r == 7) or (colour == WHITE and r == 0)


def jumps(board, s, colour, king, taken):
    """Every jump sequence from s: lists of (to, captured)."""
    r, c = coord(s)
    out = []
    for dr, dc in directions(colour, king):
        over = SQUARE.get((r + dr, c + dc))
        to = SQUARE.get((r + 2 * dr, c + 2 * dc))
        if over is None or to is None or over in taken:
            continue
        if over in board and board[over][0] != colour and to not in board:
            step = (to, over)
            if not king and crowns(colour, to):
                out.append([step])
                continue
            rest = jumps(board, to, colour, king, taken | {over})
            out.extend([[step] + t for t in rest] or [[step]])
    return out


def legal_moves(board, side):
    """Move texts in standard notation, captures first when any (then only captures)."""
    caps, quiet = [], []
    for s, (colour, king) in sorted(board.items()):
        if colour != side:
            continue
        b = dict(board)
        del b[s]
        for seq in jumps(b, s, colour, king, frozenset()):
            caps.append("x".join([str(s), str(seq[-1][0])] + [str(o) for _, o in seq]))
        r, c = coord(s)
        for dr, dc in directions(colour, king):
            to = SQUARE.get((r + dr, c + dc))
            if to is not None and to not in board:
                quiet.append(f"{s}-{to}")
    return caps or quiet


def play(board, side, text):
    """The position after move `text` (trusted: it comes from the client)."""
    b = dict(board)
    if "x" in text:
        parts = [int(p) for p in text.split("x")]
        frm, to, captured = parts[0], parts[1], parts[2:]
    else:
        frm, to = (int(p) for p in text.split("-"))
        captured = []
    colour, king = b.pop(frm)
    for o in captured:
        b.pop(o, None)
    b[to] = (colour, king or crowns(colour, to))
    return b, 1 - side


def parse_line(line):
    """Command and arguments of a protocol line (values unquoted)."""
    words = shlex.split(line)
    if not words:
        return None, {}
    args = {}
    for w in words[1:]:
        k, _, v = w.partition("=")
        args[k] = v
    return words[0], args


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class State:
    """What a fake engine knows of its process's life."""

    def __init__(self):
        self.games = 0  # `new-game` commands received
        self.game_goes = 0  # `go` commands since the last `new-game`
        self.goes = 0  # `go` commands in all
        self.params = []  # the declared int parameters: (name, default, min, max)
        self.values = {}  # their values (the defaults until set)
        self.level = {}  # the arguments of the last `level` line
        self.depth = 1  # the depth the `info` line before `done` reports


state = State()


def arguments():
    """The command line's arguments but the `--...` options (the tests' markers, `--log=`)."""
    return [a for a in sys.argv[1:] if not a.startswith("--")]


def count_argument(default):
    """The first argument as a count (at least 1), `default` without one; a line on standard
    error and exit status 2 when it is not one."""
    args = arguments()
    if not args:
        return default
    try:
        n = int(args[0])
    except ValueError:
        n = 0
    if n < 1:
        sys.stderr.write(f"{sys.argv[0]}: the count must be a number from 1, not {args[0]!r}\n")
        sys.exit(2)
    return n


def _log_file():
    for a in sys.argv[1:]:
        if a.startswith("--log="):
            return a[len("--log="):]
    return None


def set_param(args):
    """`set-param name=N value=V` for a declared int parameter: clamps V to its range; an
    `error` line when V is not an integer (the value stays)."""
    name, value = args.get("name"), args.get("value", "")
    for n, _, lo, hi in state.params:
        if n == name:
            try:
                v = int(value)
            except ValueError:
                text = f"set-param {name}: {value!r} is not an integer".replace('"', "'")
                say(f'error message="{text}"')
                return
            state.values[name] = max(lo, min(hi, v))
            return


def run(name="fake", on_go=None, on_hub=None, params=None, choose=None):
    """The engine's loop. `on_go(n, move)` is called for the n-th `go` (1, 2, ...) with the move
    it would play and may misbehave (return None: nothing is said); `on_hub()` replaces the
    answer to `hub`. `params()` gives the int parameters declared at `hub`, as
    (name, default, min, max) (default: one, `level` 1 in 1..9); `choose(moves)` picks the move
    from the legal ones (never empty; default: the first)."""
    linger = "--linger" in sys.argv[1:]
    if linger:
        # In the engine's process group; its command line carries the engine's arguments. It
        # holds none of the engine's pipes: the engine's end is seen as the engine's.
        subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(3600)"] + sys.argv[1:],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    board, side = parse_pos("W" + "b" * 12 + "e" * 8 + "w" * 12)
    log = _log_file()
    for line in sys.stdin:
        if log is not None:
            with open(log, "a") as f:
                f.write(f"{os.getpid()} {line.rstrip()}\n")
        cmd, args = parse_line(line.strip())
        if cmd == "hub":
            if on_hub is not None:
                on_hub()
                continue
            state.params = params() if params is not None else [("level", 1, 1, 9)]
            state.values = {n: d for n, d, _, _ in state.params}
            say(f"id name={name} version=1 author=tests")
            for n, d, lo, hi in state.params:
                say(f"param name={n} type=int value={d} min={lo} max={hi}")
            say("wait")
        elif cmd == "set-param":
            set_param(args)
        elif cmd == "init":
            say("ready")
        elif cmd == "new-game":
            state.games += 1
            state.game_goes = 0
        elif cmd == "level":
            state.level = args
        elif cmd == "pos":
            board, side = parse_pos(args["pos"])
            for m in args.get("moves", "").split():
                board, side = play(board, side, m)
        elif cmd == "go":
            state.goes += 1
            state.game_goes += 1
            moves = legal_moves(board, side)
            move = moves[0] if moves else ""
            if moves and choose is not None:
                move = choose(moves)
            if on_go is not None:
                move = on_go(state.goes, move)
                if move is None:
                    continue
            say(f"info depth={state.depth} score=0.0 nodes=1")
            say(f"done move={move}")
        elif cmd == "ping":
            say("pong")
        elif cmd == "quit":
            break
    if linger:
        time.sleep(3600)
