import { describe, expect, it } from "vitest";
import {
  computeStatistics,
  inverseRegularizedBeta,
  jmhPercentiles,
  logGamma,
  percentile,
  regularizedBeta,
  studentTCdf,
  studentTQuantile,
} from "../src/stats";

describe("Student's t quantile", () => {
  // Two-sided critical values from published t tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
  it.each([
    [0.9995, 1, 636.6192488],
    [0.9995, 2, 31.5990546],
    [0.9995, 3, 12.9239786],
    [0.9995, 4, 8.6103016],
    [0.9995, 5, 6.8688266],
    [0.9995, 9, 4.7809126],
    [0.9995, 10, 4.5868939],
    [0.9995, 29, 3.6594038],
    [0.9995, 30, 3.6459586],
    [0.975, 1, 12.7062047],
    [0.975, 10, 2.2281389],
    [0.975, 30, 2.0422725],
    [0.95, 5, 2.0150484],
    [0.9, 20, 1.3253407],
  ])("t(%f, %i) = %f", (p, dof, expected) => {
    expect(studentTQuantile(p, dof)).toBeCloseTo(expected, 5);
    expect(studentTQuantile(1 - p, dof)).toBeCloseTo(-expected, 5);
  });

  it("matches the closed forms for 1 (Cauchy) and 2 degrees of freedom", () => {
    for (const p of [0.6, 0.75, 0.9, 0.99, 0.9999]) {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 6);
      expect(studentTQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 8);
    }
  });

  it("tends to the normal quantile for large dof", () => {
    expect(studentTQuantile(0.9995, 1e7)).toBeCloseTo(3.2905267, 4);
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 4);
  });

  it("inverts its CDF", () => {
    for (const dof of [1, 3, 7.5, 50]) {
      for (const p of [0.001, 0.2, 0.5, 0.8, 0.9995]) {
        expect(studentTCdf(studentTQuantile(p, dof), dof)).toBeCloseTo(p, 10);
      }
    }
  });

  it("rejects probabilities outside (0, 1) and non-positive dof", () => {
    expect(studentTQuantile(0, 3)).toBeNaN();
    expect(studentTQuantile(1, 3)).toBeNaN();
    expect(studentTQuantile(0.9, 0)).toBeNaN();
    expect(studentTQuantile(0.5, 3)).toBe(0);
  });
});

describe("special functions", () => {
  it("logGamma matches factorials and Γ(1/2) = √π", () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(0.25)).toBeCloseTo(Math.log(3.625609908221908), 12);
  });

  it("regularizedBeta has I_x(1, 1) = x, I_x(a, 1) = x^a and the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)", () => {
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 14);
    expect(regularizedBeta(0.7, 3, 0.5)).toBeCloseTo(1 - regularizedBeta(0.3, 0.5, 3), 14);
    expect(regularizedBeta(0, 2, 2)).toBe(0);
    expect(regularizedBeta(1, 2, 2)).toBe(1);
  });

  it("inverseRegularizedBeta inverts it, including near 0 where the density is unbounded", () => {
    for (const [a, b] of [
      [0.5, 0.5],
      [2, 3],
      [15, 0.5],
    ] as const) {
      for (const p of [1e-6, 0.001, 0.5, 0.999]) {
        const x = inverseRegularizedBeta(p, a, b);
        expect(regularizedBeta(x, a, b) / p).toBeCloseTo(1, 9);
      }
    }
    expect(inverseRegularizedBeta(0, 2, 2)).toBe(0);
    expect(inverseRegularizedBeta(1, 2, 2)).toBe(1);
  });
});

describe("computeStatistics", () => {
  it("computes mean, sample stdev, min, max and the 99.9% error by hand", () => {
    const s = computeStatistics([1, 2, 3, 4, 5]);
    expect(s.n).toBe(5);
    expect(s.mean).toBe(3);
    expect(s.stdev).toBeCloseTo(Math.sqrt(2.5), 14); // Σ(x - 3)² = 10, / (n - 1)
    expect(s.min).toBe(1);
    expect(s.max).toBe(5);
    // t(0.9995, 4) = 8.6103016 from the table, times s / √n.
    expect(s.error).toBeCloseTo((8.6103016 * Math.sqrt(2.5)) / Math.sqrt(5), 5);
  });

  it("reproduces a result JMH itself computed (score, error and percentiles of 2 forks x 5 iterations)", () => {
    // rawData, score, scoreError and scorePercentiles as JMH 1.x wrote them (JMH Visualizer's example run).
    const raw = [
      [
        3524193.1540743182, 3531314.663170731, 3532453.3325443356, 3520395.64538141,
        3474431.2865468427,
      ],
      [
        3440045.3067861893, 3333994.173460993, 3445535.4557112623, 3475555.716890452,
        3398393.5659388755,
      ],
    ];
    const s = computeStatistics(raw.flat());
    expect(s.mean).toBeCloseTo(3467631.2300505415, 6);
    expect(s.error).toBeCloseTo(98563.33258873208, 4);
    const p = jmhPercentiles(raw.flat());
    expect(p["0.0"]).toBe(3333994.173460993);
    expect(p["50.0"]).toBeCloseTo(3474993.5017186473, 6);
    expect(p["90.0"]).toBeCloseTo(3532339.4656069754, 6);
    expect(p["95.0"]).toBe(3532453.3325443356);
    expect(p["100.0"]).toBe(3532453.3325443356);
  });

  it("has no error for n <= 2, as JMH", () => {
    expect(computeStatistics([1, 2]).error).toBeNaN();
    expect(computeStatistics([1]).stdev).toBeNaN();
    expect(computeStatistics([]).mean).toBeNaN();
    expect(computeStatistics([1, 2, 3]).error).toBeGreaterThan(0);
  });

  it("percentile interpolates at p(n + 1)/100 and clamps to min and max", () => {
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5], 25)).toBe(1.5);
    expect(percentile([1, 2, 3, 4, 5], 90)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5], 0)).toBe(1);
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
