//! How much a session's games tell its tuner. A drawn game moves neither a GA's points nor the
//! difference between the two sides of a pair of games (one opening, colours swapped, as the
//! mean's mirrored candidates and SPSA's θ+ and θ- play them): when most games are drawn (an engine that repeats moves, games
//! too shallow to decide anything) the tuner drifts on noise. [`Signal`] counts the games and
//! pairs as they come and says so once, with what helps.

/// From this many games on, a session's draws are counted as telling.
pub const SIGNAL_MIN_GAMES: u64 = 100;

/// A draw share at or above this (percent) is too much.
pub const SIGNAL_DRAW_PERCENT: u64 = 70;

/// A share of decided pairs at or below this (percent), over at least
/// [`SIGNAL_MIN_PAIRS`] pairs, is too little.
pub const SIGNAL_DECIDED_PERCENT: u64 = 30;

/// The pairs counted before their share is judged.
pub const SIGNAL_MIN_PAIRS: u64 = 8;

/// A session's games so far: how many were drawn, and how many pairs of games (one opening,
/// colours swapped, between two candidates that differ by opposite steps, as the mean and
/// SPSA play them) scored apart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signal {
    games: u64,
    draws: u64,
    pairs: u64,
    decided: u64,
    said: bool,
}

impl Signal {
    /// Counts `games` more games, `draws` of them drawn, and `pairs` more pairs of games,
    /// `decided` of them decided (scored apart).
    pub fn add(&mut self, games: u64, draws: u64, pairs: u64, decided: u64) {
        self.games += games;
        self.draws += draws.min(games);
        self.pairs += pairs;
        self.decided += decided.min(pairs);
    }

    /// Whether the games so far tell the tuner little: enough of them, and most drawn or most
    /// pairs undecided.
    pub fn weak(&self) -> bool {
        let drawn =
            self.games >= SIGNAL_MIN_GAMES && self.draws * 100 >= SIGNAL_DRAW_PERCENT * self.games;
        let undecided = self.pairs >= SIGNAL_MIN_PAIRS
            && self.games >= SIGNAL_MIN_GAMES
            && self.decided * 100 <= SIGNAL_DECIDED_PERCENT * self.pairs;
        drawn || undecided
    }

    /// The note to print, the first time the games are [`weak`](Self::weak), then never
    /// again: the counts, and what helps.
    pub fn note(&mut self) -> Option<String> {
        if self.said || !self.weak() {
            return None;
        }
        self.said = true;
        let mut counts = format!(
            "{} of {} games so far were draws ({}%)",
            self.draws,
            self.games,
            self.draws * 100 / self.games.max(1)
        );
        if self.pairs > 0 {
            counts += &format!(
                ", {} of {} pairs of games decided",
                self.decided, self.pairs
            );
        }
        Some(format!(
            "note: the games tell the tuner little: {counts}. What helps: deeper games \
             (--depth), an engine that avoids draws by repetition, or more games per \
             generation or step"
        ))
    }
}

/// A generation's draws from its standings: (games, draws), each game counted once for every
/// side of it among `standings`, so the share is the generation's.
pub fn standings_draws<'a>(
    standings: impl IntoIterator<Item = &'a crate::tournament::Standing>,
) -> (u64, u64) {
    standings.into_iter().fold((0, 0), |(g, d), s| {
        (
            g + s.games(),
            d + u64::from(s.draws_black) + u64::from(s.draws_white),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mostly_drawn_session_is_told_once() {
        let mut s = Signal::default();
        s.add(50, 45, 4, 0);
        assert_eq!(s.note(), None, "too few games to judge");
        // The session of the report: 255 of 312 drawn, 2 of 8 pairs decided.
        s.add(262, 210, 4, 2);
        let note = s.note().expect("a note");
        assert!(note.contains("255 of 312 games"), "{note}");
        assert!(note.contains("81%"), "{note}");
        assert!(note.contains("2 of 8 pairs of games decided"), "{note}");
        assert!(note.contains("--depth"), "{note}");
        s.add(100, 100, 8, 0);
        assert_eq!(s.note(), None, "said once");
    }

    #[test]
    fn decisive_games_say_nothing() {
        let mut s = Signal::default();
        s.add(400, 120, 16, 12);
        assert!(!s.weak());
        assert_eq!(s.note(), None);
    }

    #[test]
    fn undecided_pairs_alone_are_weak() {
        let mut s = Signal::default();
        // Half the games drawn, but the pairs' games cancel out.
        s.add(200, 100, 20, 5);
        assert!(s.weak());
        assert!(s.note().unwrap().contains("5 of 20 pairs of games"));
    }
}
