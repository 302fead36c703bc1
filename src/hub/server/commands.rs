//! The answers to every command but `go` and `quit`: `hub`, `set-param`, `init`, `new-game`,
//! `pos`, `level`, `ping`.

use super::answers::{say, say_error};
use super::{tunable_min, Level, State};
use crate::game::{DrawRules, Game};
use crate::hub::protocol::{parse_hub_move, parse_hub_position, HubLine};
use crate::rng::{derive, Purpose};
use crate::search::MAX_DEPTH;
use crate::yardstick::Evaluator;
use std::io::Write;
use std::time::Duration;

/// A number of seconds (a real number, not negative).
fn seconds(line: &HubLine, key: &str) -> Result<Option<Duration>, String> {
    let Some(v) = line.get(key) else {
        return Ok(None);
    };
    match v.parse::<f64>() {
        Ok(s) if (0.0..1e9).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        _ => Err(format!("{key}={v} must be a number of seconds, 0 or more")),
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" => Some(false),
        _ => None,
    }
}

impl State<'_> {
    /// Every command but `go` and `quit`, outside a search.
    pub(super) fn command<W: Write>(&mut self, line: &HubLine, out: &mut W) -> anyhow::Result<()> {
        let result = match line.command.as_str() {
            "hub" => {
                for l in self.identify() {
                    say(out, &l)?;
                }
                Ok(())
            }
            "set-param" => self.set_param(line),
            "init" => {
                say(out, &HubLine::new("ready"))?;
                Ok(())
            }
            "new-game" => {
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.games += 1;
                self.rng = Some(derive(self.opts.seed, Purpose::Game, u64::MAX, self.games));
                Ok(())
            }
            "pos" => self.set_position(line),
            "level" => self.set_level(line),
            "ping" => {
                say(out, &HubLine::new("pong"))?;
                Ok(())
            }
            // Outside a search there is nothing to stop.
            "stop" | "ponder-hit" => Ok(()),
            _ => Ok(()),
        };
        if let Err(message) = result {
            say_error(out, &message)?;
        }
        Ok(())
    }

    fn identify(&self) -> Vec<HubLine> {
        let o = &self.opts;
        let id = HubLine::new("id")
            .arg("name", &o.name)
            .arg("version", &o.version)
            .arg("author", &o.author);
        let tie = if o.first_ties { "first" } else { "random" };
        let mut lines = vec![
            id,
            HubLine::new("param")
                .arg("name", "weights")
                .arg("value", &o.weights)
                .arg("type", "string"),
            HubLine::new("param")
                .arg("name", "depth")
                .arg("value", o.depth)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_DEPTH),
            HubLine::new("param")
                .arg("name", "tie-break")
                .arg("value", tie)
                .arg("type", "enum")
                .arg("values", "random first"),
            HubLine::new("param")
                .arg("name", "seed")
                .arg("value", o.seed)
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", u64::MAX),
            HubLine::new("param")
                .arg("name", "repetition-draws")
                .arg("value", o.repetition_draws)
                .arg("type", "bool"),
            HubLine::new("param")
                .arg("name", "hash")
                .arg("value", o.hash)
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", crate::search::MAX_TT_LOG2),
        ];
        if let Some(search) = self.search.filter(|_| o.tunable_search) {
            for p in search.declared() {
                lines.push(
                    HubLine::new("param")
                        .arg("name", p.name)
                        .arg("value", p.value)
                        .arg("type", "int")
                        .arg("min", p.min)
                        .arg("max", p.max),
                );
            }
        }
        let weights = self.eval.weights();
        for p in self.tunable {
            // The weight of that name in the weights in effect (0 when they have none).
            let value = weights
                .and_then(|w| Some(w[w.set().index_of(p.name)?]))
                .unwrap_or(0);
            lines.push(
                HubLine::new("param")
                    .arg("name", p.name)
                    .arg("value", value)
                    .arg("type", "int")
                    .arg("min", tunable_min(self.opts.tunable_range))
                    .arg("max", self.opts.tunable_range.max(1)),
            );
        }
        lines.push(HubLine::new("wait"));
        lines
    }

    /// `set-param` of a weight declared by `tunable`: a whole number in the `i16` range, set in
    /// the weights in effect (which must have a weight of that name).
    fn set_weight(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v: i16 = value.parse().map_err(|_| {
            format!(
                "{name}={value} must be a whole number {}..{}",
                i16::MIN,
                i16::MAX
            )
        })?;
        let what = &self.opts.weights;
        let Evaluator::Weighted(w) = &mut self.eval else {
            return Err(format!(
                "{name}: the evaluation in effect ({what}) has no weights"
            ));
        };
        let Some(i) = w.set().index_of(name) else {
            let set = w.set();
            return Err(format!(
                "{name}: the weights in effect ({what}, {set}) have no weight of that name"
            ));
        };
        if w[i] != v {
            w[i] = v;
            // Measured again before the next search (a tuner sets many weights in a row).
            self.man_stale = true;
            self.eval_changed = true;
        }
        Ok(())
    }

    fn set_param(&mut self, line: &HubLine) -> Result<(), String> {
        let Some(name) = line.get("name") else {
            return Err("set-param needs name=...".into());
        };
        let Some(value) = line.get("value") else {
            return Err(format!("set-param name={name} needs value=..."));
        };
        let int = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| format!("{name}={value} must be a whole number 0..{max}"))
        };
        match name {
            "weights" => {
                let (eval, man) =
                    (self.load)(value).map_err(|e| format!("weights={value}: {e}"))?;
                self.eval = eval;
                self.man = man;
                self.man_stale = false;
                self.opts.weights = value.to_string();
                self.eval_changed = true;
            }
            "depth" => {
                let d = int(MAX_DEPTH as u64)
                    .ok()
                    .filter(|&d| d > 0)
                    .ok_or_else(|| {
                        format!("depth={value} must be a whole number 1..{MAX_DEPTH}")
                    })?;
                self.opts.depth = d as u32;
            }
            "tie-break" => {
                self.opts.first_ties = match value {
                    "first" => true,
                    "random" => false,
                    _ => return Err(format!("tie-break={value} must be random or first")),
                };
            }
            "seed" => {
                self.opts.seed = int(u64::MAX)?;
                self.rng = Some(derive(self.opts.seed, Purpose::Game, u64::MAX, self.games));
            }
            "repetition-draws" => {
                self.opts.repetition_draws = parse_bool(value)
                    .ok_or_else(|| format!("repetition-draws={value} must be true or false"))?;
            }
            "hash" => {
                self.opts.hash = int(crate::search::MAX_TT_LOG2 as u64)? as u8;
                self.searcher = None;
            }
            _ if self.opts.tunable_search
                && self
                    .search
                    .is_some_and(|s| s.declared().iter().any(|p| p.name == name)) =>
            {
                if let Some(s) = self.search.as_mut() {
                    s.set(name, value)?;
                }
            }
            _ if self.tunable.iter().any(|p| p.name == name) => self.set_weight(name, value)?,
            // Unknown parameters are ignored, as the protocol says of unknown arguments.
            _ => {}
        }
        Ok(())
    }

    fn set_position(&mut self, line: &HubLine) -> Result<(), String> {
        let game = self.game.take();
        let Some(text) = line.get("pos") else {
            return Err("pos needs pos=...".into());
        };
        let moves: Vec<&str> = line.get("moves").unwrap_or("").split_whitespace().collect();
        let (last_text, last_moves) = &self.game_text;
        // The last game, when this one only adds moves to it.
        let extends = text == last_text
            && last_moves.len() <= moves.len()
            && last_moves.iter().zip(&moves).all(|(a, b)| a == b);
        let (mut game, done) = match game {
            Some(g) if extends => (g, last_moves.len()),
            _ => {
                let start = parse_hub_position(text).map_err(|e| e.0)?;
                (Game::new(start, Self::rules()), 0)
            }
        };
        for (i, text) in moves.iter().enumerate().skip(done) {
            let pos = *game.position();
            let m = parse_hub_move(&pos, text)
                .map_err(|e| format!("moves: move {} ({text}): {e}", i + 1))?;
            if game.is_over() {
                game = Game::new(pos, Self::rules());
            }
            game.play(m);
        }
        self.game = Some(game);
        self.game_text = (
            text.to_string(),
            moves.iter().map(|m| m.to_string()).collect(),
        );
        Ok(())
    }

    /// The rules a `pos` game is played under: only repetitions end it here; a game the
    /// rules ended goes on from where it is (the client decides when its game is over).
    fn rules() -> DrawRules {
        DrawRules {
            quiet_plies: 0,
            repetitions: DrawRules::default().repetitions,
            max_plies: 0,
        }
    }

    fn set_level(&mut self, line: &HubLine) -> Result<(), String> {
        let level = if line.has("infinite") {
            Level::Infinite
        } else if let Some(d) = line.get("depth") {
            match d.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => Level::Depth(d),
                _ => return Err(format!("depth={d} must be 1..{MAX_DEPTH}")),
            }
        } else if let Some(t) = seconds(line, "move-time")? {
            Level::MoveTime(t)
        } else if let Some(time) = seconds(line, "time")? {
            let moves = match line.get("moves") {
                None => None,
                Some(m) => match m.parse::<u32>() {
                    Ok(n) if n > 0 => Some(n),
                    _ => return Err(format!("moves={m} must be a whole number 1 or more")),
                },
            };
            let inc = seconds(line, "inc")?.unwrap_or_default();
            Level::Time { moves, time, inc }
        } else {
            // Unknown forms (`level nodes=...`) are ignored, the level kept.
            return Ok(());
        };
        self.level = Some(level);
        Ok(())
    }
}
