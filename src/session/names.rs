//! A new session's name when none is given: two words drawn from its seed ([`default_name`]).

use crate::store;
use std::path::Path;

/// A short, memorable session name drawn from the seed (`amber-otter`), with `-2`, `-3`, ...
/// when a folder of that name exists under `populations`.
pub fn default_name(seed: u64, populations: &Path) -> String {
    const FIRST: [&str; 32] = [
        "amber", "brave", "calm", "clever", "crisp", "dapper", "eager", "fair", "gentle", "glad",
        "golden", "grand", "happy", "jolly", "keen", "kind", "lively", "lucky", "merry", "mild",
        "noble", "proud", "quick", "quiet", "rapid", "royal", "shiny", "swift", "tidy", "vivid",
        "warm", "witty",
    ];
    const SECOND: [&str; 32] = [
        "badger", "bear", "beaver", "bison", "crane", "deer", "dove", "eagle", "falcon", "ferret",
        "finch", "fox", "gecko", "hare", "heron", "ibis", "koala", "lark", "lemur", "lynx",
        "marten", "moose", "newt", "otter", "owl", "panda", "puffin", "raven", "robin", "seal",
        "stoat", "wren",
    ];
    let mut rng = crate::rng::derive(seed, crate::rng::Purpose::Initial, u64::MAX - 1, 0);
    use rand::RngExt;
    let base = format!(
        "{}-{}",
        FIRST[rng.random_range(0..FIRST.len())],
        SECOND[rng.random_range(0..SECOND.len())]
    );
    (1..)
        .map(|k| match k {
            1 => base.clone(),
            k => format!("{base}-{k}"),
        })
        .find(|n| !store::session_dir(populations, n).exists())
        .unwrap_or(base)
}
