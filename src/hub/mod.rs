//! The Hub protocol (version 2, the text protocol of draughts engines) both ways: our engine
//! served to any Hub client (`checkers-ga hub`), and outside engines driven as players.
//!
//! Files, bottom up: `protocol`, `server`, `output`, `cores`, `process`, `command`, `client`,
//! `engine`.
//! `protocol` is the protocol's text (positions, moves, lines); `server` is our engine served
//! to a Hub client (`checkers-ga hub`); `output` reads an engine's output line by line with
//! deadlines; `cores` pins a game's thread and engine processes to one core; `process` starts
//! an outside engine's process, drains its standard error and kills it; `command` reads an
//! engine's command line (its words, its program found as a shell finds it, its options);
//! `client` drives an outside engine as a process, speaking the protocol (and [`Program`], what
//! starts one); `engine` describes an outside engine once (its name, the program that starts
//! it, its depth) and makes and checks its handshake once for every command.

mod client;
mod command;
mod cores;
mod engine;
mod output;
mod process;
mod protocol;
mod server;

pub use client::{
    handshake_timeout, misfit, set_handshake_timeout, ClientError, HubLevel, HubParam, HubProcess,
    HubReply, Program, DEFAULT_HANDSHAKE_TIMEOUT,
};
pub use command::{parse_options, split_words};
pub use cores::{hold as hold_core, pinning, pins, set_pinning, CoreHold};
pub use engine::{HubProbe, OptionsError, OutsideEngine, DEFAULT_MOVE_TIMEOUT};
pub use process::kill_all_engines;
pub use protocol::{hub_move, hub_position, parse_hub_move, parse_hub_position, HubError, HubLine};
pub use server::{serve_hub, tunable_params, HubEngineOptions, LoadEvaluator, NotTunable};
