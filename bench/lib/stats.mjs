// Order statistics for timing samples. The median is the figure we quote: one
// slow run (a page fault, another process) moves the mean but not the median.
export function summarize(values) {
    const v = [...values].sort((a, b) => a - b);
    const n = v.length;
    if (n === 0) return { n: 0, median: null, min: null, max: null, mean: null };
    const median = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    const mean = v.reduce((s, x) => s + x, 0) / n;
    const round = (x) => Math.round(x * 1e4) / 1e4;
    return { n, median: round(median), min: round(v[0]), max: round(v[n - 1]), mean: round(mean) };
}
