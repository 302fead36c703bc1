//! The checkpoint file: magic `CKGACKPT`, format version (u32 LE), payload length (u64 LE),
//! FNV-1a checksum of the payload (u64 LE), then the payload in bincode 2 (serde, standard
//! configuration): the frame that [`super::frame`] writes and checks, here around a session.
//!
//! Format 3 (this build) holds the session without its history: the history is written once, to
//! the history file beside the checkpoints ([`super::history`]), and the payload ends with the
//! length and checksum of the history file's bytes that belong to it. Formats 1 and 2 held the
//! whole history in every checkpoint; both still load (their parts that today's lack are read by
//! file `legacy`).
//!
//! Decoding trusts nothing: the frame is checked first ([`super::frame`]: magic, lengths,
//! version, checksum), the payload is at most [`MAX_CHECKPOINT_PAYLOAD`] bytes, the bincode
//! decoder runs with that byte limit (a length field cannot make it allocate more than the
//! limit before reading the bytes), and every decoded setting is checked as user input is, so a
//! crafted file with a valid checksum gives a one-line error, never a panic or a huge
//! allocation.

use super::codec::{HistoryLink, MAX_CHECKPOINT_PAYLOAD};
use super::frame::{
    decode_frame, decode_payload, encode_parts, encode_value, FrameError, FrameKind,
};
use super::history::validate_history;
use super::legacy::{v1, v2, v3, v4};
use super::CheckpointError;
use crate::clock::TimeControl;
use crate::eval::Weights;
use crate::ga::{Centre, GaState, Settings, Steps, MAX_POPULATION};
use crate::genome::EngineSpec;
use crate::replay::{Replay, MAX_REPLAY_POSITIONS};
use crate::tournament::Standing;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The first bytes of every checkpoint file.
pub const CHECKPOINT_MAGIC: &[u8; 8] = b"CKGACKPT";
/// The checkpoint format this build writes for a session without a clock, which every build
/// since format 8 reads; one whose outside engine plays on a clock is written in
/// [`CHECKPOINT_CLOCK_VERSION`]. It also reads format 7 (before the mean's centre), format 6
/// (before the fit's replay:
/// read as none, `fit_replay` 0), format 5 (before sessions of outside
/// engines: read as a session of our engine), format 4 (before `fit_top`, read as 0:
/// the fit learns from every game), format 3 (before `fit_every`, read as 0: never), format 2
/// (the whole history in every checkpoint) and format 1 (before the GA
/// options, yardstick measurements and the hall of fame, read as a session with the original
/// operators).
pub const CHECKPOINT_VERSION: u32 = 8;
/// The checkpoint format of a session whose outside engine plays on a clock (format 8 ending
/// with the clock).
pub const CHECKPOINT_CLOCK_VERSION: u32 = 9;
/// The checkpoint format of a session of the mean with generations in flight (format 9, its
/// clock or none, then the generations in flight and the pairs drawn ahead), and the newest
/// this build reads.
pub const CHECKPOINT_FLIGHT_VERSION: u32 = 10;
/// The GA checkpoint's frame ([`super::frame`]).
const FRAME: FrameKind = FrameKind {
    magic: CHECKPOINT_MAGIC,
    writes: CHECKPOINT_VERSION,
    newest: CHECKPOINT_FLIGHT_VERSION,
    noun: "a checkpoint",
    tuner: "",
};
/// The largest generation number a checkpoint may hold (far beyond any session, and far from
/// overflowing the counters that follow it).
pub const MAX_GENERATION: u64 = 1 << 40;

/// The most bytes a checkpoint of a session with `settings` can take, whatever its weights: 3
/// bytes a weight (bincode's varint of an `i16`) for the population, the last generation's
/// vectors, the best so far, the hall of fame and a widened set's vectors, 17 bytes a replay
/// position, and room for the rest.
pub fn largest_checkpoint(settings: &Settings) -> usize {
    let ga = &settings.ga;
    let mut weights = ga.params.len();
    if ga.widen_at > 0 {
        weights = weights.max(ga.widen_to.len());
    }
    let ahead = ga.in_flight.saturating_sub(1) as usize * settings.population;
    let vectors = 2 * settings.population + ga.hall_of_fame as usize + 1 + ahead;
    let replay = if ga.fit_replay > 1 {
        17 * MAX_REPLAY_POSITIONS
    } else {
        0
    };
    3 * weights * vectors + 64 * settings.population + replay + (64 << 10)
}

