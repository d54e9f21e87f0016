// The multi-head lab's pure model (web/src/labs/multi-head/multi-head-model.js), in Node with the
// real engine, and the lesson's text: queries and keys are not used before lesson 6 defines them,
// and positions are counted from 0.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadAttention } from '../../web/src/engine/index.js';
import {
  codeParams,
  computeMultiHead,
  describeMultiHead,
  exportObject,
  gridSvg,
  mapColours,
  moveInGrid,
  multiHeadChecks,
  pickMap,
  printout,
  shapeOk,
  weightColour,
  weightRows,
} from '../../web/src/labs/multi-head/multi-head-model.js';

const engine = await loadAttention();
const SIZES = { batch: 2, heads: 3, length: 5, dv: 4, seed: 42 };

test('the notebook’s sizes: A (2, 3, 5, 5) with rows summing to 1, Y = AV of shape (2, 3, 5, 4)', () => {
  const r = computeMultiHead(engine, SIZES);
  assert.deepEqual(r.A.shape, [2, 3, 5, 5]);
  assert.deepEqual(r.V.shape, [2, 3, 5, 4]);
  assert.deepEqual(r.S.shape, [2, 3, 5, 5]);
  assert.deepEqual(r.Y.shape, [2, 3, 5, 4]);
  assert.equal(shapeOk(r), true);
  assert.ok(r.report.maxRowSumError <= 1e-6);
  assert.equal(r.maps.length, 6);
  // Y[b, k] = A[b, k] V[b, k], checked for every entry
  for (const { b, k, values } of r.maps) {
    for (let i = 0; i < 5; i++) {
      for (let d = 0; d < 4; d++) {
        let y = 0;
        for (let j = 0; j < 5; j++) y += values.data[i * 5 + j] * r.V.data[((b * 3 + k) * 5 + j) * 4 + d];
        const got = r.Y.data[((b * 3 + k) * 5 + i) * 4 + d];
        assert.ok(Math.abs(got - y) < 1e-5, `Y[${b}, ${k}, ${i}, ${d}] = ${got}, AV gives ${y}`);
      }
    }
  }
  assert.equal(
    printout(r),
    'Batched Attention Matrix A shape: (2, 3, 5, 5)\nBatched Value Matrix V shape: (2, 3, 5, 4)\nBatched Output Matrix Y shape: (2, 3, 5, 4)',
  );
  assert.deepEqual(codeParams(r).yshape, [2, 3, 5, 4]);
  assert.equal(codeParams(r).pairs, 6);
});

test('other sizes and seeds: shapes follow, a shape check that can fail', () => {
  const r = computeMultiHead(engine, { batch: 4, heads: 6, length: 8, dv: 16, seed: 7 });
  assert.deepEqual(r.Y.shape, [4, 6, 8, 16]);
  assert.equal(r.maps.length, 24);
  assert.equal(shapeOk({ ...r, Y: { ...r.Y, shape: [4, 6, 8] } }), false);
  assert.equal(shapeOk(null), undefined);
  const [rows, shape] = multiHeadChecks(r);
  assert.equal(rows.label, 'max |row sum − 1| over all 192 rows (B·h·T) of A');
  assert.ok(rows.value <= rows.threshold);
  assert.equal(shape.pass, true);
  assert.equal(multiHeadChecks({ ...r, Y: { ...r.Y, shape: [4, 6, 8, 15] } })[1].pass, false);
  const other = computeMultiHead(engine, { ...SIZES, seed: 43 });
  assert.notDeepEqual(Array.from(other.A.data), Array.from(computeMultiHead(engine, SIZES).A.data));
});

