#!/usr/bin/env python3
"""What it costs to give a Hub engine new parameters, against what a game costs: the measure
behind the way sessions of outside engines set each side's parameters before every game.

    scripts/engine-setup-costs.py [--depth D] [--runs N] -- COMMAND...

e.g. `scripts/engine-setup-costs.py --depth 2 -- python3 examples/hub_engine.py` or
`... -- target/release/checkers-ga hub --tunable material`. Prints, in milliseconds (median of
N): starting the engine to `ready` (a process per game and side, or per individual); `set-param`
for every declared int parameter then `init` to `ready` on a running process (what sessions do
before every game); and one search from the start position at depth D (`go` to `done`), a
tenth or less of a game's moves. Standard library only.
"""
import argparse
import statistics
import subprocess
import time

START = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"


class Engine:
    def __init__(self, command):
        self.p = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"the engine ended before '{word}'")
            lines.append(line.strip())
            if line.split(" ", 1)[0].strip() == word:
                return lines

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def ints(lines):
    """The declared int parameters with a range: (name, default)."""
    out = []
    for line in lines:
        words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
        if line.startswith("param ") and words.get("type") == "int" and "min" in words:
            out.append((words["name"].strip('"'), words.get("value", "0").strip('"')))
    return out


def ms(samples):
    return f"{statistics.median(samples) * 1000:8.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()

    starts, params = [], []
    for _ in range(a.runs):
        t = time.perf_counter()
        e = Engine(a.command)
        e.send("hub")
        declared = e.until("wait")
        e.send("init")
        e.until("ready")
        starts.append(time.perf_counter() - t)
        params = ints(declared)
        e.quit()

    e = Engine(a.command)
    e.send("hub")
    e.until("wait")
    e.send("init")
    e.until("ready")
    configure = []
    for _ in range(a.runs * 10):
        t = time.perf_counter()
        for name, value in params:
            e.send(f"set-param name={name} value={value}")
        e.send("init")
        e.until("ready")
        configure.append(time.perf_counter() - t)
    searches = []
    for _ in range(a.runs):
        e.send("new-game")
        e.send(f'pos pos={START}')
        e.send(f"level depth={a.depth}")
        t = time.perf_counter()
        e.send("go think")
        e.until("done")
        searches.append(time.perf_counter() - t)
    e.quit()

    print(f"engine: {' '.join(a.command)} ({len(params)} int parameters)")
    print(f"{ms(starts)} ms  start to ready (a new process)")
    print(f"{ms(configure)} ms  set-param x{len(params)} + init to ready (a running process)")
    print(f"{ms(searches)} ms  one search at depth {a.depth} from the start position")


if __name__ == "__main__":
    main()
