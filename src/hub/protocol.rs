//! Hub lines, positions and moves as text: parsing and writing.
