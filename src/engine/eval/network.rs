//! The network of the `net66` sets over the 66 values, its dot products by SSE2 (part of
//! x86-64) or, when the CPU has it, AVX2 ([`Simd`], detected once by whoever evaluates many
//! positions); integer arithmetic, so the value is the same either way.

use super::features::{all_trace, FeatureVector};
use super::names::NUM_ALL;
use super::weights::MAX_WEIGHTS;
use crate::board::{Color, Position};

/// The network's inputs (the 66 values) are clamped to `-NET_INPUT_CLAMP..=NET_INPUT_CLAMP`, so
/// a hidden unit's sum stays within an `i32` (66 * 511 * 32768 + 32768 < 2^31); real positions
/// stay far inside it (only the capture counts of artificial positions reach it).
pub const NET_INPUT_CLAMP: i32 = 511;
/// A hidden unit's sum is shifted right by this many bits (divided by 256, rounding down) before
/// the clipped activation.
pub const NET_SHIFT: u32 = 8;
/// A hidden unit's activation is clamped to `0..=NET_ACT_MAX` (a clipped ReLU).
pub const NET_ACT_MAX: i32 = 127;

/// The network's input vector length: the 66 values and zeros to a multiple of 8.
const NET_INPUTS: usize = NUM_ALL.next_multiple_of(8);

/// The network's output for the inputs `x` (the 66 values, clamped) with `hidden` units whose
/// weights follow the 66 linear weights in `w`: the sum over the units of the output weight
/// times `clamp((bias + sum of input weight * input) >> NET_SHIFT, 0, NET_ACT_MAX)`.
///
/// Each unit is a dot product of 66 `i16` pairs into an `i32` (no overflow: the inputs are at
/// most [`NET_INPUT_CLAMP`] in magnitude); the output, at most 32 * 127 * 32768 in magnitude,
/// fits an `i32` too.
#[inline]
#[allow(dead_code)] // the network's output by itself, as the docs define it
pub fn net_output(w: &[i16], hidden: usize, x: &[i16; NET_INPUTS]) -> i32 {
    net_output_with(w, hidden, x, dot66)
}

/// [`net_output`] with the dot product `dot` (the same value by any instruction set).
#[inline(always)]
fn net_output_with(
    w: &[i16],
    hidden: usize,
    x: &[i16; NET_INPUTS],
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i32 {
    let outs = NUM_ALL + hidden * (NUM_ALL + 1);
    let mut out = 0i32;
    for j in 0..hidden {
        let unit = &w[NUM_ALL + j * (NUM_ALL + 1)..][..NUM_ALL + 1];
        let d = dot(unit[..NUM_ALL].try_into().expect("66 weights"), x);
        let act = ((d + unit[NUM_ALL] as i32) >> NET_SHIFT).clamp(0, NET_ACT_MAX);
        out += act * w[outs + j] as i32;
    }
    out
}

/// The instructions the network's dot products run on: AVX2 (16 pairs an instruction) when the
/// CPU has it, else the baseline (SSE2 on x86-64, 8 pairs an instruction; plain code elsewhere).
///
/// Detected once by whoever evaluates many positions (a searcher, when it is made) and passed to
/// [`evaluate_with`](super::evaluate_with), so a leaf does not ask the CPU again. Only
/// [`Simd::detect`] can choose AVX2, so a value never claims an instruction set the CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    avx2: bool,
}

