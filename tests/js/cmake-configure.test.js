// A moved or copied checkout rebuilds (scripts/cmake-configure.mjs, the configure step of
// scripts/build.mjs): a build folder whose CMakeCache.txt was made for other folders is deleted and
// configured afresh, with one line saying so, instead of cmake stopping with "CMakeCache.txt
// directory … is different" / "does not match the source … used to generate cache".
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  cacheEntries,
  configurePreset,
  freshenBuildDir,
  presetBinaryDir,
  staleCacheReason,
} from '../../scripts/cmake-configure.mjs';
import { presets, root } from '../../scripts/lib.mjs';

/** The two lines of a CMakeCache.txt that name its folders, amid others as cmake writes them. */
const fakeCache = (source, build) =>
  [
    '# This is the CMakeCache file.',
    'CMAKE_BUILD_TYPE:STRING=Release',
    '//Value Computed by CMake.',
    `CMAKE_CACHEFILE_DIR:INTERNAL=${build}`,
    `CMAKE_HOME_DIRECTORY:INTERNAL=${source}`,
    '',
  ].join('\n');

async function tempDir(t) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'attnbook-cmake-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('cacheEntries reads NAME:TYPE=value lines, comments and blank lines aside', () => {
  const entries = cacheEntries(fakeCache('/src', '/src/build/native'));
  assert.equal(entries.CMAKE_HOME_DIRECTORY, '/src');
  assert.equal(entries.CMAKE_CACHEFILE_DIR, '/src/build/native');
  assert.equal(entries.CMAKE_BUILD_TYPE, 'Release');
  assert.equal(Object.keys(entries).length, 3);
});

test('staleCacheReason: a cache made here is fine; one made for another folder says which', async (t) => {
  const here = await tempDir(t);
  const buildDir = path.join(here, 'build', 'native');
  await mkdir(buildDir, { recursive: true });
  const folders = { sourceDir: here, buildDir };
  assert.equal(staleCacheReason(fakeCache(here, buildDir), folders), null);
  // reached through a symlink: the same folders
  const link = path.join(here, 'link');
  await symlink(here, link);
  assert.equal(staleCacheReason(fakeCache(link, path.join(link, 'build', 'native')), folders), null);
  // moved: the folders it names are gone
  assert.equal(
    staleCacheReason(fakeCache('/gone/attnbook', '/gone/attnbook/build/native'), folders),
    'its CMakeCache.txt was made for /gone/attnbook/build/native',
  );
  // copied: the folders it names still exist, elsewhere
  const other = await tempDir(t);
  assert.match(staleCacheReason(fakeCache(other, path.join(other, 'build', 'native')), folders), /made for .*build/);
  // the same build folder, configured from other sources
  assert.equal(
    staleCacheReason(fakeCache(other, buildDir), folders),
    `its CMakeCache.txt was made for the sources in ${other}`,
  );
  // a cache naming neither folder is left to cmake
  assert.equal(staleCacheReason('CMAKE_BUILD_TYPE:STRING=Release\n', folders), null);
});

test('every preset the build configures has a build folder the check finds (CMakePresets.json)', () => {
  for (const preset of [...presets, 'fuzz']) {
    assert.equal(presetBinaryDir(preset, root), path.join(root, 'build', preset), preset);
  }
  assert.equal(presetBinaryDir('no-such-preset', root), null);
});

test("this checkout's own build folders, copied into another checkout, start afresh there", async (t) => {
  // npm test builds before this layer runs, so every preset has been configured here
  const configured = presets.filter((p) => existsSync(path.join(root, 'build', p, 'CMakeCache.txt')));
  assert.deepEqual(configured, presets, 'every preset configured in build/ (run npm run build first)');
  const copy = await tempDir(t);
  await cp(path.join(root, 'CMakePresets.json'), path.join(copy, 'CMakePresets.json'));
  for (const preset of configured) {
    const cache = path.join(copy, 'build', preset, 'CMakeCache.txt');
    await mkdir(path.dirname(cache), { recursive: true });
    await cp(path.join(root, 'build', preset, 'CMakeCache.txt'), cache);
    const lines = [];
    assert.equal(await freshenBuildDir(preset, { sourceDir: copy, log: (line) => lines.push(line) }), true, preset);
    assert.deepEqual(lines, [
      `build/${preset}: its CMakeCache.txt was made for ${path.join(root, 'build', preset)}, not this checkout; starting it afresh`,
    ]);
    assert.equal(existsSync(path.dirname(cache)), false, `build/${preset} deleted`);
    // and in this checkout, where they were made, they are kept
    const own = await readFile(path.join(root, 'build', preset, 'CMakeCache.txt'), 'utf8');
    assert.equal(staleCacheReason(own, { sourceDir: root, buildDir: path.join(root, 'build', preset) }), null);
  }
});

test('a configured project copied or moved elsewhere configures again, where plain cmake stops', async (t) => {
  // A project with no compiler to find configures in a fraction of a second.
  const original = path.join(await tempDir(t), 'project');
  await mkdir(original);
  await writeFile(path.join(original, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.23)\nproject(toy NONE)\n');
  const presetsJson = {
    version: 4,
    configurePresets: [
      { name: 'base', hidden: true, generator: 'Ninja', binaryDir: '${sourceDir}/build/${presetName}' },
      { name: 'toy', inherits: 'base' },
    ],
  };
  await writeFile(path.join(original, 'CMakePresets.json'), JSON.stringify(presetsJson));
  const lines = [];
  const log = (line) => lines.push(line);
  await configurePreset('toy', { sourceDir: original, log });
  assert.deepEqual(lines, [], 'a fresh folder is configured without a word');

  const copied = path.join(path.dirname(original), 'copied');
  await cp(original, copied, { recursive: true });
  const plain = spawnSync('cmake', ['-S', copied, '--preset', 'toy'], { encoding: 'utf8' });
  assert.notEqual(plain.status, 0, 'plain cmake refuses the copied cache');
  assert.match(plain.stderr, /does not match the source .* used to generate cache/);

  await configurePreset('toy', { sourceDir: copied, log });
  assert.deepEqual(lines, [
    `build/toy: its CMakeCache.txt was made for ${path.join(original, 'build', 'toy')}, not this checkout; starting it afresh`,
  ]);
  const cache = cacheEntries(await readFile(path.join(copied, 'build', 'toy', 'CMakeCache.txt'), 'utf8'));
  assert.equal(cache.CMAKE_HOME_DIRECTORY, copied);
  await configurePreset('toy', { sourceDir: copied, log });
  assert.equal(lines.length, 1, 'configured here: kept, no second line');

  const moved = path.join(path.dirname(original), 'moved');
  await rename(original, moved);
  await configurePreset('toy', { sourceDir: moved, log });
  assert.equal(lines.length, 2);
  assert.match(lines[1], /^build\/toy: its CMakeCache.txt was made for .*\/project\/build\/toy, not this checkout/);
  assert.equal(
    cacheEntries(await readFile(path.join(moved, 'build', 'toy', 'CMakeCache.txt'), 'utf8')).CMAKE_HOME_DIRECTORY,
    moved,
  );
});
