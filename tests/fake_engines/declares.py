"""A good engine whose int parameters are read from a file: `declares.py FILE`.

At `hub` it reads FILE, one parameter a line, `name default min max` (integers; blank lines and
lines starting with `#` are skipped), and declares them in that order. It plays legal move
number (the sum of the parameters' values) mod (the number of legal moves), the moves in
fakelib's order (by square, the captures only when there are any), so the parameters change
its games. A test rewrites FILE between a session's run and its resume to see that the
session notices the engine's parameters changed. A FILE that cannot be read or a line that is
not four words, the last three integers, is a line on standard error and exit status 2 (before
`wait`: the client sees a failed handshake).
"""
import sys
import fakelib


def declared():
    args = fakelib.arguments()
    if not args:
        sys.stderr.write("declares: usage: declares.py FILE\n")
        sys.exit(2)
    try:
        with open(args[0]) as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.stderr.write(f"declares: cannot read {args[0]}: {e}\n")
        sys.exit(2)
    params = []
    for i, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            name, default, lo, hi = words[0], int(words[1]), int(words[2]), int(words[3])
            if len(words) != 4:
                raise ValueError
        except (ValueError, IndexError):
            sys.stderr.write(f"declares: {args[0]} line {i}: not 'name default min max': {line}\n")
            sys.exit(2)
        params.append((name, default, lo, hi))
    return params


fakelib.run(
    name="declares",
    params=declared,
    choose=lambda moves: moves[sum(fakelib.state.values.values()) % len(moves)],
)
