/** Summary statistics of a sample, as JMH reports them. */
export interface Statistics {
  /** Sample size. */
  n: number;
  /** Arithmetic mean: JMH's score. */
  mean: number;
  /** Half-width of the confidence interval at `confidence`: JMH's score error (NaN when n <= 2). */
  error: number;
  /** Confidence level of `error` (JMH uses 0.999). */
  confidence: number;
  /** Sample standard deviation (n - 1 denominator; NaN when n < 2). */
  stdev: number;
  /** Smallest value. */
  min: number;
  /** Largest value. */
  max: number;
}

/** The confidence level JMH uses for its score error. */
export const JMH_CONFIDENCE = 0.999;

/** The percentiles JMH writes into `scorePercentiles`, in its order and key spelling. */
export const JMH_PERCENTILES: readonly string[] = [
  "0.0",
  "50.0",
  "90.0",
  "95.0",
  "99.0",
  "99.9",
  "99.99",
  "99.999",
  "99.9999",
  "100.0",
];

/**
 * Statistics of `values` as JMH computes them: mean, and error = t(1 - (1 - confidence) / 2, n - 1) * s / sqrt(n)
 * with Student's t, NaN when n <= 2 (JMH declines to guess an interval from two points).
 */
export function computeStatistics(
  values: readonly number[],
  confidence = JMH_CONFIDENCE,
): Statistics {
  const n = values.length;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = n > 0 ? sum / n : Number.NaN;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  const stdev = n > 1 ? Math.sqrt(squares / (n - 1)) : Number.NaN;
  const error =
    n > 2 ? studentTQuantile(1 - (1 - confidence) / 2, n - 1) * (stdev / Math.sqrt(n)) : Number.NaN;
  return {
    n,
    mean,
    error,
    confidence,
    stdev,
    min: n > 0 ? min : Number.NaN,
    max: n > 0 ? max : Number.NaN,
  };
}

/**
 * The `p`-th percentile (0..100) with the estimator JMH inherits from Apache Commons Math's `Percentile`:
 * position p(n + 1)/100 in the sorted sample, linearly interpolated, clamped to min and max.
 */
export function percentile(sorted: readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (n === 1) return sorted[0]!;
  const pos = (p * (n + 1)) / 100;
  if (pos < 1) return sorted[0]!;
  if (pos >= n) return sorted[n - 1]!;
  const lower = sorted[Math.floor(pos) - 1]!;
  const upper = sorted[Math.floor(pos)]!;
  return lower + (pos - Math.floor(pos)) * (upper - lower);
}

/** `scorePercentiles` as JMH writes it. */
export function jmhPercentiles(values: readonly number[]): Record<string, number> {
  const sorted = [...values].sort((a, b) => a - b);
  const out: Record<string, number> = {};
  for (const key of JMH_PERCENTILES) out[key] = percentile(sorted, Number(key));
  return out;
}

/** The quantile function (inverse CDF) of Student's t distribution with `dof` degrees of freedom. */
export function studentTQuantile(p: number, dof: number): number {
  if (!(p > 0 && p < 1) || !(dof > 0)) return Number.NaN;
  if (p === 0.5) return 0;
  // P(|T| > t) = I_{dof/(dof+t^2)}(dof/2, 1/2), so invert the incomplete beta at the two-sided tail mass.
  const tail = p > 0.5 ? 2 * (1 - p) : 2 * p;
  const x = inverseRegularizedBeta(tail, dof / 2, 0.5);
  const t = Math.sqrt((dof * (1 - x)) / x);
  return p > 0.5 ? t : -t;
}

/** The cumulative distribution function of Student's t with `dof` degrees of freedom. */
export function studentTCdf(t: number, dof: number): number {
  const x = dof / (dof + t * t);
  const tail = 0.5 * regularizedBeta(x, dof / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** ln Γ(x) for x > 0, by the Lanczos approximation (g = 7, 9 terms; ~15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** The regularized incomplete beta function I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x),
  );
  // The continued fraction converges fast for x < (a + 1)/(a + b + 2); use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Lentz's evaluation of the continued fraction for I_x(a, b). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 1000; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/**
 * The x in [0, 1] with I_x(a, b) = p: Newton steps on the incomplete beta, kept inside a shrinking bracket
 * (bisecting whenever a step would leave it), so it converges even where the density is unbounded.
 */
export function inverseRegularizedBeta(p: number, a: number, b: number): number {
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const logBeta = logGamma(a) + logGamma(b) - logGamma(a + b);
  let lo = 0;
  let hi = 1;
  let x = 0.5;
  for (let i = 0; i < 300; i++) {
    const f = regularizedBeta(x, a, b) - p;
    if (f === 0) return x;
    if (f < 0) lo = x;
    else hi = x;
    const density = Math.exp((a - 1) * Math.log(x) + (b - 1) * Math.log1p(-x) - logBeta);
    let next = x - f / density;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(next, 1e-300)) return next;
    x = next;
  }
  return x;
}
