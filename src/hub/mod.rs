//! The Hub protocol (version 2, the text protocol of draughts engines) both ways: our engine
//! served to any Hub client (`checkers-ga hub`), and outside engines driven as players.
//!
//! Files, bottom up: `protocol`, `engine`, `output`, `client`. `protocol` is the text of the
//! lines both ways; `engine` serves our engine; `output` reads an engine's output line by line
//! with deadlines; `client` drives an outside engine's process.

mod client;
mod engine;
mod output;
mod protocol;

pub use client::{
    handshake_timeout, kill_all_engines, misfit, set_handshake_timeout, ClientError, HubLevel,
    HubParam, HubProcess, HubReply, DEFAULT_HANDSHAKE_TIMEOUT,
};
pub use engine::{serve_hub, tunable_params, HubEngineOptions, LoadEvaluator};
pub use protocol::{hub_move, hub_position, parse_hub_move, parse_hub_position, HubError, HubLine};
