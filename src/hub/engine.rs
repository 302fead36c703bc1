//! Our engine as a Hub engine: reads commands, searches, answers.