/// Refuses settings whose checkpoints could outgrow [`MAX_CHECKPOINT_PAYLOAD`] (a session
/// would stop when its first large one is written): a one-line error naming what to lower.
pub fn check_checkpoint_size(settings: &Settings) -> Result<(), String> {
    let most = largest_checkpoint(settings);
    if most <= MAX_CHECKPOINT_PAYLOAD {
        return Ok(());
    }
    Err(format!(
        "population {} of the {} set{} could need {:.1} MB checkpoints, more than the {} MB \
         a checkpoint holds: lower --population{}",
        settings.population,
        settings.ga.params,
        if settings.ga.fit_replay > 1 {
            " with a replay"
        } else {
            ""
        },
        most as f64 / 1e6,
        MAX_CHECKPOINT_PAYLOAD >> 20,
        if settings.ga.hall_of_fame > 0 {
            " or --hall-of-fame"
        } else {
            ""
        }
    ))
}

/// Why a session could not be encoded as a checkpoint (too large): one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(pub String);

/// The payload of formats 3 to 5, as written (borrowed from the session).
#[derive(Serialize)]
struct PayloadRef<'a> {
    name: &'a str,
    settings: &'a Settings,
    generation: u64,
    elapsed: f64,
    population: &'a [Weights],
    /// Formats 4 and 5: the population's step sizes (empty unless the mutation is adaptive).
    steps: &'a [Steps],
    last: &'a [(Weights, Standing)],
    best_so_far: &'a Option<Weights>,
    hall: &'a [Weights],
    /// Bytes of the history file that belong to this checkpoint.
    history_len: u64,
    /// Their FNV-1a checksum, little-endian (fixed width, so a checkpoint's size does not
    /// depend on the wall-clock times in the history).
    history_sum: [u8; 8],
    /// Format 6: the outside engine whose parameters the session tunes ([`Settings::engine`]).
    engine: &'a Option<EngineSpec>,
    /// Format 7: the fit's replay, its settings and its positions.
    replay: ReplayPart<&'a Replay>,
    /// Format 8: the centre of a session of `--selection mean`.
    centre: &'a Option<Centre>,
    // Format 9 ends with the clock of an outside engine's games ([`EngineSpec::tc`]), as
    // `Option<ClockTail>` (the clock and its margin); appended to the payload only for a
    // session with one. Format 10 ends with that option and a [`FlightTail`], for a session
    // of the mean with generations in flight.
}

/// Format 10's end: the mean's generations in flight ([`crate::ga::GaOptions::in_flight`])
/// and the pairs drawn ahead ([`Centre::ahead`]).
#[derive(Serialize, Deserialize)]
struct FlightTail<A> {
    in_flight: u32,
    ahead: A,
}

/// Formats 3 to 9: one generation in flight (no bytes).
#[derive(Deserialize)]
struct NoFlight;

impl From<NoFlight> for FlightTail<Vec<Vec<Weights>>> {
    fn from(_: NoFlight) -> FlightTail<Vec<Vec<Weights>>> {
        FlightTail {
            in_flight: 1,
            ahead: Vec::new(),
        }
    }
}

/// Format 7's end: [`crate::ga::GaOptions::fit_replay`], `fit_blend` and `fit_blend_depth`,
/// and the session's replay.
#[derive(Serialize, Deserialize)]
struct ReplayPart<R> {
    fit_replay: u32,
    fit_blend: u32,
    fit_blend_depth: u32,
    replay: R,
}

/// Formats 3 to 6: no replay (no bytes).
#[derive(Deserialize)]
struct NoReplay;

impl From<NoReplay> for ReplayPart<Replay> {
    fn from(_: NoReplay) -> ReplayPart<Replay> {
        ReplayPart {
            fit_replay: 0,
            fit_blend: 0,
            fit_blend_depth: 2,
            replay: Replay::default(),
        }
    }
}

/// Format 9's end: the clock of an outside engine's games and its margin
/// ([`EngineSpec::tc`], [`EngineSpec::time_margin`]).
#[derive(Clone, Copy, Serialize, Deserialize)]
struct ClockTail {
    tc: TimeControl,
    margin: std::time::Duration,
}

/// Formats 3 to 8: no clock (no bytes): games at a fixed depth.
#[derive(Deserialize)]
struct NoClock;

impl From<NoClock> for Option<ClockTail> {
    fn from(_: NoClock) -> Option<ClockTail> {
        None
    }
}

