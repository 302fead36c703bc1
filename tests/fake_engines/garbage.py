"""Plays two good moves, then prints garbage instead of a move."""
import fakelib


def go(n, move):
    if n >= 3:
        for _ in range(10):
            fakelib.say("Segmentation fault? no: garbage")
        return None
    return move


fakelib.run(name="garbage", on_go=go)
