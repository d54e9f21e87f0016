// npm run shots (scripts/shots.mjs) on the built site: for the pages asked for, a full-page PNG at
// 1280×900 and 390×844 and the first screen of each lab, in build/shots/<label>/, listed in its
// index.md; a label that is not a plain folder name is refused.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { open as openFile, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { lessonIds } from './browser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LABEL = 'e2e-shots-test';
const out = path.join(root, 'build', 'shots', LABEL);
const LESSON = 'softmax-temperature'; // a lesson with a lab
const run = (args) => promisify(execFile)(process.execPath, ['scripts/shots.mjs', ...args], { cwd: root });

after(() => rm(out, { recursive: true, force: true }));

/** A PNG's { width, height }, from its IHDR chunk. */
async function pngSize(file) {
  const handle = await openFile(file);
  try {
    const { buffer } = await handle.read(Buffer.alloc(24), 0, 24, 0);
    assert.equal(buffer.subarray(1, 4).toString('latin1'), 'PNG', `${file} is a PNG`);
    return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
  } finally {
    await handle.close();
  }
}

test('the home page and a lesson, full length and each lab, at both sizes, with an index', async () => {
  const { stdout } = await run([LABEL, '--only', 'home', '--only', LESSON]);
  assert.match(stdout, new RegExp(`wrote build/shots/${LABEL}/`));
  const stem = `${String((await lessonIds()).indexOf(LESSON) + 1).padStart(2, '0')}-${LESSON}`;
  const index = await readFile(path.join(out, 'index.md'), 'utf8');
  for (const [folder, width, height] of [
    ['1280x900', 1280, 900],
    ['390x844', 390, 844],
  ]) {
    const files = (await readdir(path.join(out, folder))).sort();
    assert.ok(files.includes('00-home.png'), `${folder}: the home page`);
    assert.ok(files.includes(`${stem}.png`), `${folder}: the lesson`);
    const labs = files.filter((f) => f.startsWith(`${stem}.lab-`));
    assert.ok(labs.length >= 1, `${folder}: the lesson's lab`);
    assert.equal(files.length, 2 + labs.length, `${folder}: only the pages asked for (${files})`);

    const home = await pngSize(path.join(out, folder, '00-home.png'));
    const lesson = await pngSize(path.join(out, folder, `${stem}.png`));
    assert.equal(home.width, width);
    assert.equal(lesson.width, width);
    assert.ok(lesson.height > 3 * height, `${folder}: the whole lesson (${lesson.height} px)`);
    for (const lab of labs) assert.deepEqual(await pngSize(path.join(out, folder, lab)), { width, height });
    for (const file of files) assert.ok(index.includes(`](${folder}/${file})`), `index.md lists ${folder}/${file}`);
  }
});

test('a label that is not a plain folder name is refused', async () => {
  for (const label of ['../outside', 'a/b', '.hidden']) {
    await assert.rejects(run([label]), (error) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /shots: label .*: use letters, digits/);
      return true;
    });
  }
  await assert.rejects(run([LABEL, '--only', 'no-such-lesson']), /--only: no page called no-such-lesson/);
});