/// Formats 3 to 7: no centre (no bytes).
#[derive(Deserialize)]
struct NoCentre;

impl From<NoCentre> for Option<Centre> {
    fn from(_: NoCentre) -> Option<Centre> {
        None
    }
}

/// The payload of formats 3 to 8, as read: their settings differ, format 3 has no steps
/// (`T` = `NoSteps`, which takes no bytes), formats before 6 no engine (`E` = `NoEngine`),
/// formats before 7 no replay (`R` = `NoReplay`) and formats before 8 no centre (`C` =
/// `NoCentre`).
#[derive(Deserialize)]
struct Payload<S, T, E, R, C = NoCentre, K = NoClock, F = NoFlight> {
    name: String,
    settings: S,
    generation: u64,
    elapsed: f64,
    population: Vec<Weights>,
    steps: T,
    last: Vec<(Weights, Standing)>,
    best_so_far: Option<Weights>,
    hall: Vec<Weights>,
    history_len: u64,
    history_sum: [u8; 8],
    engine: E,
    replay: R,
    centre: C,
    clock: K,
    flight: F,
}

impl<
        S,
        T: Into<Vec<Steps>>,
        E: Into<Option<EngineSpec>>,
        R: Into<ReplayPart<Replay>>,
        C: Into<Option<Centre>>,
        K: Into<Option<ClockTail>>,
        F: Into<FlightTail<Vec<Vec<Weights>>>>,
    > Payload<S, T, E, R, C, K, F>
{
    /// The session (with an empty history) and the part of the history file it goes with.
    fn into_session(self, settings: impl FnOnce(S) -> Settings) -> (GaState, HistoryLink) {
        let link = HistoryLink {
            len: self.history_len,
            sum: u64::from_le_bytes(self.history_sum),
        };
        let mut settings = settings(self.settings);
        settings.engine = self.engine.into();
        if let (Some(e), Some(c)) = (settings.engine.as_mut(), self.clock.into()) {
            e.tc = Some(c.tc);
            e.time_margin = c.margin;
        }
        let replay: ReplayPart<Replay> = self.replay.into();
        settings.ga.fit_replay = replay.fit_replay;
        settings.ga.fit_blend = replay.fit_blend;
        settings.ga.fit_blend_depth = replay.fit_blend_depth;
        let flight: FlightTail<Vec<Vec<Weights>>> = self.flight.into();
        settings.ga.in_flight = flight.in_flight;
        let mut centre: Option<Centre> = self.centre.into();
        if let Some(c) = centre.as_mut() {
            c.ahead = flight.ahead;
        }
        let s = GaState {
            name: self.name,
            settings,
            generation: self.generation,
            elapsed: self.elapsed,
            population: self.population,
            steps: self.steps.into(),
            last: self.last,
            best_so_far: self.best_so_far,
            history: Default::default(),
            hall: self.hall.into(),
            bests: Default::default(),
            fitted: None,
            faults: Vec::new(),
            replay: replay.replay,
            centre,
            pending: Default::default(),
        };
        (s, link)
    }
}

/// The checkpoint bytes of a session whose history file part is `link`.
pub(crate) fn encode_with_link(
    session: &GaState,
    link: HistoryLink,
) -> Result<Vec<u8>, EncodeError> {
    let p = PayloadRef {
        name: &session.name,
        settings: &session.settings,
        generation: session.generation,
        elapsed: session.elapsed,
        population: &session.population,
        steps: &session.steps,
        last: &session.last,
        best_so_far: &session.best_so_far,
        hall: &session.hall,
        history_len: link.len,
        history_sum: link.sum.to_le_bytes(),
        engine: &session.settings.engine,
        replay: ReplayPart {
            fit_replay: session.settings.ga.fit_replay,
            fit_blend: session.settings.ga.fit_blend,
            fit_blend_depth: session.settings.ga.fit_blend_depth,
            replay: &session.replay,
        },
        centre: &session.centre,
    };
    // A session without a clock is written in format 8, which earlier builds read too.
    let clock = session.settings.engine.as_ref().and_then(|e| {
        e.tc.map(|tc| ClockTail {
            tc,
            margin: e.time_margin,
        })
    });
    let flight = (session.settings.ga.in_flight > 1).then(|| FlightTail {
        in_flight: session.settings.ga.in_flight,
        ahead: session.centre.as_ref().map_or(&[][..], |c| &c.ahead[..]),
    });
    match (clock, flight) {
        (clock, Some(f)) => encode_parts(&FRAME, CHECKPOINT_FLIGHT_VERSION, &p, Some(&(clock, f))),
        (Some(c), None) => encode_parts(&FRAME, CHECKPOINT_CLOCK_VERSION, &p, Some(&Some(c))),
        (None, None) => encode_value(&FRAME, &p),
    }
    .map_err(EncodeError)
}

