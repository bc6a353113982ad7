// A small seeded generator (mulberry32): the same seed always gives the same
// numbers, so a test's cases and a table's intervals never move by chance.
// Returns a function giving uniform numbers in [0, 1).
export function generator(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
