//! `softmax(c · A B) V` as one operation of the tape, the way `eval` computes it (the
//! exponentials times V, each row of the product then divided by its sum), and its backward
//! pass over blocks of rows.
//!
//! The tape keeps the n × m exponentials E and their row sums s, and nothing else of size
//! n × m: neither the scores A B nor the weights P = E / s (which would be a second n × m
//! matrix, and a pass over it). With G the gradient of the output O:
//!
//! - ∂L/∂V = Pᵀ G = Eᵀ (G / s), the rows of G divided by s first (n × d, not n × m);
//! - ∂L/∂S = c · P ⊙ (G Vᵀ − D), with D_i = Σ_j P_ij (G Vᵀ)_ij = G_i · O_i (the row's
//!   weights times V is the output's row), so no pass over a whole n × m matrix is needed to
//!   know D;
//! - ∂L/∂A = (∂L/∂S) Bᵀ and ∂L/∂B = Aᵀ (∂L/∂S), taken block by block: a block of rows of
//!   ∂L/∂S is made in one scratch buffer of [`BLOCK_ELEMENTS`] entries, used for its rows of
//!   ∂L/∂A and added into ∂L/∂B, and overwritten by the next block. The backward pass never
//!   holds ∂L/∂P or ∂L/∂S whole (the memory the tape counts for it is the scratch).
//!
//! The backward pass's products go to the `matrixmultiply` kernel (which nalgebra's products
//! use too; threads: `MATMUL_NUM_THREADS`, else the machine's physical cores, at most 4) with
//! each operand's strides: a transposed operand, or a block of rows, is read where it lies,
//! never copied.

use super::super::kernels;
use super::tape::NodeId;
use nalgebra::DMatrix;

/// Entries of the backward pass's scratch: a block of rows of ∂L/∂S (2 MiB of `f64`, so
/// that a block stays in the caches between its product and its use).
pub const BLOCK_ELEMENTS: usize = 1 << 18;

/// `softmax(scale · (a b)) v` on the tape: its operands and what the forward pass kept.
#[derive(Debug, Clone, PartialEq)]
pub struct SoftmaxProduct {
    /// A (n × k).
    pub a: NodeId,
    /// B (k × m).
    pub b: NodeId,
    /// V (m × d).
    pub v: NodeId,
    /// The positive number the scores are multiplied by (1 / √d_k).
    pub scale: f64,
    /// E: `e^(scale · (S − the row's maximum))`, n × m, not normalised.
    pub exps: DMatrix<f64>,
    /// The row sums of E.
    pub sums: Vec<f64>,
}

/// The rows of a block of ∂L/∂S for a row length of `m`: at least one, at most `n`.
pub fn block_rows(n: usize, m: usize) -> usize {
    (BLOCK_ELEMENTS / m.max(1)).clamp(1, n.max(1))
}

/// Elements the backward pass allocates beside the gradients of A, B and V, which the tape
/// counts as theirs: the scratch block, G / s and c · G / s (n × d each), and D.
pub fn backward_elements(n: usize, m: usize, d: usize) -> u128 {
    let block = (block_rows(n, m) as u128).saturating_mul(m as u128);
    block.saturating_add((n as u128).saturating_mul(d as u128).saturating_mul(2)).saturating_add(n as u128)
}

/// The forward pass: the output O (n × d), the exponentials E and their row sums, computed
/// as `eval` computes `softmax(scale · S) V` (the same kernels in the same order, so the
/// same bits).
pub fn forward(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    v: &DMatrix<f64>,
    scale: f64,
) -> (DMatrix<f64>, DMatrix<f64>, Vec<f64>) {
    let mut exps = a * b;
    let (r, c) = exps.shape();
    let sums = kernels::exp_rows(exps.as_mut_slice(), r, c, scale);
    let mut out = &exps * v;
    let (r, c) = out.shape();
    kernels::scale_rows(out.as_mut_slice(), r, c, &sums);
    (out, exps, sums)
}

/// The gradients asked for (`wanted`: of A, of B, of V), from the output's gradient `g`.
pub struct Gradients {
    /// ∂L/∂A.
    pub a: Option<DMatrix<f64>>,
    /// ∂L/∂B.
    pub b: Option<DMatrix<f64>>,
    /// ∂L/∂V.
    pub v: Option<DMatrix<f64>>,
}

