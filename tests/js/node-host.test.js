// The engine is a library: loading it in Node leaves the host program's process
// alone. No process-wide uncaughtException / unhandledRejection handlers, so an
// error the program does not catch is reported by Node as usual: its message,
// briefly, not rethrown from inside the wasm module's code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from 'attnbook';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EVENTS = ['uncaughtException', 'unhandledRejection'];

test('loading either build adds no process-wide handler', async () => {
  const before = EVENTS.map((event) => process.listenerCount(event));
  await loadAttention({ simd: true });
  await loadAttention({ simd: false });
  assert.deepEqual(
    EVENTS.map((event) => process.listenerCount(event)),
    before,
  );
});

/** Runs an ES module script with Node in the package's folder (so 'attnbook' resolves). */
function runScript(script) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
}

test('an uncaught AttentionError in a program stops it with its own short report', () => {
  const result = runScript(
    "import { loadAttention } from 'attnbook'; const attn = await loadAttention(); attn.splitHeads([[[1, 2]], [[3, 4], [5, 6]]], 2);",
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /AttentionError: splitHeads: x\[1\] has 2 values but x\[0\] has 1/);
  assert.ok(result.stderr.length < 4000, `stderr has ${result.stderr.length} characters`);
});

test("a program's own unhandled rejection is Node's to report, after the engine loaded", () => {
  const result = runScript(
    "import { loadAttention } from 'attnbook'; await loadAttention(); Promise.reject(new RangeError('the program failed'));",
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /RangeError: the program failed/);
  assert.ok(result.stderr.length < 4000, `stderr has ${result.stderr.length} characters`);
});
