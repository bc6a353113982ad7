// Order statistics for timing samples, and ratios with bootstrap intervals.
import { generator } from './random.mjs';

// Order statistics: the median is the figure we quote (one
// slow run, a page fault or another process, moves the mean but not the median).
export function summarize(values) {
    const v = [...values].sort((a, b) => a - b);
    const n = v.length;
    if (n === 0) return { n: 0, median: null, min: null, max: null, mean: null };
    const median = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    const mean = v.reduce((s, x) => s + x, 0) / n;
    const round = (x) => Math.round(x * 1e4) / 1e4;
    return { n, median: round(median), min: round(v[0]), max: round(v[n - 1]), mean: round(mean) };
}

const median = (v) => summarize(v).median;

// The ratio of two builds' times with a 95% bootstrap interval over rounds.
// `a` and `b` are per-round medians in round order: round i of both ran in the
// same sweep over the builds, minutes apart at most, so a slow stretch of the
// machine slows both sides of a pair: the statistic is the median of the
// per-round ratios a[i] / b[i], and the interval holds the middle 95% of that
// median over `resamples` resamplings of the rounds (with replacement).
// snippet: ratio-interval
export function ratioInterval(a, b, { resamples = 4000, seed = 20261204 } = {}) {
    const n = Math.min(a.length, b.length);
    if (n === 0 || a.length !== b.length) return null;
    const ratios = a.map((x, i) => x / b[i]);
    const ratio = median(ratios);
    if (n < 3) return { ratio, lo: null, hi: null, rounds: n };
    const next = generator(seed);
    const stats = new Float64Array(resamples);
    const pick = new Array(n);
    for (let k = 0; k < resamples; k++) {
        for (let i = 0; i < n; i++) pick[i] = ratios[Math.floor(next() * n)];
        stats[k] = median(pick);
    }
    stats.sort();
    const at = (q) => stats[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))];
    return { ratio, lo: at(0.025), hi: at(0.975), rounds: n };
}
// end-snippet

// What a ratio of new / old time says: faster only when the whole interval is
// below 1, slower only when it is above; otherwise within noise.
export function verdict(interval) {
    if (!interval || interval.lo === null) return 'no interval (fewer than 3 rounds)';
    if (interval.hi < 1) return 'faster';
    if (interval.lo > 1) return 'slower';
    return 'within noise';
}
