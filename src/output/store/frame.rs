//! The frame every checkpoint file is written in, the GA's (`CKGACKPT`, [`super::checkpoint`])
//! and every one-file tuner's (SPSA's `CKGASPSA`, CMA-ES's `CKGACMAE`) alike: magic (8 bytes), format version (u32 LE),
//! payload length (u64 LE), FNV-1a checksum of the payload (u64 LE), then the payload in
//! bincode 2 (serde, standard configuration).
//!
//! [`decode_frame`] trusts nothing: the magic, the header's length, the version (newer than this
//! build reads, or 0), the payload's length against the header's, its size against
//! [`MAX_CHECKPOINT_PAYLOAD`] and its checksum are checked before a byte of it is decoded, and
//! each failure is one line ([`FrameError`]). The payload is then decoded with the bounded
//! configuration ([`decode_payload`]), so a length field cannot make the decoder allocate more
//! than the limit.

use super::codec::{decode_config, fnv, FNV_START, MAX_CHECKPOINT_PAYLOAD};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Magic, version, payload length, checksum.
pub(super) const HEADER_LEN: usize = 8 + 4 + 8 + 8;

/// One kind of framed file: its magic, the newest format version this build writes and reads,
/// and the words its errors use.
pub struct FrameKind {
    /// The first bytes of every file of the kind.
    pub magic: &'static [u8; 8],
    /// The format version this build writes for a file without a newer format's part.
    pub writes: u32,
    /// The newest format version this build reads and writes; any later one is refused.
    pub newest: u32,
    /// What the file is, as in "not {noun}: wrong magic" (`a checkpoint`).
    pub noun: &'static str,
    /// The tuner's name and a space, or nothing, before "format version" and "session" in
    /// errors (`SPSA `).
    pub tuner: &'static str,
}

/// Why framed bytes could not be opened: one line, without the file's name (the caller's
/// [`super::CheckpointError`] adds it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// No bytes at all.
    #[error("the file is empty")]
    Empty,
    /// The bytes do not start with the kind's magic.
    #[error("not {noun}: wrong magic")]
    WrongMagic {
        /// [`FrameKind::noun`].
        noun: &'static str,
    },
    /// The magic, but fewer bytes than a header.
    #[error("truncated header")]
    TruncatedHeader,
    /// A format version later than this build's.
    #[error(
        "{tuner}format version {version} is newer than this build reads ({newest}); \
         upgrade checkers-ga"
    )]
    Newer {
        /// [`FrameKind::tuner`].
        tuner: &'static str,
        /// The file's version.
        version: u32,
        /// This build's ([`FrameKind::newest`]).
        newest: u32,
    },
    /// Format version 0, which no build wrote.
    #[error("unknown {tuner}format version {version}")]
    Unknown {
        /// [`FrameKind::tuner`].
        tuner: &'static str,
        /// The file's version.
        version: u32,
    },
    /// Fewer payload bytes than the header says.
    #[error("truncated: {have} of {len} payload bytes")]
    Truncated {
        /// Payload bytes in the file.
        have: usize,
        /// Payload bytes the header gives.
        len: u64,
    },
    /// More payload bytes than the header says.
    #[error("trailing bytes after the payload")]
    Trailing,
    /// A payload above [`MAX_CHECKPOINT_PAYLOAD`].
    #[error(
        "a payload of {0} bytes is larger than any checkpoint ({mib} MiB)",
        mib = MAX_CHECKPOINT_PAYLOAD >> 20
    )]
    TooLarge(usize),
    /// The payload's checksum is not the header's.
    #[error("checksum mismatch: the file is corrupted")]
    Checksum,
}