impl Simd {
    /// The best instructions this CPU has.
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            Simd {
                avx2: std::arch::is_x86_feature_detected!("avx2"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Simd::baseline()
    }

    /// The baseline instructions, whatever the CPU has (the same values, more slowly).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))] // there, only the tests use it
    pub const fn baseline() -> Simd {
        Simd { avx2: false }
    }

    /// Whether the dot products use AVX2.
    #[allow(dead_code)] // for a caller that reports which instructions run
    pub const fn avx2(self) -> bool {
        self.avx2
    }
}

/// The network set's evaluation before saturation: the weighted sum of the 66 values plus
/// [`net_output`] over them, the dot products by `simd`.
#[inline]
pub(super) fn net_sum(
    pos: &Position,
    player: Color,
    w: &[i16; MAX_WEIGHTS],
    hidden: usize,
    simd: Simd,
) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if simd.avx2 {
            // SAFETY: only `Simd::detect` sets `avx2`, when the CPU has AVX2, the only feature
            // the function enables.
            return unsafe { net_sum_avx2(pos, player, w, hidden) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = simd;
    net_sum_with(pos, player, w, hidden, dot66)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn net_sum_avx2(pos: &Position, player: Color, w: &[i16; MAX_WEIGHTS], hidden: usize) -> i64 {
    // The closure inherits the function's AVX2, so it may call the AVX2 dot product.
    net_sum_with(pos, player, w, hidden, |a, b| dot66_avx2(a, b))
}

/// [`net_sum`] with the dot product `dot`.
#[inline(always)]
fn net_sum_with(
    pos: &Position,
    player: Color,
    w: &[i16; MAX_WEIGHTS],
    hidden: usize,
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i64 {
    let mut f = FeatureVector([0i32; NUM_ALL]);
    all_trace(pos, player, &mut f);
    net_value(&f.0, w, hidden, dot)
}

/// The network set's value of the 66 values `f`. They become the network's inputs (clamped);
/// when none needed the clamp (every real position: the values are counts and distances of at
/// most a few hundred), the weighted sum is one more dot product of `i16` pairs, which cannot
/// overflow an `i32` (66 * 511 * 32768 < 2^31); otherwise it is summed in `i64`.
#[inline(always)]
fn net_value(
    f: &[i32; NUM_ALL],
    w: &[i16; MAX_WEIGHTS],
    hidden: usize,
    dot: impl Fn(&[i16; NUM_ALL], &[i16; NET_INPUTS]) -> i32,
) -> i64 {
    let mut x = [0i16; NET_INPUTS];
    let mut clamped = false;
    for (xi, &v) in x.iter_mut().zip(f) {
        clamped |= v.unsigned_abs() > NET_INPUT_CLAMP as u32;
        *xi = v.clamp(-NET_INPUT_CLAMP, NET_INPUT_CLAMP) as i16;
    }
    let linear: &[i16; NUM_ALL] = w[..NUM_ALL].try_into().expect("66 weights");
    let sum = if clamped {
        f.iter()
            .zip(linear)
            .map(|(&v, &w)| v as i64 * w as i64)
            .sum()
    } else {
        dot(linear, &x) as i64
    };
    sum + net_output_with(w, hidden, &x, dot) as i64
}

/// The dot product of a unit's 66 input weights with the 66 inputs (the padding of `x` unused).
#[inline(always)]
fn dot66(w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; the loads are unaligned loads of 8 i16 inside the
        // 66 (at offsets 0..64) of both arrays.
        unsafe {
            let mut acc = _mm_setzero_si128();
            for k in 0..NUM_ALL / 8 {
                let a = _mm_loadu_si128(w.as_ptr().add(8 * k) as *const __m128i);
                let b = _mm_loadu_si128(x.as_ptr().add(8 * k) as *const __m128i);
                // Products of i16 pairs, adjacent ones added: 4 i32 lanes.
                acc = _mm_add_epi32(acc, _mm_madd_epi16(a, b));
            }
            hsum_tail(acc, w, x)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        w.iter().zip(x).map(|(&a, &b)| a as i32 * b as i32).sum()
    }
}

/// [`dot66`] by AVX2: 16 pairs an instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn dot66_avx2(w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    use std::arch::x86_64::*;
    // SAFETY: unaligned loads of 16 i16 inside the 66 (at offsets 0..64) of both arrays.
    unsafe {
        let mut acc = _mm256_setzero_si256();
        for k in 0..NUM_ALL / 16 {
            let a = _mm256_loadu_si256(w.as_ptr().add(16 * k) as *const __m256i);
            let b = _mm256_loadu_si256(x.as_ptr().add(16 * k) as *const __m256i);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        hsum_tail(half, w, x)
    }
}

/// The sum of the 4 lanes of `acc`, plus the products of the pairs past the last multiple of 16
/// (the 64th and 65th).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn hsum_tail(acc: std::arch::x86_64::__m128i, w: &[i16; NUM_ALL], x: &[i16; NET_INPUTS]) -> i32 {
    use std::arch::x86_64::*;
    const { assert!(NUM_ALL / 16 * 16 == NUM_ALL / 8 * 8) };
    // SAFETY: SSE2 is part of x86-64.
    let s = unsafe {
        let s = _mm_add_epi32(acc, _mm_shuffle_epi32::<0b01_00_11_10>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    };
    let tail: i32 = (NUM_ALL / 8 * 8..NUM_ALL)
        .map(|i| w[i] as i32 * x[i] as i32)
        .sum();
    s + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{ParamSet, Weights};
    use rand::RngExt;
    use rand::SeedableRng;

    /// The network set's value written plainly: every product in `i64`.
    fn plain_net_value(f: &[i32; NUM_ALL], w: &[i16], hidden: usize) -> i64 {
        let x = f.map(|v| v.clamp(-NET_INPUT_CLAMP, NET_INPUT_CLAMP) as i64);
        let mut sum: i64 = f.iter().zip(w).map(|(&v, &w)| v as i64 * w as i64).sum();
        for j in 0..hidden {
            let unit = &w[NUM_ALL + j * (NUM_ALL + 1)..][..NUM_ALL + 1];
            let s: i64 = x.iter().zip(unit).map(|(&a, &b)| a * b as i64).sum();
            let act = ((s + unit[NUM_ALL] as i64) >> NET_SHIFT).clamp(0, NET_ACT_MAX as i64);
            sum += act * w[NUM_ALL + hidden * (NUM_ALL + 1) + j] as i64;
        }
        sum
    }

    #[test]
    fn the_network_value_is_the_plain_sum_by_every_dot_product() {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for k in 0..3000 {
            let hidden = [1, 8, 32][k % 3];
            let w = Weights::random_of(ParamSet::Net66(hidden as u8), &mut r);
            // Values as in play, at the clamp's edges, and far beyond it (the i64 path).
            let bound = [600, 512, 100_000][k / 3 % 3];
            let f: [i32; NUM_ALL] = std::array::from_fn(|_| r.random_range(-bound..=bound));
            let want = plain_net_value(&f, w.values(), hidden);
            assert_eq!(net_value(&f, &w.w, hidden, dot66), want, "{k}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                let avx2 = |a: &[i16; NUM_ALL], b: &[i16; NET_INPUTS]| unsafe { dot66_avx2(a, b) };
                assert_eq!(net_value(&f, &w.w, hidden, avx2), want, "{k}");
            }
        }
    }
}
