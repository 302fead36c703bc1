"""Whole games of `checkers-ga hub` driven by pydraughts (variant "english"), every move checked
by pydraughts' own rules.

Usage: pydraughts_games.py ENGINE OUT_DIR

ENGINE is the absolute path of the checkers-ga binary (pydraughts makes the first word of the
command absolute against its working folder). Writes OUT_DIR/games.pdn (pydraughts' PDN writer,
one game after another) and OUT_DIR/games.json: for each game its label, the moves as pydraughts
recorded them (Hub text), the final position (pydraughts' FEN), pydraughts' winner (1 Black,
2 White, 0 draw, null unfinished) and the PDN result written. Exits non-zero with a message on
the first move pydraughts refuses.
"""

import json
import os
import random
import sys

from draughts import Board, Move
from draughts.engine import HubEngine, Limit
from draughts.PDN import PDNWriter

BLACK, WHITE = 1, 2
MAX_PLIES = 160


def start_engine(binary, *args, options=None):
    engine = HubEngine([binary, "hub", *args])
    if options:
        engine.configure(options)
    engine.init()
    if engine.id.get("name") != "checkers-ga":
        raise SystemExit(f"unexpected id: {engine.id}")
    return engine


def engine_move(engine, board, limit):
    legal = [m.board_move for m in board.legal_moves()]
    # pydraughts turns the engine's `done move=` into its own Move: an illegal one fails here.
    result = engine.play(board, limit, ponder=False)
    if result.move.board_move not in legal:
        raise SystemExit(f"illegal move {result.move.hub_move} at {board.fen}")
    info = result.info or {}
    if "depth" not in info and len(legal) > 1:
        raise SystemExit(f"no info before done: {info}")
    return result.move


def play(label, black, white, rng, out_pdn):
    """Plays one game; black/white: (engine, limit) or None for the random mover."""
    board = Board("english")
    while board.winner() is None and len(board.move_stack) < MAX_PLIES:
        side = black if board.turn == BLACK else white
        if side is None:
            move = rng.choice(board.legal_moves())
        else:
            move = engine_move(side[0], board, side[1])
        board.push(move)
    winner = board.winner()
    ending = {BLACK: "1-0", WHITE: "0-1", 0: "1/2-1/2"}.get(winner, "*")
    PDNWriter(out_pdn, board=board, game_ending=ending, tags={"Event": label})
    return {
        "label": label,
        "moves": [m.hub_move for m in board.move_stack],
        "final_fen": board.fen,
        "winner": winner,
        "result": ending,
    }


def main():
    binary, out_dir = sys.argv[1], sys.argv[2]
    if not os.path.isabs(binary):
        raise SystemExit("ENGINE must be an absolute path")
    out_pdn = os.path.join(out_dir, "games.pdn")
    if os.path.exists(out_pdn):
        os.remove(out_pdn)
    rng = random.Random(26)
    games = []

    evolved = start_engine(binary)
    classic = start_engine(binary, "classic", options={"tie-break": "first", "seed": 5})
    depth4, depth3 = Limit(depth=4), Limit(depth=3)
    movetime = Limit(movetime=0.05)
    clock = Limit(time=1, inc=0.02)

    # One engine process playing both sides at a fixed depth.
    games.append(play("self-play depth 4", (evolved, depth4), (evolved, depth4), rng, out_pdn))
    # Against a random mover, both colours, at move-time and depth levels.
    games.append(play("engine (Black) vs random, move-time", (evolved, movetime), None, rng, out_pdn))
    games.append(play("random vs engine (White), depth 3", None, (classic, depth3), rng, out_pdn))
    # Two engine processes, different evaluations, a game clock and a move time.
    games.append(play("evolved vs classic, clock", (evolved, clock), (classic, movetime), rng, out_pdn))

    for engine in (evolved, classic):
        engine.ping()
        engine.quit()
        engine.p.wait(timeout=10)
        engine.p.stdin.close()
        engine.p.stdout.close()
    with open(os.path.join(out_dir, "games.json"), "w") as f:
        json.dump(games, f, indent=1)


if __name__ == "__main__":
    main()
