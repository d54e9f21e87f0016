// The CMake configure step of scripts/build.mjs (and scripts/dev.mjs): `cmake --preset <name>`,
// after checking that the preset's build folder was configured for this checkout.
//
// A checkout moved or copied to another folder keeps build/<preset>/CMakeCache.txt, which names
// the folders it was made for (CMAKE_HOME_DIRECTORY, the source; CMAKE_CACHEFILE_DIR, the build
// folder). cmake then stops: "The current CMakeCache.txt directory … is different than the
// directory … where CMakeCache.txt was created" and "The source … does not match the source … used
// to generate cache". Such a build folder is deleted and configured afresh, with one line saying so
// (its objects and build.ninja name the old paths too: nothing in it is worth keeping).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { mustRun, root } from './lib.mjs';

/** The value of each `NAME:TYPE=value` entry of a CMakeCache.txt. @param {string} text */
export function cacheEntries(text) {
  const entries = {};
  for (const line of text.split(/\r?\n/)) {
    const entry = line.match(/^([A-Za-z_][A-Za-z0-9_.+-]*):[A-Z]+=(.*)$/);
    if (entry) entries[entry[1]] = entry[2];
  }
  return entries;
}

/** Whether two paths name one folder: equal once resolved, or (both existing) once symlinks are followed. */
function samePath(a, b) {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false; // one of them no longer exists (a moved checkout)
  }
}

/**
 * Why the CMakeCache.txt `cacheText`, found in `buildDir`, was made for other folders than
 * `sourceDir` and `buildDir`: a sentence, or null when it was made for these (or names neither).
 * @param {string} cacheText @param {{ sourceDir: string, buildDir: string }} folders
 * @returns {string | null}
 */
export function staleCacheReason(cacheText, { sourceDir, buildDir }) {
  const { CMAKE_HOME_DIRECTORY: source, CMAKE_CACHEFILE_DIR: build } = cacheEntries(cacheText);
  if (build && !samePath(build, buildDir)) return `its CMakeCache.txt was made for ${build}`;
  if (source && !samePath(source, sourceDir)) return `its CMakeCache.txt was made for the sources in ${source}`;
  return null;
}

/**
 * The build folder of configure preset `name` in `sourceDir`'s CMakePresets.json (its own
 * binaryDir or the first one it inherits), with the macros expanded; null when it has none.
 * @param {string} name @param {string} sourceDir
 */
export function presetBinaryDir(name, sourceDir) {
  const file = path.join(sourceDir, 'CMakePresets.json');
  const presets = JSON.parse(readFileSync(file, 'utf8')).configurePresets ?? [];
  const find = (presetName, seen = new Set()) => {
    const preset = presets.find((p) => p.name === presetName);
    if (!preset || seen.has(presetName)) return null;
    seen.add(presetName);
    if (preset.binaryDir) return preset.binaryDir;
    for (const parent of [preset.inherits ?? []].flat()) {
      const found = find(parent, seen);
      if (found) return found;
    }
    return null;
  };
  const template = find(name);
  if (!template) return null;
  const macros = {
    sourceDir,
    sourceParentDir: path.dirname(sourceDir),
    sourceDirName: path.basename(sourceDir),
    presetName: name,
    dollar: '$',
  };
  const expanded = template.replace(/\$\{(\w+)\}/g, (macro, key) => macros[key] ?? macro);
  return path.resolve(sourceDir, expanded);
}

/**
 * Deletes the build folder of `preset` when its CMakeCache.txt was made for another checkout,
 * printing one line. Resolves to true when it did.
 * @param {string} preset @param {{ sourceDir?: string, log?: (line: string) => void }} [options]
 */
export async function freshenBuildDir(preset, { sourceDir = root, log = console.log } = {}) {
  const buildDir = presetBinaryDir(preset, sourceDir);
  const cache = buildDir && path.join(buildDir, 'CMakeCache.txt');
  if (!cache || !existsSync(cache)) return false;
  const reason = staleCacheReason(await readFile(cache, 'utf8'), { sourceDir, buildDir });
  if (!reason) return false;
  log(`${path.relative(sourceDir, buildDir) || buildDir}: ${reason}, not this checkout; starting it afresh`);
  await rm(buildDir, { recursive: true, force: true });
  return true;
}

/**
 * `cmake --preset <preset>` for the sources in `sourceDir` (default: this checkout), after
 * freshenBuildDir(). `env` and `quiet` as for mustRun().
 * @param {string} preset
 * @param {{ sourceDir?: string, env?: object, quiet?: boolean, log?: (line: string) => void }} [options]
 */
export async function configurePreset(preset, { sourceDir = root, env = {}, quiet = true, log } = {}) {
  await freshenBuildDir(preset, { sourceDir, log });
  await mustRun('cmake', ['-S', sourceDir, '--preset', preset], { quiet, env });
}
