"""Never answers `hub`: reads its input and says nothing."""
import fakelib

fakelib.run(name="silent", on_hub=lambda: None)