test('the picked map survives smaller sizes, arrow keys move within the grid', () => {
  const r = computeMultiHead(engine, { ...SIZES, batch: 1, heads: 2 });
  const map = pickMap(r, { b: 3, k: 5 });
  assert.deepEqual([map.b, map.k], [0, 1]);
  assert.deepEqual(moveInGrid({ b: 0, k: 0 }, 'ArrowRight', 2, 3), { b: 0, k: 1 });
  assert.deepEqual(moveInGrid({ b: 0, k: 0 }, 'ArrowUp', 2, 3), { b: 0, k: 0 });
  assert.deepEqual(moveInGrid({ b: 0, k: 1 }, 'ArrowDown', 2, 3), { b: 1, k: 1 });
  assert.deepEqual(moveInGrid({ b: 1, k: 0 }, 'End', 2, 3), { b: 1, k: 2 });
  assert.equal(moveInGrid({ b: 1, k: 0 }, 'x', 2, 3), null);
});

test('colours, exports and the text alternative', () => {
  const r = computeMultiHead(engine, SIZES);
  assert.equal(weightColour(0), '#440154');
  assert.equal(weightColour(1), '#fde725');
  assert.equal(mapColours(r.maps[0]).length, 25);
  const svg = gridSvg(r);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal((svg.match(/<rect x=/g) ?? []).length, 6 * 25);
  assert.match(svg, /head 2<\/text>/);
  assert.match(svg, /b = 1<\/text>/);
  assert.equal(weightRows(r).length, 1 + 6 * 25);
  const json = exportObject(r);
  assert.equal(json.A.length, 6);
  assert.ok(json.A.every((m) => m.rows.every((row) => Math.abs(row.reduce((a, c) => a + c, 0) - 1) < 1e-6)));
  assert.match(describeMultiHead(r), /6 maps of 5 × 5 weights/);
  assert.match(describeMultiHead(null), /not computed yet/);
});

// Regression: lesson 5 spoke of query–key dot products before lesson 6 defines queries and keys, and
// wrote Conv(v₁, …, v_T) where the code counts from 0.
const lessonText = async () => {
  const md = await readFile(new URL('../../web/lessons/multi-head.md', import.meta.url), 'utf8');
  const parts = ['multi-head-model.js', 'multi-head-parts.js', 'attn-multi-head.js', 'multi-head-code.js'];
  const labs = await Promise.all(
    parts.map((name) => readFile(new URL(`../../web/src/labs/multi-head/${name}`, import.meta.url), 'utf8')),
  );
  return { md, labs: labs.join('\n') };
};

test('regression: lesson 5 uses neither queries nor keys (lesson 6 defines them; the lab is checked as rendered)', async () => {
  const { md } = await lessonText();
  const body = md.replace(/^---[\s\S]*?---/, '');
  assert.doesNotMatch(body, /quer(y|ies)|\bkeys?\b/i);
  // the last section points on to the lesson that defines where the scores come from
  const sections = body.split(/^## /m).map((s) => s.split('\n')[0]);
  assert.equal(sections.at(-1), 'Where the scores come from');
  assert.match(body, /\(#\/scaled-dot-product\)/);
});

test('regression: positions counted from 0 in lesson 5 (no v₁, …, v_T; sums from j = 0)', async () => {
  const { md, labs } = await lessonText();
  for (const [name, text] of [
    ['lesson', md],
    ['lab', labs],
  ]) {
    assert.doesNotMatch(text, /_\{?1\}?\s*,\s*(\\dots|\\ldots|…)/, `${name}: a list starting at index 1`);
    assert.doesNotMatch(text, /<sub>1<\/sub>\s*,\s*…/, `${name}: a list starting at index 1`);
    assert.doesNotMatch(
      text,
      /(\\dots|\\ldots|…)\s*,\s*[a-z](_T\b|_\{T\}|<sub>T<\/sub>)/,
      `${name}: a list ending at index T`,
    );
    assert.doesNotMatch(text, /\\sum_\{?[a-z]\s*=\s*1\}?/, `${name}: a sum from 1`);
  }
  assert.match(md, /\\operatorname\{Conv\}\(v_0, \\dots, v_\{T-1\}\)/);
  assert.match(labs, /\\operatorname\{Conv\}\(v_0, \\ldots, v_\{T-1\}\)/); // tex`…` in the lab's source
});
