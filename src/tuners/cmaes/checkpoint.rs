//! The checkpoint of a CMA-ES session (`checkers-ga cmaes`): `cmaes.ckpt` in its folder
//! (`populations/NAME/`), written again whole after every generation (temp name, sync, rename).
//!
//! Magic `CKGACMAE`, format version (u32 LE), payload length (u64 LE), FNV-1a checksum of the
//! payload (u64 LE), then the payload in bincode 2 (serde, standard configuration), in the frame
//! every checkpoint has ([`super::frame`]): the session's name, its [`CmaesState`] (the engine,
//! the settings, the mean, σ, the covariance's diagonal, the paths, the answer, the counts and
//! the history) and the `--out` file, then the clock of its games and what they did with it
//! ([`ClockPart`]; no clock for a run to a depth), then (format 2) the generations in flight and
//! what those asked for ahead were drawn from ([`FlightPart`]; a format 1 checkpoint keeps one
//! generation in flight), then (format 3) uncertainty handling's growth of σ and its signal
//! ([`NoisePart`]; an older checkpoint's run never grows σ, as its build ran it). Every number is kept as the exact `f64`, so a session continued from
//! its checkpoint ends with the answer of one that never stopped.
//!
//! Decoding trusts nothing: the frame is checked before a byte is decoded, the decoder runs
//! with the checkpoints' byte limit, and the state is checked as user input is, so a damaged or
//! crafted file is a one-line error.

use super::{CmaesDraw, CmaesState, CMAES_MAX_IN_FLIGHT, CMAES_MIN_SIGMA};
use crate::store::{check_engine, read_checkpoint, CheckpointError, ClockPart};
use crate::store::{decode_frame, decode_payload, encode_parts, FrameKind, TunerSession};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The first bytes of a CMA-ES checkpoint.
pub const CMAES_MAGIC: &[u8; 8] = b"CKGACMAE";
/// The CMA-ES checkpoint format this build writes and the newest it reads.
pub const CMAES_VERSION: u32 = 3;
/// The CMA-ES checkpoint's name in its session folder.
pub const CMAES_FILE: &str = "cmaes.ckpt";
/// The CMA-ES checkpoint's frame ([`super::frame`]).
const FRAME: FrameKind = FrameKind {
    magic: CMAES_MAGIC,
    writes: CMAES_VERSION,
    newest: CMAES_VERSION,
    noun: "a CMA-ES checkpoint",
    tuner: "CMA-ES ",
};

/// The end of a format 2 payload: the generations in flight
/// ([`super::CmaesSettings::in_flight`]) and what those asked for ahead were drawn from
/// ([`CmaesState::ahead`]).
#[derive(Serialize, Deserialize)]
struct FlightPart {
    in_flight: u32,
    ahead: Vec<CmaesDraw>,
}

/// The end of a format 3 payload: uncertainty handling's growth of σ
/// ([`super::CmaesSettings::growth`]) and the signal it reads ([`CmaesState::signal`]).
#[derive(Serialize, Deserialize)]
struct NoisePart {
    growth: f64,
    signal: f64,
}

/// The most mirrored pairs a generation a checkpoint may ask for.
const MAX_PAIRS: u32 = 1 << 16;

/// The checkpoint of the CMA-ES session in folder `dir`.
pub fn cmaes_path(dir: &Path) -> PathBuf {
    dir.join(CMAES_FILE)
}

/// Do these bytes start as a CMA-ES checkpoint?
pub fn is_cmaes(bytes: &[u8]) -> bool {
    bytes.starts_with(CMAES_MAGIC)
}

/// The bytes of a CMA-ES session's checkpoint; one line when it does not fit one.
pub fn encode_cmaes(session: &TunerSession<&CmaesState>) -> Result<Vec<u8>, String> {
    let st = session.state;
    let times = st.history.iter().map(|p| p.time).collect();
    let part = ClockPart::of(&st.spec, times, st.time);
    let flight = FlightPart {
        in_flight: st.settings.in_flight,
        ahead: st.ahead.clone(),
    };
    let noise = NoisePart {
        growth: st.settings.growth,
        signal: st.signal,
    };
    encode_parts(&FRAME, CMAES_VERSION, session, Some(&(part, flight, noise)))
}

