"""A correct Hub engine: plays the first legal move (fakelib)."""
import fakelib

fakelib.run(name="good")
