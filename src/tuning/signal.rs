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

/// From this many games on a clock, a session's losses on time are judged.
pub const SIGNAL_MIN_TIMED_GAMES: u64 = 16;

/// A share of games lost on time at or above this (percent) is too much.
pub const SIGNAL_TIME_LOSS_PERCENT: u64 = 10;

/// A session's games so far: how many were drawn, and how many pairs of games (one opening,
/// colours swapped, between two candidates that differ by opposite steps, as the mean and
/// SPSA play them) scored apart; on a clock, how many were lost on time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signal {
    games: u64,
    draws: u64,
    pairs: u64,
    decided: u64,
    said: bool,
    timed: u64,
    lost_on_time: u64,
    said_time: bool,
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
            "{} of this run's {} games so far were draws ({}%)",
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

impl Signal {
    /// Counts a generation's or a step's games ([`Signal::add`]) and, on a clock, their time
    /// ([`Signal::add_timed`]): the notes due now ([`Signal::note`], [`Signal::time_note`]).
    pub fn step(
        &mut self,
        (games, draws): (u64, u64),
        (pairs, decided): (u64, u64),
        time: Option<&crate::clock::TimeUse>,
    ) -> Vec<String> {
        self.add(games, draws, pairs, decided);
        if let Some(t) = time {
            self.add_timed(u64::from(t.games), u64::from(t.lost_on_time));
        }
        [self.note(), self.time_note()]
            .into_iter()
            .flatten()
            .collect()
    }

    /// Counts `games` more games on a clock, `lost` of them lost on time.
    pub fn add_timed(&mut self, games: u64, lost: u64) {
        self.timed += games;
        self.lost_on_time += lost.min(games);
    }

    /// The note to print the first time enough games on a clock were lost on time (a game
    /// lost on time says how the engine kept its clock, not how its values play), then never
    /// again: the count, and what helps.
    pub fn time_note(&mut self) -> Option<String> {
        let many = self.timed >= SIGNAL_MIN_TIMED_GAMES
            && self.lost_on_time * 100 >= SIGNAL_TIME_LOSS_PERCENT * self.timed;
        if self.said_time || !many {
            return None;
        }
        self.said_time = true;
        Some(format!(
            "note: {} of {} games so far were lost on time ({}%): they tell the tuner about \
             the clock, not the values. What helps: a longer --tc, a --time-margin MS (for the \
             time a move takes through the pipe, or on a busy machine), fewer --threads",
            self.lost_on_time,
            self.timed,
            self.lost_on_time * 100 / self.timed.max(1)
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
        assert!(note.contains("255 of this run's 312 games"), "{note}");
        assert!(note.contains("81%"), "{note}");
        assert!(note.contains("2 of 8 pairs of games decided"), "{note}");
        assert!(note.contains("--depth"), "{note}");
        s.add(100, 100, 8, 0);
        assert_eq!(s.note(), None, "said once");
    }

    #[test]
    fn many_losses_on_time_are_told_once() {
        let mut s = Signal::default();
        s.add_timed(8, 8);
        assert_eq!(s.time_note(), None, "too few games to judge");
        s.add_timed(92, 2);
        let note = s.time_note().expect("a note");
        assert!(note.contains("10 of 100 games"), "{note}");
        assert!(note.contains("--time-margin"), "{note}");
        s.add_timed(100, 50);
        assert_eq!(s.time_note(), None, "said once");
        let mut few = Signal::default();
        few.add_timed(100, 9);
        assert_eq!(few.time_note(), None);
        // The draws' note is another.
        assert_eq!(few.note(), None);
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