/// Reads CMA-ES checkpoint bytes; `path` only names the file in errors.
pub fn decode_cmaes(
    path: &Path,
    bytes: &[u8],
) -> Result<TunerSession<CmaesState>, CheckpointError> {
    let fail = |what: String| CheckpointError::new(path, what);
    let (version, payload) = decode_frame(bytes, &FRAME).map_err(|e| fail(e.to_string()))?;
    let cannot = |e: bincode::error::DecodeError| fail(format!("cannot decode: {e}"));
    let (mut session, used) =
        decode_payload::<TunerSession<CmaesState>>(payload).map_err(cannot)?;
    let (part, more) = decode_payload::<ClockPart>(&payload[used..]).map_err(cannot)?;
    let mut used = used + more;
    let flight = if version >= 2 {
        let (f, more) = decode_payload::<FlightPart>(&payload[used..]).map_err(cannot)?;
        used += more;
        f
    } else {
        FlightPart {
            in_flight: 1,
            ahead: Vec::new(),
        }
    };
    let noise = if version >= 3 {
        let (n, more) = decode_payload::<NoisePart>(&payload[used..]).map_err(cannot)?;
        used += more;
        n
    } else {
        NoisePart {
            growth: 1.0,
            signal: 0.0,
        }
    };
    if used != payload.len() {
        return Err(fail("trailing bytes after the payload".into()));
    }
    let st = &mut session.state;
    let points = st.history.iter_mut().map(|p| &mut p.time);
    part.restore(&mut st.spec, points, &mut st.time)
        .map_err(fail)?;
    st.settings.in_flight = flight.in_flight;
    st.ahead = flight.ahead;
    st.settings.growth = noise.growth;
    st.signal = noise.signal;
    check(&session).map_err(fail)?;
    Ok(session)
}

/// Reads a CMA-ES checkpoint file.
pub fn load_cmaes(path: &Path) -> Result<TunerSession<CmaesState>, CheckpointError> {
    let bytes = read_checkpoint(path)?;
    decode_cmaes(path, &bytes)
}

