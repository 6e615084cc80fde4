//! Numeric kernels where the time goes: the row softmax of attention.
//!
//! nalgebra stores matrices by columns, and attention's softmax runs along rows, so the kernel
//! sweeps whole columns and keeps one running maximum and one running sum per row: three
//! passes over memory, each a simple loop over contiguous data that the compiler vectorises,
//! split by columns over the available threads for large matrices. The exponential is a
//! branch-free one for arguments ≤ 0 (which is all softmax needs after subtracting the row
//! maximum), accurate to a few units in the last place; `-∞` gives exactly 0.

/// Matrices with at least this many entries are split over threads.
const PARALLEL_MIN: usize = 1 << 15;

/// How many threads the kernels use: the machine's parallelism, or `EQMAP_THREADS`.
pub fn thread_count() -> usize {
    std::env::var("EQMAP_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|n| *n >= 1)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(64)
}

/// `e^x` for `x ≤ 0` (and NaN): round-to-nearest range reduction by ln 2, a degree-13
/// polynomial on |r| ≤ ln 2 / 2, and the power of two built in the exponent bits. Below
/// −708 the result is 0 (the true value is under 1e-307); NaN stays NaN.
#[inline(always)]
pub fn exp_nonpositive(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    const SHIFTER: f64 = 6_755_399_441_055_744.0; // 1.5 · 2^52: adding it rounds to an integer
    let clamped = if x < -708.0 { -708.0 } else { x };
    let t = clamped * LOG2E + SHIFTER;
    let k = t - SHIFTER;
    let r = (clamped - k * LN2_HI) - k * LN2_LO;
    let mut p = 1.0 / 6_227_020_800.0;
    for c in [
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ] {
        p = p * r + c;
    }
    let k_bits = t.to_bits().wrapping_sub(SHIFTER.to_bits());
    let scale = f64::from_bits(k_bits.wrapping_add(1023) << 52);
    if x < -708.0 {
        0.0
    } else {
        p * scale
    }
}

/// Softmax along each row of a column-major `rows × cols` matrix stored in `data`.
pub fn softmax_rows(data: &mut [f64], rows: usize, cols: usize) {
    softmax_rows_scaled(data, rows, cols, 1.0);
}

/// Softmax along each row of `scale · data` (`scale` > 0), without a separate pass for the
/// scaling: `softmax(QK^\top / \sqrt{d_k})` reads the scores once less.
pub fn softmax_rows_scaled(data: &mut [f64], rows: usize, cols: usize, scale: f64) {
    let sums = exp_rows(data, rows, cols, scale);
    scale_rows(data, rows, cols, &sums);
}

/// The unnormalised softmax: replaces each entry by `e^(scale · (x − max of its row))` and
/// returns the row sums. `softmax(S)V` can then divide the rows of `E V` (n × d) instead of
/// those of E (n × n).
pub fn exp_rows(data: &mut [f64], rows: usize, cols: usize, scale: f64) -> Vec<f64> {
    if rows == 0 || cols == 0 || data.len() != rows * cols {
        return vec![f64::NAN; rows];
    }
    let chunk = chunk_len(rows, cols);
    let mut maxes = vec![f64::NEG_INFINITY; rows];
    for part in in_parallel(data, chunk, |c| row_max(c, rows)) {
        for (m, x) in maxes.iter_mut().zip(part) {
            if x > *m {
                *m = x;
            }
        }
    }
    let mut sums = vec![0.0; rows];
    for part in in_parallel(data, chunk, |c| exp_and_sum(c, &maxes, scale)) {
        for (s, x) in sums.iter_mut().zip(part) {
            *s += x;
        }
    }
    sums
}

/// Divides each row of a column-major `rows × cols` matrix by its entry of `sums`.
pub fn scale_rows(data: &mut [f64], rows: usize, cols: usize, sums: &[f64]) {
    if rows == 0 || cols == 0 || data.len() != rows * cols || sums.len() != rows {
        return;
    }
    let inverse: Vec<f64> = sums.iter().map(|s| 1.0 / s).collect();
    in_parallel(data, chunk_len(rows, cols), |c| {
        for column in c.chunks_exact_mut(rows) {
            for (x, inv) in column.iter_mut().zip(&inverse) {
                *x *= inv;
            }
        }
        Vec::new()
    });
}

/// Entries per thread: whole columns, split over the threads for large matrices.
fn chunk_len(rows: usize, cols: usize) -> usize {
    let threads = if rows * cols >= PARALLEL_MIN { thread_count().min(cols) } else { 1 };
    cols.div_ceil(threads.max(1)) * rows
}

/// Runs `f` on chunks of `data` of `chunk` entries, one thread per chunk when there are
/// several, and returns their results in order.
fn in_parallel<F>(data: &mut [f64], chunk: usize, f: F) -> Vec<Vec<f64>>
where
    F: Fn(&mut [f64]) -> Vec<f64> + Sync,
{
    let chunk = chunk.max(1);
    if data.len() <= chunk {
        return vec![f(data)];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = data.chunks_mut(chunk).map(|c| scope.spawn(|| f(c))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// The maximum of each row over the columns of `chunk`; NaN never wins.
fn row_max(chunk: &mut [f64], rows: usize) -> Vec<f64> {
    let mut maxes = vec![f64::NEG_INFINITY; rows];
    for column in chunk.chunks_exact(rows) {
        for (m, x) in maxes.iter_mut().zip(column) {
            if *x > *m {
                *m = *x;
            }
        }
    }
    maxes
}

/// Replaces each entry by `e^(scale · (x − max of its row))` and returns the row sums of
/// `chunk`, with the widest vector instructions the processor has (the arithmetic, and so the
/// result, is the same on every path: Rust never fuses a multiply and an add by itself).
fn exp_and_sum(chunk: &mut [f64], maxes: &[f64], scale: f64) -> Vec<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the processor supports AVX-512F, checked just above.
            return unsafe { exp_and_sum_avx512(chunk, maxes, scale) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2, checked just above.
            return unsafe { exp_and_sum_avx2(chunk, maxes, scale) };
        }
    }
    exp_and_sum_plain(chunk, maxes, scale)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn exp_and_sum_avx512(chunk: &mut [f64], maxes: &[f64], scale: f64) -> Vec<f64> {
    exp_and_sum_plain(chunk, maxes, scale)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn exp_and_sum_avx2(chunk: &mut [f64], maxes: &[f64], scale: f64) -> Vec<f64> {
    exp_and_sum_plain(chunk, maxes, scale)
}

#[inline(always)]
fn exp_and_sum_plain(chunk: &mut [f64], maxes: &[f64], scale: f64) -> Vec<f64> {
    let rows = maxes.len();
    let mut sums = vec![0.0; rows];
    for column in chunk.chunks_exact_mut(rows) {
        for ((x, m), s) in column.iter_mut().zip(maxes).zip(sums.iter_mut()) {
            let e = exp_nonpositive((*x - *m) * scale);
            *x = e;
            *s += e;
        }
    }
    sums
}
