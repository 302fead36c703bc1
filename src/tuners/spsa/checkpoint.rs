//! The checkpoint of an SPSA session (`checkers-ga spsa`): `spsa.ckpt` in its folder
//! (`populations/NAME/`), written again whole after every step (temp name, sync, rename).
//!
//! Magic `CKGASPSA`, format version (u32 LE), payload length (u64 LE), FNV-1a checksum of the
//! payload (u64 LE), then the payload in bincode 2 (serde, standard configuration), in the frame
//! every checkpoint has ([`crate::store::encode_parts`]): the session's name, its [`SpsaState`] (the engine, the settings, θ, the steps and pairs done,
//! θ's history) and the `--out` file its values are also written to. θ is kept as the exact
//! `f64` values, so a session continued from its checkpoint ends with the values of one that
//! never stopped.
//!
//! As the GA's checkpoints', decoding trusts nothing: the payload's
//! size is bounded, the decoder runs with that byte limit, and the state is checked as user
//! input is (the engine's parameters and ranges, the settings, θ within the ranges, the steps
//! and pairs done within the budget), so a damaged or crafted file is a one-line error.

use super::SpsaState;
use crate::store::{check_engine, read_checkpoint, CheckpointError, ClockPart, TunerSession};
use crate::store::{decode_frame, decode_payload, encode_parts, FrameKind};
use std::path::{Path, PathBuf};

/// The first bytes of an SPSA checkpoint.
pub const SPSA_MAGIC: &[u8; 8] = b"CKGASPSA";
/// The SPSA checkpoint format this build writes for a run without a clock (2: the faults
/// counted; format 1 still loads, its history without them).
pub const SPSA_VERSION: u32 = 2;
/// The SPSA checkpoint format of a run on a clock, and the newest this build reads: format 2
/// followed by the clock and what the games did with it ([`ClockPart`], every one-file
/// tuner's).
pub const SPSA_CLOCK_VERSION: u32 = 3;
/// The SPSA checkpoint's name in its session folder.
pub const SPSA_FILE: &str = "spsa.ckpt";
/// The SPSA checkpoint's frame.
const FRAME: FrameKind = FrameKind {
    magic: SPSA_MAGIC,
    writes: SPSA_VERSION,
    newest: SPSA_CLOCK_VERSION,
    noun: "an SPSA checkpoint",
    tuner: "SPSA ",
};

/// SPSA checkpoint format 1: as format 2 without the faults (of the run and of each point of
/// its history), which read as not kept (the run's count starts at 0).
mod v1 {
    use crate::genome::EngineSpec;
    use crate::tuners::spsa::{SpsaPoint as Point, SpsaSettings, SpsaState as State};
    use serde::Deserialize;
    use std::path::PathBuf;

    #[derive(Deserialize)]
    pub struct Checkpoint {
        name: String,
        state: SpsaState,
        out: Option<PathBuf>,
    }

    #[derive(Deserialize)]
    struct SpsaState {
        spec: EngineSpec,
        settings: SpsaSettings,
        theta: Vec<f64>,
        step: u64,
        pairs_done: u64,
        history: Vec<SpsaPoint>,
    }

    #[derive(Deserialize)]
    struct SpsaPoint {
        step: u64,
        games: u64,
        theta: Vec<f64>,
    }

    impl From<Checkpoint> for super::TunerSession<State> {
        fn from(s: Checkpoint) -> super::TunerSession<State> {
            let st = s.state;
            let history = st
                .history
                .into_iter()
                .map(|p| Point {
                    step: p.step,
                    games: p.games,
                    theta: p.theta,
                    faults: None,
                    time: None,
                })
                .collect();
            super::TunerSession {
                name: s.name,
                state: State {
                    spec: st.spec,
                    settings: st.settings,
                    theta: st.theta,
                    step: st.step,
                    pairs_done: st.pairs_done,
                    history,
                    faults: 0,
                    time: Default::default(),
                },
                out: s.out,
            }
        }
    }
}