/// Checks a decoded session as user input: one line saying what is wrong.
fn check(s: &TunerSession<CmaesState>) -> Result<(), String> {
    let st = &s.state;
    check_engine(&s.name, &st.spec)?;
    let set = &st.settings;
    set.check()?;
    if set.pairs == 0 || set.pairs > MAX_PAIRS || !(CMAES_MIN_SIGMA..=32768.0).contains(&set.sigma)
    {
        return Err(format!(
            "the settings' {} pairs and step size {} are not 1..={MAX_PAIRS} and \
             {CMAES_MIN_SIGMA}..=32768",
            set.pairs, set.sigma
        ));
    }
    let n = st.spec.tuned.len();
    let genes = |x: &[f64]| {
        x.len() == n
            && x.iter()
                .all(|g| g.is_finite() && (i16::MIN as f64..=i16::MAX as f64).contains(g))
    };
    if !genes(&st.mean) || !genes(&st.average) {
        return Err("the mean is not one gene of the i16 range for each parameter".into());
    }
    let finite = |x: &[f64]| x.len() == n && x.iter().all(|v| v.is_finite());
    if !finite(&st.p_sigma) || !finite(&st.p_c) || !finite(&st.c) || st.c.iter().any(|&c| c <= 0.0)
    {
        return Err("the paths or the covariance do not fit the parameters".into());
    }
    let sigma_fits = |x: f64| (CMAES_MIN_SIGMA..=set.sigma).contains(&x);
    if !sigma_fits(st.sigma) {
        return Err(format!(
            "the step size {} is not within {CMAES_MIN_SIGMA}..{}",
            st.sigma, set.sigma
        ));
    }
    // Every generation plays its pairs but the last, which plays what is left of the budget.
    let budget = set.games.next_multiple_of(2);
    let games_after = |g: u64| g.saturating_mul(2 * u64::from(set.pairs)).min(budget);
    if st.games != games_after(st.generation)
        || (st.generation > 0 && games_after(st.generation - 1) == budget)
        || st.moved > st.generation
        || st.faults > st.games
    {
        return Err(format!(
            "{} generations and {} games do not fit the budget ({} games)",
            st.generation, st.games, set.games
        ));
    }
    let mut last: Option<(u64, u64)> = None;
    for h in &st.history {
        if h.generation > st.generation
            || last.is_some_and(|(g, f)| h.generation <= g || h.faults < f)
            || h.games != games_after(h.generation)
            || h.faults > st.faults
            || h.faults > h.games
            || !sigma_fits(h.sigma)
            || !genes(&h.average)
        {
            return Err(format!(
                "the history's point at generation {} does not fit the run",
                h.generation
            ));
        }
        last = Some((h.generation, h.faults));
    }
    if !st.signal.is_finite() {
        return Err(format!("the signal {} is not a number", st.signal));
    }
    if set.history_every > 0 && st.history.first().map(|h| h.generation) != Some(0) {
        return Err("the history does not start at generation 0".into());
    }
    if !(1..=CMAES_MAX_IN_FLIGHT).contains(&set.in_flight)
        || st.ahead.len() >= set.in_flight as usize
        || st.ahead.iter().any(|d| {
            !genes(&d.mean)
                || !finite(&d.c)
                || d.c.iter().any(|&c| c <= 0.0)
                || !sigma_fits(d.sigma)
        })
    {
        return Err(format!(
            "the {} generations in flight and the {} asked for ahead do not fit the run",
            set.in_flight,
            st.ahead.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeUse;
    use crate::genome::EngineSpec;
    use crate::sim::SimModel;
    use crate::tuners::cmaes::CmaesSettings;
    use std::time::Duration;

    fn session() -> TunerSession<CmaesState> {
        let spec = EngineSpec::simulated(&SimModel::new(3, 1), 2);
        // Uncertainty handling on, so that its part is written and read back.
        let settings = CmaesSettings {
            games: 40,
            history_every: 2,
            growth: crate::tuners::cmaes::CMAES_GROWTH,
            ..CmaesSettings::default()
        };
        TunerSession {
            name: "c".into(),
            state: CmaesState::new(&spec, &settings),
            out: None,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_as_written_and_a_damaged_one_is_one_line() {
        let s = session();
        let bytes = encode_cmaes(&s.view()).unwrap();
        assert!(is_cmaes(&bytes));
        let p = Path::new("cmaes.ckpt");
        assert_eq!(decode_cmaes(p, &bytes).unwrap(), s);
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let e = decode_cmaes(p, &bad).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // A state that does not fit its settings, framed whole: refused by the checks.
        let mut wrong = s.clone();
        wrong.state.sigma = 2.0 * wrong.state.settings.sigma;
        let e = decode_cmaes(p, &encode_cmaes(&wrong.view()).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("step size"), "{e}");
        assert!(!e.contains('\n'));
    }

    /// A run under way, its generations in flight: what those asked for ahead were drawn from
    /// is read back, and a format 1 checkpoint (written before generations were kept in
    /// flight) reads as one generation in flight.
    #[test]
    fn generations_in_flight_are_kept_and_format_1_reads_as_one() {
        use crate::tuner::play_step;
        let mut s = session();
        crate::jobs::thread_pool(1).unwrap().install(|| {
            for _ in 0..2 {
                play_step(&mut s.state, &|_, _| {}, &|| false).unwrap();
            }
        });
        s.state.settings.in_flight = 3;
        assert_eq!(s.state.ahead.len(), 0);
        crate::jobs::thread_pool(1).unwrap().install(|| {
            play_step(&mut s.state, &|_, _| {}, &|| false).unwrap();
        });
        assert_eq!(s.state.ahead.len(), 2);
        // Uncertainty handling's signal has moved, and is read back with the rest.
        assert_ne!(s.state.signal, 0.0);
        let p = Path::new("cmaes.ckpt");
        assert_eq!(
            decode_cmaes(p, &encode_cmaes(&s.view()).unwrap()).unwrap(),
            s
        );
        // Format 1: the frame's version 1, the payload without the flight part.
        let mut old = s.clone();
        old.state.ahead.clear();
        let st = &old.state;
        let times = st.history.iter().map(|p| p.time).collect();
        let part = ClockPart::of(&st.spec, times, st.time);
        let v1 = encode_parts(&FRAME, 1, &old.view(), Some(&part)).unwrap();
        let back = decode_cmaes(p, &v1).unwrap();
        assert_eq!(
            (back.state.settings.in_flight, back.state.ahead.len()),
            (1, 0)
        );
        assert_eq!(back.state.mean, s.state.mean);
        // Format 2: the frame's version 2, the payload without uncertainty handling's part: a
        // run that never grows σ, as its build ran it.
        let flight = FlightPart {
            in_flight: s.state.settings.in_flight,
            ahead: s.state.ahead.clone(),
        };
        let v2 = encode_parts(&FRAME, 2, &s.view(), Some(&(part, flight))).unwrap();
        let back = decode_cmaes(p, &v2).unwrap();
        assert_eq!((back.state.settings.growth, back.state.signal), (1.0, 0.0));
        assert_eq!(back.state.ahead, s.state.ahead);
        // More asked for ahead than are in flight: refused.
        let mut wrong = s.clone();
        wrong.state.settings.in_flight = 2;
        let e = decode_cmaes(p, &encode_cmaes(&wrong.view()).unwrap()).unwrap_err();
        assert!(e.to_string().contains("in flight"), "{e}");
    }

    /// What a crafted file could hold that a run would trip over later: each refused in one
    /// line as it is read.
    #[test]
    fn a_crafted_state_that_would_break_a_run_later_is_refused() {
        let p = Path::new("cmaes.ckpt");
        let refused = |change: &dyn Fn(&mut TunerSession<CmaesState>), says: &str| {
            let mut s = session();
            change(&mut s);
            let e = decode_cmaes(p, &encode_cmaes(&s.view()).unwrap())
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{says}: {e}");
        };
        // A step size below the least (σ's update would clamp with its bounds crossed).
        refused(
            &|s| {
                s.state.settings.sigma = 4.0;
                s.state.sigma = 4.0;
            },
            "step size",
        );
        // Games that no run of these settings plays.
        refused(&|s| s.state.games = 3, "do not fit the budget");
        // Faults that fall from one point of the history to the next.
        refused(
            &|s| {
                let st = &mut s.state;
                let per = 2 * u64::from(st.settings.pairs);
                for (g, faults) in [(1, 2), (2, 1)] {
                    let mut h = st.history[0].clone();
                    (h.generation, h.games, h.faults) = (g, g * per, faults);
                    st.history.push(h);
                }
                (st.generation, st.games, st.faults) = (2, 2 * per, 2);
            },
            "history's point at generation 2",
        );
        // Mean and covariance of another width.
        refused(&|s| s.state.c.push(1.0), "covariance");
        // σ's growth out of its bounds, a signal that is not a number.
        refused(&|s| s.state.settings.growth = 3.0, "growth");
        refused(&|s| s.state.signal = f64::NAN, "signal");
    }

    #[test]
    fn a_run_on_a_clock_keeps_its_clock_and_what_the_games_did_with_it() {
        let mut s = session();
        let st = &mut s.state;
        st.spec.tc = Some(crate::clock::TimeControl::PerMove(Duration::from_millis(
            20,
        )));
        st.spec.time_margin = Duration::from_millis(5);
        st.history[0].time = Some(TimeUse {
            games: 4,
            lost_on_time: 1,
            ..TimeUse::default()
        });
        st.time = TimeUse {
            games: 2,
            ..TimeUse::default()
        };
        let p = Path::new("cmaes.ckpt");
        assert_eq!(
            decode_cmaes(p, &encode_cmaes(&s.view()).unwrap()).unwrap(),
            s
        );
    }
}