/// The framed bytes of `payload` as format `version` of the file starting with `magic`.
pub(crate) fn encode_frame(magic: &[u8; 8], version: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv(FNV_START, payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The file of `kind`, format [`FrameKind::writes`], that holds `value`; one line when it
/// cannot be encoded or does not fit a checkpoint ([`MAX_CHECKPOINT_PAYLOAD`]).
pub(super) fn encode_value<T: Serialize>(kind: &FrameKind, value: &T) -> Result<Vec<u8>, String> {
    encode_parts(kind, kind.writes, value, None::<&()>)
}

/// The file of `kind`, format `version`, whose payload is `value` followed by `tail` (the part
/// a newer format adds at its end, when the file has one); one line as `encode_value`'s.
pub fn encode_parts<T: Serialize, U: Serialize>(
    kind: &FrameKind,
    version: u32,
    value: &T,
    tail: Option<&U>,
) -> Result<Vec<u8>, String> {
    let tuner = kind.tuner;
    let cannot = |e: bincode::error::EncodeError| format!("cannot encode the {tuner}session: {e}");
    let mut payload =
        bincode::serde::encode_to_vec(value, bincode::config::standard()).map_err(cannot)?;
    if let Some(t) = tail {
        payload
            .extend(bincode::serde::encode_to_vec(t, bincode::config::standard()).map_err(cannot)?);
    }
    if payload.len() > MAX_CHECKPOINT_PAYLOAD {
        return Err(format!(
            "the {tuner}session takes {} bytes, more than a checkpoint holds ({} MiB)",
            payload.len(),
            MAX_CHECKPOINT_PAYLOAD >> 20
        ));
    }
    Ok(encode_frame(kind.magic, version, &payload))
}

/// The format version and payload of framed bytes of `kind`, every check of the frame passed.
pub fn decode_frame<'a>(bytes: &'a [u8], kind: &FrameKind) -> Result<(u32, &'a [u8]), FrameError> {
    if bytes.is_empty() {
        return Err(FrameError::Empty);
    }
    if !bytes.starts_with(kind.magic) {
        return Err(FrameError::WrongMagic { noun: kind.noun });
    }
    if bytes.len() < HEADER_LEN {
        return Err(FrameError::TruncatedHeader);
    }
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    let tuner = kind.tuner;
    if version > kind.newest {
        return Err(FrameError::Newer {
            tuner,
            version,
            newest: kind.newest,
        });
    }
    if version == 0 {
        return Err(FrameError::Unknown { tuner, version });
    }
    let (len, sum) = (word(12), word(20));
    let payload = &bytes[HEADER_LEN..];
    if (payload.len() as u64) < len {
        return Err(FrameError::Truncated {
            have: payload.len(),
            len,
        });
    }
    if payload.len() as u64 != len {
        return Err(FrameError::Trailing);
    }
    if payload.len() > MAX_CHECKPOINT_PAYLOAD {
        return Err(FrameError::TooLarge(payload.len()));
    }
    if fnv(FNV_START, payload) != sum {
        return Err(FrameError::Checksum);
    }
    Ok((version, payload))
}

/// A value decoded from a frame's payload with the bounded configuration, and the bytes it took
/// (the caller refuses a payload with bytes left over).
pub fn decode_payload<T: DeserializeOwned>(
    payload: &[u8],
) -> Result<(T, usize), bincode::error::DecodeError> {
    bincode::serde::decode_from_slice(payload, decode_config())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: FrameKind = FrameKind {
        magic: b"CKGATEST",
        writes: 3,
        newest: 3,
        noun: "a test file",
        tuner: "TEST ",
    };

    fn framed() -> Vec<u8> {
        encode_frame(KIND.magic, 3, b"abc")
    }

    fn error(bytes: &[u8]) -> String {
        let e = decode_frame(bytes, &KIND).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    }

    #[test]
    fn the_header_is_magic_version_length_and_checksum() {
        let mut want = b"CKGATEST".to_vec();
        want.extend_from_slice(&[3, 0, 0, 0]);
        want.extend_from_slice(&[3, 0, 0, 0, 0, 0, 0, 0]);
        // FNV-1a 64 of "abc": 0xe71fa2190541574b, little-endian.
        want.extend_from_slice(&[0x4b, 0x57, 0x41, 0x05, 0x19, 0xa2, 0x1f, 0xe7]);
        want.extend_from_slice(b"abc");
        assert_eq!(framed(), want);
        assert_eq!(HEADER_LEN, 28);
    }

    #[test]
    fn a_frame_reads_back_at_every_version_it_knows() {
        for version in 1..=3 {
            let bytes = encode_frame(KIND.magic, version, b"payload");
            assert_eq!(decode_frame(&bytes, &KIND), Ok((version, &b"payload"[..])));
        }
        let empty = encode_frame(KIND.magic, 1, b"");
        assert_eq!(decode_frame(&empty, &KIND), Ok((1, &b""[..])));
    }

    #[test]
    fn a_value_reads_back_and_a_payload_with_bytes_left_says_so() {
        let value = ("name".to_string(), vec![1.5f64, -2.0], Some(7u64));
        let bytes = encode_value(&KIND, &value).unwrap();
        let (version, payload) = decode_frame(&bytes, &KIND).unwrap();
        assert_eq!(version, 3);
        let (back, used) = decode_payload::<(String, Vec<f64>, Option<u64>)>(payload).unwrap();
        assert_eq!((back, used), (value, payload.len()));
        let (_, used) = decode_payload::<String>(payload).unwrap();
        assert!(used < payload.len());
    }

    #[test]
    fn each_damage_is_its_own_one_line_error() {
        let good = framed();
        assert_eq!(error(b""), "the file is empty");
        let mut magic = good.clone();
        magic[7] = b'X';
        assert_eq!(error(&magic), "not a test file: wrong magic");
        assert_eq!(error(b"CKGA"), "not a test file: wrong magic");
        assert_eq!(error(&good[..20]), "truncated header");
        assert_eq!(error(KIND.magic), "truncated header");
        let mut newer = good.clone();
        newer[8] = 4;
        assert_eq!(
            error(&newer),
            "TEST format version 4 is newer than this build reads (3); upgrade checkers-ga"
        );
        let mut zero = good.clone();
        zero[8] = 0;
        assert_eq!(error(&zero), "unknown TEST format version 0");
        assert_eq!(
            error(&good[..good.len() - 1]),
            "truncated: 2 of 3 payload bytes"
        );
        let mut long = good.clone();
        long[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(
            error(&long),
            format!("truncated: 3 of {} payload bytes", u64::MAX)
        );
        let mut trailing = good.clone();
        trailing.push(0);
        assert_eq!(error(&trailing), "trailing bytes after the payload");
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(error(&flipped), "checksum mismatch: the file is corrupted");
        let mut sum = good.clone();
        sum[20] ^= 1;
        assert_eq!(error(&sum), "checksum mismatch: the file is corrupted");
        let huge = encode_frame(KIND.magic, 1, &vec![0; MAX_CHECKPOINT_PAYLOAD + 1]);
        assert_eq!(
            error(&huge),
            format!(
                "a payload of {} bytes is larger than any checkpoint (8 MiB)",
                MAX_CHECKPOINT_PAYLOAD + 1
            )
        );
    }

    #[test]
    fn a_value_too_large_for_a_checkpoint_is_refused_when_written() {
        let e = encode_value(&KIND, &vec![0u8; MAX_CHECKPOINT_PAYLOAD]).unwrap_err();
        assert!(
            e.starts_with("the TEST session takes ") && e.ends_with("(8 MiB)"),
            "{e}"
        );
    }
}
