//! An outside Hub engine as every command describes it ([`OutsideEngine`]: its name, its
//! [`Program`], its depth), and its handshake checked once for all of them: what it says of
//! itself ([`HubProbe`]) and why it cannot play with the options it is given
//! ([`OptionsError`]: it did not start, an option it does not declare where only declared ones
//! may be set, a value its declaration rules out ([`misfit`]), a value it refused with
//! `error`). A match's or `play`'s side ([`OutsideEngine::check_handshake`]) and a tuned
//! engine's session (`crate::EngineSpec::probe`, which adds the rules of tuning) make the same
//! handshake and the same checks.

use super::client::{misfit, ClientError, HubParam, HubProcess, Program};
use std::time::Duration;

/// How long an outside engine may take over one move at a fixed depth (no clock) before it
/// counts as hung, when nothing says otherwise.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(60);

/// An outside engine speaking the Hub protocol, described once: its name, how to start it
/// ([`Program`]: command, folder, the options set at its handshake), the depth it is asked
/// for and how long a move at that depth may take. What a match's or `play`'s side of an outside engine is, and what a tuned engine
/// (`crate::EngineSpec`) plays: its genomes are this engine with their values added to its
/// options.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OutsideEngine {
    /// The name reports give it.
    pub name: String,
    /// What starts its processes: its command, its folder, its parameters (`set-param name=
    /// value=`, in order).
    pub program: Program,
    /// The depth it is asked to search (`level depth=`) in a game without a clock; None: its
    /// own level (no `level` is sent).
    pub depth: Option<u32>,
    /// How long a move without a clock may take before the engine counts as hung (it loses
    /// that game); [`DEFAULT_MOVE_TIMEOUT`] unless set.
    pub move_timeout: Duration,
}

impl OutsideEngine {
    /// The engine command line `cmd` starts (its words split as a shell splits them, its
    /// program found as a shell finds it), named after its program, with no options, at its
    /// own level, a move allowed [`DEFAULT_MOVE_TIMEOUT`]. The error names neither a flag nor the
    /// command, which the caller puts before it.
    pub fn from_command(cmd: &str) -> Result<OutsideEngine, String> {
        let (words, name) = super::command::program_of(cmd)?;
        Ok(OutsideEngine {
            name,
            program: Program::new(words),
            depth: None,
            move_timeout: DEFAULT_MOVE_TIMEOUT,
        })
    }
}

/// What an outside engine says of itself at its handshake ([`OutsideEngine::handshake`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubProbe {
    /// Its `id name=`.
    pub name: Option<String>,
    /// Options of the [`OutsideEngine`] it did not declare as parameters.
    pub unknown_options: Vec<String>,
    /// The parameters it declared.
    pub params: Vec<HubParam>,
    /// What it answered with `error` to the options (`set-param`) before `ready`.
    pub refused: Vec<String>,
}

impl HubProbe {
    /// What process `p`, its handshake made, said of itself.
    pub fn of(p: &HubProcess) -> HubProbe {
        HubProbe {
            name: p.name().map(str::to_string),
            unknown_options: p.unknown_options().to_vec(),
            params: p.params().to_vec(),
            refused: p.refused().to_vec(),
        }
    }

    /// `options` (as sent, in order) against what the engine declared and refused: for each
    /// option, `own` first (a rule of the caller's: a tuned engine's options may not set a
    /// tuned parameter), then, when `declared_only`, [`OptionsError::Unknown`] for one it does
    /// not declare, then [`OptionsError::Misfit`] for a value its declaration rules out; then
    /// [`OptionsError::Refused`] for the first `error` it answered. The first failure found.
    pub fn check<E: From<OptionsError>>(
        &self,
        options: &[(String, String)],
        declared_only: bool,
        own: impl Fn(&str, &str) -> Option<E>,
    ) -> Result<(), E> {
        for (k, v) in options {
            if let Some(e) = own(k, v) {
                return Err(e);
            }
            let Some(declared) = self.params.iter().find(|q| &q.name == k) else {
                if declared_only {
                    return Err(E::from(OptionsError::Unknown {
                        name: k.clone(),
                        value: v.clone(),
                        declared: self.params.iter().map(|q| q.name.clone()).collect(),
                    }));
                }
                continue;
            };
            if let Some(why) = misfit(declared, v) {
                return Err(E::from(OptionsError::Misfit {
                    name: k.clone(),
                    value: v.clone(),
                    why,
                }));
            }
        }
        if let Some(m) = self.refused.first() {
            return Err(E::from(OptionsError::Refused {
                sent: options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
                message: m.clone(),
            }));
        }
        Ok(())
    }
}

