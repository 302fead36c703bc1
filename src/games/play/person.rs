//! A person as a player: [`Person`], who is shown the legal moves and asked for one, in
//! words, until it is legal (at the terminal: [`Person::terminal`]).

use super::{Answer, Player, Thought, Turn};
use crate::game::Game;
use crate::hub::ClientError;
use crate::notation::parse_move;
use std::io::{BufRead, Write};

/// What a person can type at the prompt.
pub const PERSON_HELP: &str = "Commands:
  a move    by square numbers (11-15, 15x24, 15x24x31; a capture may name only its first and
            last squares when no other capture joins them) or coordinates (Black's first
            move 11-15 is f6-e5)
  help      this list
  quit      resign the game (also `resign`; the end of input resigns too)";

/// A person playing a side: reads moves from `input`, one a line, and writes the legal moves,
/// the prompt and what was wrong with a move to `output`. `help` shows [`PERSON_HELP`];
/// `quit`, `resign` or the end of the input resigns. Not timed: a game on a clock counts none of
/// a person's time (its moves say they took none), so only the engines' clocks run.
pub struct Person {
    input: Input,
    output: Box<dyn Write + Send>,
}

/// Where a person's moves come from.
enum Input {
    /// Standard input, read through its one shared buffer: two people at one terminal
    /// (`play --black human --white human`) each read their own lines, none read ahead.
    Terminal(std::io::Stdin),
    /// Any other reader.
    Reader(Box<dyn BufRead + Send>),
}

impl Input {
    /// Reads a line (with its `\n`) into `buf`: its length, 0 at the end of the input.
    fn line(&mut self, buf: &mut Vec<u8>) -> std::io::Result<usize> {
        match self {
            Input::Terminal(stdin) => stdin.lock().read_until(b'\n', buf),
            Input::Reader(r) => r.read_until(b'\n', buf),
        }
    }
}

impl Person {
    /// A person reading `input` and writing `output`.
    pub fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> Person {
        Person {
            input: Input::Reader(input),
            output,
        }
    }

    /// The person at the terminal: standard input and output.
    pub fn terminal() -> Person {
        Person {
            input: Input::Terminal(std::io::stdin()),
            output: Box::new(std::io::stdout()),
        }
    }
}

impl Player for Person {
    fn go(&mut self, game: &Game, turn: Turn<'_>) -> Result<Answer, ClientError> {
        let side = turn.side;
        let out = &mut self.output;
        let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        let _ = writeln!(out, "Legal moves: {}", legal.join(" "));
        loop {
            let _ = write!(out, "{} to move> ", side.name());
            let _ = out.flush();
            let mut raw = Vec::new();
            // Bytes, decoded leniently: stray non-UTF-8 input is an illegal move, not the end
            // of the game. Input that cannot be read ends it, as its end does.
            let n = self.input.line(&mut raw).unwrap_or(0);
            if n == 0 {
                let _ = writeln!(out);
                let _ = writeln!(out, "End of input: {} resigns.", side.name());
                let _ = out.flush();
                return Ok(Answer::Resign);
            }
            let line = String::from_utf8_lossy(&raw);
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if t == "help" || t == "?" {
                let _ = writeln!(out, "{PERSON_HELP}");
                continue;
            }
            if t == "quit" || t == "resign" {
                let _ = writeln!(out, "{} resigns.", side.name());
                let _ = out.flush();
                return Ok(Answer::Resign);
            }
            match parse_move(game.position(), t) {
                Ok(m) => {
                    let untimed = Thought {
                        elapsed: Some(std::time::Duration::ZERO),
                        ..Thought::default()
                    };
                    return Ok(Answer::Move(m, untimed));
                }
                Err(e) => {
                    let _ = writeln!(out, "Illegal move: {e}. Try again.");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::game::DrawRules;
    use std::sync::{Arc, Mutex};

    /// What the person was shown.
    #[derive(Clone, Default)]
    struct Shown(Arc<Mutex<Vec<u8>>>);

    impl Write for Shown {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn person(typed: &str) -> (Person, Shown) {
        let shown = Shown::default();
        let input = std::io::Cursor::new(typed.as_bytes().to_vec());
        (Person::new(Box::new(input), Box::new(shown.clone())), shown)
    }

    fn answer(typed: &str) -> (Answer, String) {
        let (mut p, shown) = person(typed);
        let game = Game::new(Position::start(), DrawRules::default());
        let mut rng = crate::rng::derive(1, crate::rng::Purpose::Game, 0, 0);
        let turn = Turn {
            side: crate::board::Color::Black,
            clock: None,
            rng: &mut rng,
            stop: &|| false,
            scored: false,
        };
        let a = p.go(&game, turn).unwrap();
        let text = String::from_utf8(shown.0.lock().unwrap().clone()).unwrap();
        (a, text)
    }

    #[test]
    fn a_person_is_asked_again_after_an_illegal_move_and_help() {
        let (a, shown) = answer("11-18\nhelp\n\n11-15\n");
        let Answer::Move(m, _) = a else {
            panic!("{shown}")
        };
        assert_eq!(m.to_string(), "11-15");
        assert!(shown.starts_with("Legal moves: "), "{shown}");
        assert!(shown.contains("Illegal move: "), "{shown}");
        assert!(shown.contains(PERSON_HELP), "{shown}");
        assert_eq!(shown.matches("Black to move> ").count(), 4, "{shown}");
    }

    #[test]
    fn quit_or_the_end_of_input_resigns() {
        for typed in ["quit\n", "resign\n", "", "11-18\n"] {
            let (a, shown) = answer(typed);
            assert!(matches!(a, Answer::Resign), "{typed:?}: {shown}");
            assert!(shown.contains("Black resigns."), "{typed:?}: {shown}");
        }
    }
}
