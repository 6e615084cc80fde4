//! Reproducible standard normal samples: xoshiro256** seeded by SplitMix64, and the Marsaglia
//! polar method with a logarithm written here from `+ − × ÷` only, so the same seed gives the
//! same numbers on every platform (no libm, whose last bits differ between systems).

/// A seeded generator of N(0, 1) samples.
#[derive(Debug, Clone)]
pub struct Normal {
    state: [u64; 4],
    spare: Option<f64>,
}

impl Normal {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Normal { state: [next(), next(), next(), next()], spare: None }
    }

    fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.state;
        let result = s1.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(45);
        result
    }

    /// A uniform sample in (-1, 1).
    fn uniform_signed(&mut self) -> f64 {
        let bits = self.next_u64() >> 11;
        (bits as f64 + 0.5) / (1u64 << 52) as f64 - 1.0
    }

    /// The next N(0, 1) sample.
    pub fn sample(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        loop {
            let (u, v) = (self.uniform_signed(), self.uniform_signed());
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let factor = (-2.0 * ln(s) / s).sqrt();
                self.spare = Some(v * factor);
                return u * factor;
            }
        }
    }
}

/// The natural logarithm of a positive finite number, from basic operations only:
/// `x = m · 2^e` with m in [√½, √2), then `ln m = 2 atanh((m − 1)/(m + 1))` by its series.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let (mut m, mut e) = split(x);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut sum = 0.0;
    let mut k = 23.0;
    while k >= 1.0 {
        sum = sum * s2 + 1.0 / k;
        k -= 2.0;
    }
    2.0 * s * sum + e as f64 * std::f64::consts::LN_2
}

/// `x = m · 2^e` with m in [1, 2) (subnormals scaled first).
fn split(x: f64) -> (f64, i64) {
    let (x, bias) = if x < f64::MIN_POSITIVE { (x * (1u64 << 54) as f64, -54) } else { (x, 0) };
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mantissa = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    (mantissa, exponent + bias)
}