/// An operand of [`gemm`]: `rows × cols` entries of `data`, entry (i, j) at
/// `i · row_stride + j · col_stride`.
#[derive(Clone, Copy)]
struct Strided<'d> {
    data: &'d [f64],
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
}

impl<'d> Strided<'d> {
    /// A column-major matrix (or the block of its rows from `start`, `count` of them).
    fn rows_of(m: &'d DMatrix<f64>, start: usize, count: usize) -> Option<Self> {
        let data = m.as_slice().get(start..)?;
        Some(Strided { data, rows: count, cols: m.ncols(), row_stride: 1, col_stride: m.nrows() })
    }

    /// The same entries read as the transpose: no copy.
    fn t(self) -> Self {
        Strided {
            rows: self.cols,
            cols: self.rows,
            row_stride: self.col_stride,
            col_stride: self.row_stride,
            ..self
        }
    }

    /// Whether every entry lies within the data.
    fn inside(&self) -> bool {
        let last = self.rows.saturating_sub(1).checked_mul(self.row_stride).and_then(|r| {
            self.cols.saturating_sub(1).checked_mul(self.col_stride).and_then(|c| r.checked_add(c))
        });
        self.rows == 0 || self.cols == 0 || last.is_some_and(|l| l < self.data.len())
    }
}

/// `c = alpha · a b + beta · c` for the first `rows` rows of the column-major `c` (its rows
/// apart by `c_stride`), through the `matrixmultiply` kernel with the operands' strides;
/// `None` when the shapes do not fit or an operand does not lie within its data. (nalgebra's
/// own `gemm` reads a view whose rows are apart past its end when a dimension is below 6.)
fn gemm(alpha: f64, a: Strided<'_>, b: Strided<'_>, beta: f64, c: &mut [f64], c_stride: usize) -> Option<()> {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    let c_fits =
        m <= c_stride && (m == 0 || n == 0 || (n - 1).checked_mul(c_stride)?.checked_add(m)? <= c.len());
    if b.rows != k || !a.inside() || !b.inside() || !c_fits {
        return None;
    }
    let stride = |s: usize| isize::try_from(s).ok();
    let (rsa, csa, rsb, csb) =
        (stride(a.row_stride)?, stride(a.col_stride)?, stride(b.row_stride)?, stride(b.col_stride)?);
    let csc = stride(c_stride)?;
    // SAFETY: every entry the kernel reads of a and b lies within their slices (`inside`),
    // every entry it writes of c — (i, j) at i + j · c_stride, i < m ≤ c_stride, j < n — lies
    // within c's, which is borrowed mutably and so overlaps neither.
    unsafe {
        matrixmultiply::dgemm(
            m,
            k,
            n,
            alpha,
            a.data.as_ptr(),
            rsa,
            csa,
            b.data.as_ptr(),
            rsb,
            csb,
            beta,
            c.as_mut_ptr(),
            1,
            csc,
        );
    }
    Some(())
}