/// The checkpoint bytes of a session (format 6). Its history goes to the history file: the
/// checkpoint holds the length and checksum of that file as it is after the session's history.
pub fn encode_checkpoint(session: &GaState) -> Result<Vec<u8>, EncodeError> {
    let bytes = super::history::history_bytes(&session.history, &session.bests);
    encode_with_link(session, HistoryLink::of(&bytes))
}

/// Reads checkpoint bytes; `path` only names the file in errors. A checkpoint of format 3 does
/// not hold its history (the history file beside it does: [`super::load_checkpoint`] reads
/// both), so its session comes with an empty history; formats 1 and 2 come with theirs.
pub fn decode_checkpoint(path: &Path, bytes: &[u8]) -> Result<GaState, CheckpointError> {
    decode_checkpoint_parts(path, bytes).map(|(s, _)| s)
}

/// [`decode_checkpoint`], and for format 3 the part of the history file the checkpoint goes
/// with.
pub fn decode_checkpoint_parts(
    path: &Path,
    bytes: &[u8],
) -> Result<(GaState, Option<HistoryLink>), CheckpointError> {
    let (version, payload) = decode_frame(bytes, &FRAME).map_err(|e| {
        let what = match e {
            FrameError::WrongMagic { .. } => looks_like(bytes),
            _ => "",
        };
        CheckpointError::new(path, format!("{e}{what}"))
    })?;
    let cannot =
        |e: bincode::error::DecodeError| CheckpointError::new(path, format!("cannot decode: {e}"));
    let (session, link, used) = match version {
        1 => {
            let (s, used) = decode_payload::<v1::Session>(payload).map_err(cannot)?;
            (s.into(), None, used)
        }
        2 => {
            let (s, used) = decode_payload::<v2::Session>(payload).map_err(cannot)?;
            (s.into(), None, used)
        }
        3 => {
            let (p, used) =
                decode_payload::<Payload<v3::Settings, NoSteps, NoEngine, NoReplay>>(payload)
                    .map_err(cannot)?;
            let (s, link) = p.into_session(v3::Settings::into);
            (s, Some(link), used)
        }
        4 => {
            let (p, used) =
                decode_payload::<Payload<v4::Settings, Vec<Steps>, NoEngine, NoReplay>>(payload)
                    .map_err(cannot)?;
            let (s, link) = p.into_session(v4::Settings::into);
            (s, Some(link), used)
        }
        5 => {
            let (p, used) =
                decode_payload::<Payload<Settings, Vec<Steps>, NoEngine, NoReplay>>(payload)
                    .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
        6 => {
            let (p, used) = decode_payload::<
                Payload<Settings, Vec<Steps>, Option<EngineSpec>, NoReplay>,
            >(payload)
            .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
        7 => {
            let (p, used) = decode_payload::<
                Payload<Settings, Vec<Steps>, Option<EngineSpec>, ReplayPart<Replay>>,
            >(payload)
            .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
        8 => {
            let (p, used) = decode_payload::<
                Payload<
                    Settings,
                    Vec<Steps>,
                    Option<EngineSpec>,
                    ReplayPart<Replay>,
                    Option<Centre>,
                >,
            >(payload)
            .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
        9 => {
            let (p, used) = decode_payload::<
                Payload<
                    Settings,
                    Vec<Steps>,
                    Option<EngineSpec>,
                    ReplayPart<Replay>,
                    Option<Centre>,
                    Option<ClockTail>,
                >,
            >(payload)
            .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
        _ => {
            let (p, used) = decode_payload::<
                Payload<
                    Settings,
                    Vec<Steps>,
                    Option<EngineSpec>,
                    ReplayPart<Replay>,
                    Option<Centre>,
                    Option<ClockTail>,
                    FlightTail<Vec<Vec<Weights>>>,
                >,
            >(payload)
            .map_err(cannot)?;
            let (s, link) = p.into_session(|s| s);
            (s, Some(link), used)
        }
    };
    if used != payload.len() {
        return Err(CheckpointError::new(
            path,
            "cannot decode: unused bytes in the payload",
        ));
    }
    validate_session(&session).map_err(|e| CheckpointError::new(path, e))?;
    validate_history(&session, &session.history, &session.bests)
        .map_err(|e| CheckpointError::new(path, e))?;
    Ok((session, link))
}

/// What bytes that are not a checkpoint look like, to say after "wrong magic": a weight file,
/// a file of the original tool, or nothing.
fn looks_like(bytes: &[u8]) -> &'static str {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]).to_string();
    let t = head.trim_start();
    if t.starts_with('{') && t.contains("weights") {
        " (it looks like a weight file)"
    } else if t.starts_with("60 ") {
        " (it looks like a file of the original tool)"
    } else {
        ""
    }
}

/// Checks a decoded session as the tool checks user input: its settings as `new` would, and
/// every count and size against what a session can hold.
fn validate_session(s: &GaState) -> Result<(), String> {
    if !super::is_plain_name(&s.name) {
        return Err(format!(
            "session name '{}' is not a plain folder name",
            s.name.escape_debug()
        ));
    }
    s.settings
        .validate()
        .map_err(|e| format!("invalid settings: {e}"))?;
    s.replay.validate(s.generation)?;
    if let Some(c) = &s.centre {
        if !c.fits(s.settings.ga.params.len()) {
            return Err(format!(
                "the mean's centre does not have the {} finite values of the {} set",
                s.settings.ga.params.len(),
                s.settings.ga.params
            ));
        }
        let flight = s.settings.ga.in_flight as usize;
        if c.ahead.len() + 1 != flight || c.ahead.iter().any(|p| p.len() != s.settings.population) {
            return Err(format!(
                "the mean's pairs drawn ahead do not fill {flight} generations in flight"
            ));
        }
    } else if s.settings.ga.in_flight > 1 {
        return Err("generations in flight without the mean's centre".to_string());
    }
    if s.population.len() != s.settings.population {
        return Err("population size does not match its settings".to_string());
    }
    if !s.steps.is_empty() && s.steps.len() != s.population.len() {
        return Err("step sizes do not match the population".to_string());
    }
    if s.steps.iter().any(|st| !st.is_valid()) {
        return Err("a step size out of range".to_string());
    }
    if s.generation > MAX_GENERATION {
        return Err(format!(
            "generation {} is beyond any session ({MAX_GENERATION})",
            s.generation
        ));
    }
    if !s.elapsed.is_finite() || s.elapsed < 0.0 {
        return Err(format!(
            "elapsed time {} is not a number of seconds",
            s.elapsed
        ));
    }
    if s.last.len() > MAX_POPULATION {
        return Err(format!(
            "the last population has {} individuals, more than {MAX_POPULATION}",
            s.last.len()
        ));
    }
    if s.hall.len() > MAX_POPULATION {
        return Err(format!(
            "the hall of fame has {} members, more than {MAX_POPULATION}",
            s.hall.len()
        ));
    }
    for (k, (_, st)) in s.last.iter().enumerate() {
        let counts = [
            st.wins_black,
            st.draws_black,
            st.losses_black,
            st.wins_white,
            st.draws_white,
            st.losses_white,
        ];
        if counts
            .iter()
            .try_fold(0u32, |a, &c| a.checked_add(c))
            .is_none()
        {
            return Err(format!(
                "the game counts of individual {} add up to more than {}",
                k + 1,
                u32::MAX
            ));
        }
    }
    let set = s.settings.ga.params;
    let ahead = s.centre.iter().flat_map(|c| c.ahead.iter().flatten());
    let all = s
        .population
        .iter()
        .chain(ahead)
        .chain(s.last.iter().map(|(w, _)| w))
        .chain(s.best_so_far.iter())
        .chain(s.hall.iter());
    if let Some(w) = all.into_iter().find(|w| w.set() != set) {
        return Err(format!("holds {} weights in a {set} session", w.set()));
    }
    Ok(())
}

/// Format 3's steps: none (no bytes).
#[derive(Deserialize)]
struct NoSteps;

impl From<NoSteps> for Vec<Steps> {
    fn from(_: NoSteps) -> Vec<Steps> {
        Vec::new()
    }
}

/// Formats 3 to 5: no outside engine (no bytes).
#[derive(Deserialize)]
struct NoEngine;

impl From<NoEngine> for Option<EngineSpec> {
    fn from(_: NoEngine) -> Option<EngineSpec> {
        None
    }
}
