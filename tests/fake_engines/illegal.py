"""Plays two good moves, then the move given as the first argument (default 1-32, never legal)."""
import sys
import fakelib

bad = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "1-32"
fakelib.run(name="illegal", on_go=lambda n, m: bad if n >= 3 else m)