/// The backward pass of [`SoftmaxProduct`] (`out` is the forward pass's O), `None` when the
/// shapes do not fit (which the recorder never makes).
pub fn backward(
    f: &SoftmaxProduct,
    (a, b, v): (&DMatrix<f64>, &DMatrix<f64>, &DMatrix<f64>),
    out: &DMatrix<f64>,
    g: &DMatrix<f64>,
    wanted: (bool, bool, bool),
) -> Option<Gradients> {
    let (n, m) = f.exps.shape();
    let (k, d) = (a.ncols(), v.ncols());
    let fits = a.nrows() == n
        && b.shape() == (k, m)
        && v.nrows() == m
        && out.shape() == (n, d)
        && g.shape() == (n, d)
        && f.sums.len() == n;
    if !fits {
        return None;
    }
    let exps = Strided::rows_of(&f.exps, 0, n)?;
    let mut weighted = g.clone();
    kernels::scale_rows(weighted.as_mut_slice(), n, d, &f.sums);
    let grad_v = match wanted.2 {
        true => {
            let mut grad = DMatrix::zeros(m, d);
            gemm(1.0, exps.t(), Strided::rows_of(&weighted, 0, n)?, 0.0, grad.as_mut_slice(), m)?;
            Some(grad)
        }
        false => None,
    };
    if !(wanted.0 || wanted.1) {
        return Some(Gradients { a: None, b: None, v: grad_v });
    }
    // c · D_i / s_i, and c · G / s: then ∂L/∂S = E ⊙ (c G/s Vᵀ − c D/s), one pass a block.
    let mut inner = vec![0.0; n];
    for (column_g, column_o) in g.as_slice().chunks_exact(n).zip(out.as_slice().chunks_exact(n)) {
        for ((x, y), acc) in column_g.iter().zip(column_o).zip(inner.iter_mut()) {
            *acc += x * y;
        }
    }
    for (acc, s) in inner.iter_mut().zip(&f.sums) {
        *acc *= f.scale / s;
    }
    weighted *= f.scale;
    let mut grad_a = wanted.0.then(|| DMatrix::zeros(n, k));
    let mut grad_b = wanted.1.then(|| DMatrix::zeros(k, m));
    let rows = block_rows(n, m);
    let mut scratch = vec![0.0; rows * m];
    let (v_t, b_t) = (Strided::rows_of(v, 0, m)?.t(), Strided::rows_of(b, 0, k)?.t());
    let mut start = 0;
    while start < n {
        let count = rows.min(n - start);
        gemm(1.0, Strided::rows_of(&weighted, start, count)?, v_t, 0.0, &mut scratch, rows)?;
        let inner_block = inner.get(start..start + count)?;
        for (column, e) in scratch.chunks_exact_mut(rows).zip(f.exps.as_slice().chunks_exact(n)) {
            let (column, e) = (column.get_mut(..count)?, e.get(start..start + count)?);
            for ((x, y), dd) in column.iter_mut().zip(e).zip(inner_block) {
                *x = y * (*x - dd);
            }
        }
        let block = Strided { data: &scratch, rows: count, cols: m, row_stride: 1, col_stride: rows };
        if let Some(grad_a) = grad_a.as_mut() {
            gemm(1.0, block, b_t, 0.0, grad_a.as_mut_slice().get_mut(start..)?, n)?;
        }
        if let Some(grad_b) = grad_b.as_mut() {
            gemm(1.0, Strided::rows_of(a, start, count)?.t(), block, 1.0, grad_b.as_mut_slice(), k)?;
        }
        start += count;
    }
    Some(Gradients { a: grad_a, b: grad_b, v: grad_v })
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn matrix(r: usize, c: usize, seed: u64) -> DMatrix<f64> {
        let mut x = seed;
        DMatrix::from_fn(r, c, |_, _| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
    }

    /// The gradients of softmax(c · A B) V from the weights, written out plainly.
    fn plain(
        a: &DMatrix<f64>,
        b: &DMatrix<f64>,
        v: &DMatrix<f64>,
        c: f64,
        g: &DMatrix<f64>,
    ) -> [DMatrix<f64>; 3] {
        let s = a * b * c;
        let mut p = s.clone();
        for mut row in p.row_iter_mut() {
            let max = row.max();
            row.apply(|x| *x = (*x - max).exp());
            let total = row.sum();
            row /= total;
        }
        let dp = g * v.transpose();
        let mut ds = p.component_mul(&dp);
        let inner: Vec<f64> = ds.row_iter().map(|r| r.sum()).collect();
        for (i, mut row) in ds.row_iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x -= p[(i, j)] * inner[i];
            }
        }
        ds *= c;
        [&ds * b.transpose(), a.transpose() * &ds, p.transpose() * g]
    }

    #[test]
    fn blocks_give_the_gradients_of_the_weights() {
        for (n, k, m, d) in [(3, 2, 4, 3), (6, 4, 7, 5), (70, 9, 65, 7), (600, 8, 500, 3)] {
            let (a, b, v, g) = (matrix(n, k, 1), matrix(k, m, 2), matrix(m, d, 3), matrix(n, d, 4));
            let c = 0.7;
            let (out, exps, sums) = forward(&a, &b, &v, c);
            let f = SoftmaxProduct { a: 0, b: 1, v: 2, scale: c, exps, sums };
            let grads = backward(&f, (&a, &b, &v), &out, &g, (true, true, true)).expect("shapes fit");
            let [da, db, dv] = plain(&a, &b, &v, c, &g);
            for (ours, theirs) in [(grads.a, da), (grads.b, db), (grads.v, dv)] {
                let ours = ours.expect("asked for");
                let scale = theirs.amax().max(1.0);
                assert!((&ours - &theirs).amax() / scale < 1e-12, "{n}×{k}×{m}×{d}: {ours} against {theirs}");
            }
        }
    }
}
