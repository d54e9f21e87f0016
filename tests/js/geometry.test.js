// convexHull and pointsInHull through both wasm builds on point sets that mix every float32
// magnitude, checked with an exact orientation test in BigInt arithmetic (every float32 is an
// integer multiple of 2^-149, so scaled by 2^149 the cross product is an exact integer).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, test } from 'node:test';
import { loadAttention } from 'attnbook';

/** A float32 value as the exact integer value · 2^149. */
function scaled(value) {
  const f = Math.fround(value);
  // |f| = m · 2^e with m a whole number: doubling is exact in float64, and a float32 has e ≥ −149
  let [m, e] = [Math.abs(f), 0];
  while (!Number.isInteger(m)) [m, e] = [m * 2, e - 1];
  const magnitude = BigInt(m) * 2n ** BigInt(e + 149);
  return f < 0 ? -magnitude : magnitude;
}

/** Sign of (a − o) × (b − o), exactly. */
function orientation(o, a, b) {
  const [ox, oy, ax, ay, bx, by] = [...o, ...a, ...b].map(scaled);
  const cross = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox);
  return cross > 0n ? 1 : cross < 0n ? -1 : 0;
}

/** What is wrong with `hull` as the hull of `points`, or '' (strict CCW turns, every point inside). */
function hullProblem(points, hull) {
  const v = Array.from(hull, (i) => points[i]);
  if (new Set(hull).size !== hull.length) return 'repeated hull index';
  const h = v.length;
  if (h >= 3) {
    for (let i = 0; i < h; i++) {
      if (orientation(v[i], v[(i + 1) % h], v[(i + 2) % h]) <= 0) return `no strict left turn at ${(i + 1) % h}`;
    }
  }
  for (const [r, p] of points.entries()) {
    const inside =
      h === 1
        ? p[0] === v[0][0] && p[1] === v[0][1]
        : h === 2
          ? orientation(v[0], v[1], p) === 0 &&
            Math.min(v[0][0], v[1][0]) <= p[0] &&
            p[0] <= Math.max(v[0][0], v[1][0]) &&
            Math.min(v[0][1], v[1][1]) <= p[1] &&
            p[1] <= Math.max(v[0][1], v[1][1])
          : v.every((_, i) => orientation(v[i], v[(i + 1) % h], p) >= 0);
    if (!inside) return `point ${r} (${p}) is outside the hull`;
  }
  return '';
}

const finding = (await readFile(new URL('../cpp/data/hull-mixed-magnitudes.txt', import.meta.url), 'utf8'))
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => line.trim().split(/\s+/).map(Number).map(Math.fround));

test('the BigInt orientation test is exact where float64 is not', () => {
  assert.equal(scaled(2 ** -149), 1n);
  assert.equal(scaled(-3.5), -7n * 2n ** 148n);
  assert.equal(scaled(2 ** 127), 2n ** 276n);
  // collinear on y = x at wildly different magnitudes; (1, 1 + 2^-23) is a left turn
  assert.equal(orientation([2 ** -149, 2 ** -149], [1, 1], [2 ** 100, 2 ** 100]), 0);
  assert.equal(orientation([0, 0], [2 ** 100, 2 ** 100], [1, 1 + 2 ** -23]), 1);
});

for (const simd of [true, false]) {
  describe(`geometry, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention({ simd });
    });

    test('the mixed-magnitude finding: every one of its 220 points is in its own hull', () => {
      assert.equal(finding.length, 220);
      const hull = attn.convexHull(finding);
      assert.equal(hullProblem(finding, hull), '');
      const inside = attn.pointsInHull(
        finding,
        Array.from(hull, (i) => finding[i]),
      );
      assert.equal(
        inside.reduce((a, b) => a + b, 0),
        220,
      );
    });

    test('random sets of every float32 magnitude with duplicates lie in their own hulls', () => {
      let state = 12345; // a small LCG: the same sets on every machine
      const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
      const value = () => {
        const sign = next() % 2 ? -1 : 1;
        switch (next() % 4) {
          case 0:
            return 0;
          case 1:
            return Math.fround(sign * 2 ** ((next() % 277) - 149));
          case 2:
            return Math.fround(sign * (next() % 1000) * 2 ** ((next() % 60) - 30));
          default:
            return Math.fround(sign * (1 + (next() % 8) / 8) * 2 ** ((next() % 250) - 125));
        }
      };
      for (let trial = 0; trial < 60; trial++) {
        const points = [];
        const n = 1 + (next() % 40);
        while (points.length < n) {
          points.push(points.length && next() % 4 === 0 ? points[next() % points.length] : [value(), value()]);
        }
        const hull = attn.convexHull(points);
        assert.equal(hullProblem(points, hull), '', `trial ${trial}: ${JSON.stringify(points)}`);
      }
    });
  });
}
