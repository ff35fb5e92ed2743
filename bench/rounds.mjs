// Ratios measured in rounds, shared by bench/nova.mjs and bench/hash.mjs: tangle-core and the other side each run
// 100 ms back to back in every round, so a busy or throttling machine slows both alike; the median of the per-round
// ratios is reported with the median rates. `--rounds N` on the command line sets the number of rounds (25).
const at = process.argv.indexOf('--rounds');
export const rounds = at === -1 ? 25 : Number(process.argv[at + 1]);

/** Calls per second of `fn` over `ms`. */
export function rate(fn, ms = 100) {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 16; i++) fn();
    n += 16;
  }
  return (n / ms) * 1000;
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

/**
 * Median per-round ratio, and the median rates of each side, after a warm-up of 300 ms each in which both reach their
 * optimised code. With `collect`, each measure starts after a full collection (node --expose-gc): a peer whose calls
 * leave megabytes of garbage (iota-sdk re-reads the parameters' 384 decay factors on every call) would otherwise bill
 * its collection to the next side. Not between tangle-core's own sides: a full collection shrinks the young
 * generation, which then slows whatever allocates next.
 */
export function ratioOf(ours, theirs, { rounds: n = rounds, collect = false } = {}) {
  const measure = (fn) => {
    if (collect) globalThis.gc?.();
    return rate(fn);
  };
  rate(ours, 300);
  rate(theirs, 300);
  const [r, a, b] = [[], [], []];
  for (let i = 0; i < n; i++) {
    const x = measure(ours);
    const y = measure(theirs);
    a.push(x);
    b.push(y);
    r.push(x / y);
  }
  return { ratio: median(r), ours: median(a), theirs: median(b) };
}