/// The checkpoint of the SPSA session in folder `dir`.
pub fn spsa_path(dir: &Path) -> PathBuf {
    dir.join(SPSA_FILE)
}

/// The bytes of an SPSA session's checkpoint; one line when it does not fit one.
pub fn encode_spsa(session: &TunerSession<&SpsaState>) -> Result<Vec<u8>, String> {
    // A run without a clock is written in format 2, which earlier builds read too.
    let st = session.state;
    match st.spec.tc {
        Some(tc) => {
            let times = st.history.iter().map(|p| p.time).collect();
            let part = ClockPart::of(&st.spec, times, st.time);
            debug_assert_eq!(part.clock, Some(tc));
            encode_parts(&FRAME, SPSA_CLOCK_VERSION, session, Some(&part))
        }
        None => encode_parts(&FRAME, FRAME.writes, session, None::<&()>),
    }
}

/// Do these bytes start as an SPSA checkpoint?
pub fn is_spsa(bytes: &[u8]) -> bool {
    bytes.starts_with(SPSA_MAGIC)
}

/// Reads SPSA checkpoint bytes; `path` only names the file in errors.
pub fn decode_spsa(path: &Path, bytes: &[u8]) -> Result<TunerSession<SpsaState>, CheckpointError> {
    let fail = |what: String| CheckpointError::new(path, what);
    let (version, payload) = decode_frame(bytes, &FRAME).map_err(|e| fail(e.to_string()))?;
    let cannot = |e: bincode::error::DecodeError| fail(format!("cannot decode: {e}"));
    let (mut session, mut used) = if version == 1 {
        decode_payload::<v1::Checkpoint>(payload).map(|(s, used)| (s.into(), used))
    } else {
        decode_payload::<TunerSession<SpsaState>>(payload)
    }
    .map_err(cannot)?;
    if version >= SPSA_CLOCK_VERSION {
        let (part, more) = decode_payload::<ClockPart>(&payload[used..]).map_err(cannot)?;
        let st = &mut session.state;
        let points = st.history.iter_mut().map(|p| &mut p.time);
        part.restore(&mut st.spec, points, &mut st.time)
            .map_err(fail)?;
        used += more;
    }
    if used != payload.len() {
        return Err(fail("trailing bytes after the payload".into()));
    }
    check(&session).map_err(fail)?;
    Ok(session)
}

/// Reads an SPSA checkpoint file.
pub fn load_spsa(path: &Path) -> Result<TunerSession<SpsaState>, CheckpointError> {
    let bytes = read_checkpoint(path)?;
    decode_spsa(path, &bytes)
}