/// Why an outside engine cannot play with the options it is given
/// ([`OutsideEngine::check_handshake`], [`HubProbe::check`]). Each caller says it in its own
/// words around the same facts ([`OptionsError::line`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// It did not start or answer its handshake.
    #[error("the engine {0}")]
    Start(ClientError),
    /// An option it does not declare, where only declared ones may be set.
    #[error(
        "{name}={value}: the engine declares no parameter '{name}' (its parameters: {})",
        .declared.join(", ")
    )]
    Unknown {
        /// The option's name.
        name: String,
        /// Its value.
        value: String,
        /// The names of every parameter it declared.
        declared: Vec<String>,
    },
    /// A value its declaration rules out ([`misfit`]).
    #[error("{name}={value}: {why}")]
    Misfit {
        /// The option's name.
        name: String,
        /// Its value.
        value: String,
        /// Why it does not fit.
        why: String,
    },
    /// A value it answered with `error`.
    #[error("{}: refused: {message}", .sent.join(" "))]
    Refused {
        /// Every option sent, `NAME=VALUE`.
        sent: Vec<String>,
        /// Its first `error` message.
        message: String,
    },
}

impl OptionsError {
    /// The error in one line, the options given by `flag` (`--engine-option`) to the engine
    /// called `who` (`the engine`, or the player argument): `WHO: the engine ...` (it did not
    /// start), `FLAG NAME=VALUE: ...` (an option unknown or ruled out), `FLAG K=V ...: WHO
    /// refused: MESSAGE`.
    pub fn line(&self, flag: &str, who: &str) -> String {
        match self {
            OptionsError::Start(_) => format!("{who}: {self}"),
            OptionsError::Unknown { .. } | OptionsError::Misfit { .. } => format!("{flag} {self}"),
            OptionsError::Refused { sent, message } => {
                format!("{flag} {}: {who} refused: {message}", sent.join(" "))
            }
        }
    }
}

impl OutsideEngine {
    /// Starts the engine, makes its handshake within `timeout` and says what it said of
    /// itself: its name, the options it does not know, what it declared and what it refused.
    /// An engine that took every option is handed to `keep` (the pool of idle processes,
    /// `crate::play`, keeps it for the first game while a lease is held; else it is
    /// dropped: stopped); one that refused an option is stopped. Every probe of an outside
    /// engine is made here.
    pub fn handshake(
        &self,
        timeout: Duration,
        keep: impl FnOnce(&Program, HubProcess),
    ) -> Result<HubProbe, ClientError> {
        let p = self.program.start(timeout, &|| false)?;
        let probe = HubProbe::of(&p);
        if probe.refused.is_empty() {
            keep(&self.program, p);
        }
        Ok(probe)
    }

    /// Its handshake ([`OutsideEngine::handshake`], the process handed to `keep`) and its
    /// options checked ([`HubProbe::check`], undeclared ones allowed): an error when it
    /// cannot start, when an option's value does not fit what it declared, or when it refused
    /// one (a match would play with other values); else the options it does not declare
    /// (sent all the same: for a warning). Unless `keep_name`, it takes the name the engine
    /// gives itself.
    pub fn check_handshake(
        &mut self,
        timeout: Duration,
        keep_name: bool,
        keep: impl FnOnce(&Program, HubProcess),
    ) -> Result<Vec<String>, OptionsError> {
        let p = self.handshake(timeout, keep).map_err(OptionsError::Start)?;
        p.check(&self.program.options, false, |_, _| None::<OptionsError>)?;
        if let Some(n) = p.name.filter(|_| !keep_name) {
            self.name = n;
        }
        Ok(p.unknown_options)
    }
}
