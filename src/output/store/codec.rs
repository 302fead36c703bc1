//! What checkpoints and the history file share: the bincode configuration with its size limit,
//! the FNV-1a checksum, and the link from a checkpoint to its part of the history file.

/// The largest payload a checkpoint may have: above any session of the network sets at the
/// defaults' sizes (a population of 1024 of `net66:8` takes about 3.2 MB, a full replay about
/// 4 MB), and small enough that decoding any payload allocates well under 100 MB. Settings
/// whose checkpoints could outgrow it (a `board:32` population above about 120 with a
/// replay, above about 300 without) are refused when a session starts or resumes
/// ([`super::check_checkpoint_size`]).
pub const MAX_CHECKPOINT_PAYLOAD: usize = 8 << 20;
/// The bincode configuration of checkpoint payloads and history records: the standard one,
/// with a byte limit so that no length field can make the decoder allocate beyond it.
pub(super) fn decode_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_CHECKPOINT_PAYLOAD>()
}

/// FNV-1a, 64 bits, continued from `state` (start with [`FNV_START`]): any change of a single
/// byte changes it.
pub(crate) fn fnv(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The FNV-1a offset basis.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The part of a history file a checkpoint goes with: its first `len` bytes, whose FNV-1a
/// checksum is `sum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryLink {
    /// Length of the history file's prefix, in bytes.
    pub len: u64,
    /// FNV-1a checksum of those bytes.
    pub sum: u64,
}

impl HistoryLink {
    /// The link to all of `bytes`.
    pub fn of(bytes: &[u8]) -> HistoryLink {
        HistoryLink {
            len: bytes.len() as u64,
            sum: fnv(FNV_START, bytes),
        }
    }
}