/// Checks a decoded session as user input: one line saying what is wrong.
fn check(s: &TunerSession<SpsaState>) -> Result<(), String> {
    let st = &s.state;
    let spec = &st.spec;
    let n = spec.tuned.len();
    check_engine(&s.name, spec)?;
    st.settings.check().map_err(|e| e.to_string())?;
    let in_range = |theta: &[f64]| {
        theta.len() == n
            && theta
                .iter()
                .zip(&spec.tuned)
                .all(|(x, t)| x.is_finite() && *x >= t.min as f64 && *x <= t.max as f64)
    };
    if !in_range(&st.theta) {
        return Err("θ is not one value within each parameter's range".into());
    }
    let s = &st.settings;
    let pairs = st
        .step
        .saturating_mul(s.pairs_per_step as u64)
        .min(s.pairs());
    if st.step > s.steps() || st.pairs_done != pairs {
        return Err(format!(
            "{} steps with {} game pairs done do not fit the budget ({} pairs in steps of {})",
            st.step,
            st.pairs_done,
            s.pairs(),
            s.pairs_per_step
        ));
    }
    let mut last = None;
    // The faults by each point: they only rise.
    let mut before: Option<u64> = None;
    for h in &st.history {
        let pairs = h
            .step
            .saturating_mul(s.pairs_per_step as u64)
            .min(s.pairs());
        if h.step > st.step || last.is_some_and(|l| h.step <= l) || h.games != 2 * pairs {
            return Err(format!(
                "the history's point at step {} does not fit the run",
                h.step
            ));
        }
        if !in_range(&h.theta) {
            return Err(format!(
                "the history's θ at step {} is not one value within each parameter's range",
                h.step
            ));
        }
        if h.faults.is_some_and(|f| f > h.games || f > st.faults)
            || (h.faults.is_some() && before.is_some_and(|b| h.faults < Some(b)))
        {
            return Err(format!(
                "the history's faults at step {} do not fit the run",
                h.step
            ));
        }
        last = Some(h.step);
        before = h.faults.or(before);
    }
    if st.faults > st.games() {
        return Err(format!(
            "{} games lost by a fault of {} played",
            st.faults,
            st.games()
        ));
    }
    if st.history.first().map(|h| h.step) != Some(0) {
        return Err("the history does not start at step 0".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genome::{EngineSpec, Tuned};
    use crate::tuners::spsa::SpsaSettings;

    fn session() -> TunerSession<SpsaState> {
        let spec = EngineSpec {
            engine: crate::hub::OutsideEngine {
                name: "e".into(),
                program: crate::hub::Program::new(vec!["engine".into()]),
                depth: Some(1),
                move_timeout: std::time::Duration::from_secs(1),
            },
            tc: None,
            time_margin: std::time::Duration::ZERO,
            declared: vec![],
            tuned: vec![Tuned {
                name: "king".into(),
                min: 100,
                max: 200,
                default: 130,
            }],
        };
        let settings = SpsaSettings {
            games: 20,
            ..SpsaSettings::default()
        };
        let mut state = SpsaState::new(&spec, &settings).unwrap();
        state.theta = vec![131.25];
        state.step = 2;
        state.pairs_done = 8;
        TunerSession {
            name: "s".into(),
            state,
            out: None,
        }
    }

    #[test]
    fn a_session_reads_back_exactly_and_damage_is_one_line() {
        let s = session();
        let bytes = encode_spsa(&s.view()).unwrap();
        let p = Path::new("x/spsa.ckpt");
        assert_eq!(decode_spsa(p, &bytes).unwrap(), s);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let e = decode_spsa(p, &flipped).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        let e = decode_spsa(p, &bytes[..bytes.len() - 3])
            .unwrap_err()
            .to_string();
        assert!(e.contains("truncated"), "{e}");
        let mut newer = bytes.clone();
        newer[8] = 9;
        let e = decode_spsa(p, &newer).unwrap_err().to_string();
        assert!(e.contains("newer"), "{e}");
        assert!(decode_spsa(p, b"CKGACKPT").is_err());
    }

    /// The file is written as before the frame was shared: the header by hand, then the payload;
    /// and its errors keep their SPSA words.
    #[test]
    fn the_bytes_and_the_errors_are_those_of_before() {
        use crate::store::{fnv, FNV_START};
        let s = session();
        let payload = bincode::serde::encode_to_vec(&s, bincode::config::standard()).unwrap();
        let mut want = Vec::new();
        want.extend_from_slice(b"CKGASPSA");
        want.extend_from_slice(&2u32.to_le_bytes());
        want.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        want.extend_from_slice(&fnv(FNV_START, &payload).to_le_bytes());
        want.extend_from_slice(&payload);
        let bytes = encode_spsa(&s.view()).unwrap();
        assert_eq!(bytes, want);
        let p = Path::new("x/spsa.ckpt");
        let error = |b: &[u8]| decode_spsa(p, b).unwrap_err().to_string();
        let mut newer = bytes.clone();
        newer[8] = 4;
        assert_eq!(
            error(&newer),
            "checkpoint 'x/spsa.ckpt': SPSA format version 4 is newer than this build reads (3); \
             upgrade checkers-ga"
        );
        // Format 3 without its clock's part.
        newer[8] = 3;
        assert!(error(&newer).contains("cannot decode"));
        newer[8] = 0;
        assert_eq!(
            error(&newer),
            "checkpoint 'x/spsa.ckpt': unknown SPSA format version 0"
        );
        assert_eq!(
            error(b"CKGACKPT"),
            "checkpoint 'x/spsa.ckpt': not an SPSA checkpoint: wrong magic"
        );
        let mut extra = payload.clone();
        extra.push(0);
        assert_eq!(
            error(&crate::store::encode_frame(SPSA_MAGIC, 2, &extra)),
            "checkpoint 'x/spsa.ckpt': trailing bytes after the payload"
        );
    }

    /// A checkpoint of format 1 (before the faults were counted) loads, its history's faults
    /// not known and the run's count at 0.
    #[test]
    fn format_1_loads_without_faults() {
        #[derive(serde::Serialize)]
        struct PointV1<'a> {
            step: u64,
            games: u64,
            theta: &'a [f64],
        }
        let s = session();
        let st = &s.state;
        let history: Vec<PointV1> = st
            .history
            .iter()
            .map(|p| PointV1 {
                step: p.step,
                games: p.games,
                theta: &p.theta,
            })
            .collect();
        let payload = bincode::serde::encode_to_vec(
            (
                &s.name,
                (&st.spec, &st.settings, &st.theta, st.step, st.pairs_done),
                &history,
                &s.out,
            ),
            bincode::config::standard(),
        )
        .unwrap();
        let bytes = crate::store::encode_frame(SPSA_MAGIC, 1, &payload);
        let read = decode_spsa(Path::new("old/spsa.ckpt"), &bytes).unwrap();
        assert_eq!(read.state.theta, st.theta);
        assert_eq!(read.state.step, 2);
        assert_eq!(read.state.faults, 0);
        assert!(read.state.history.iter().all(|p| p.faults.is_none()));
        assert_eq!(read.state.history.len(), st.history.len());
    }

    #[test]
    fn a_state_that_does_not_fit_its_run_is_refused() {
        let p = Path::new("spsa.ckpt");
        type Damage = Box<dyn Fn(&mut TunerSession<SpsaState>)>;
        let bad: Vec<(&str, Damage)> = vec![
            ("θ", Box::new(|s| s.state.theta = vec![250.0])),
            ("θ", Box::new(|s| s.state.theta = vec![f64::NAN])),
            ("θ", Box::new(|s| s.state.theta = vec![130.0, 130.0])),
            ("budget", Box::new(|s| s.state.pairs_done = 7)),
            ("budget", Box::new(|s| s.state.step = 99)),
            ("--games", Box::new(|s| s.state.settings.games = 0)),
            ("range", Box::new(|s| s.state.spec.tuned[0].min = 300)),
            ("plain", Box::new(|s| s.name = "../x".into())),
            ("step 0", Box::new(|s| s.state.history.clear())),
            ("fault", Box::new(|s| s.state.faults = 17)),
            ("faults", Box::new(|s| s.state.history[0].faults = Some(1))),
        ];
        for (needle, f) in bad {
            let mut s = session();
            f(&mut s);
            // Encoded with a valid checksum: the checks, not the checksum, refuse it.
            let bytes = encode_spsa(&s.view()).unwrap();
            let e = decode_spsa(p, &bytes).unwrap_err().to_string();
            assert!(e.contains(needle) && !e.contains('\n'), "{needle}: {e}");
        }
    }

    #[test]
    fn the_history_of_a_long_run_is_thinned_to_fit() {
        use crate::history_every;
        assert_eq!(history_every(500, 8), 10);
        let every = history_every(5_000_000, 600);
        let points = 5_000_000 / every + 2;
        let point = 8 * 600 + 24;
        assert!(points * point <= (4 << 20) + 2 * point, "{every}");
        assert!(every > 10);
    }
}
