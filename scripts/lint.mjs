// npm run lint: clang-format (C++), prettier (web, scripts, configs) and eslint (JS).
// npm run format (--fix): rewrite files instead of checking them.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, run, step } from './lib.mjs';

const CPP_DIRS = ['core', 'wasm', 'tests/cpp', 'tests/fuzz', 'bench'];

async function cppFiles() {
  const files = [];
  for (const dir of CPP_DIRS) {
    const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile() && /\.(cpp|hpp)$/.test(entry.name)) {
        files.push(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
      }
    }
  }
  return files.sort();
}

const bin = (name, file) => path.join(root, 'node_modules', name, file);

/** Runs each linter; returns [{ name, ok }]. */
export async function lint({ fix = false } = {}) {
  const checks = [
    {
      name: 'clang-format',
      args: async () => [
        'clang-format',
        [fix ? '-i' : '--dry-run', ...(fix ? [] : ['--Werror']), ...(await cppFiles())],
      ],
    },
    {
      name: 'prettier',
      args: async () => [process.execPath, [bin('prettier', 'bin/prettier.cjs'), fix ? '--write' : '--check', '.']],
    },
    {
      name: 'eslint',
      args: async () => [process.execPath, [bin('eslint', 'bin/eslint.js'), ...(fix ? ['--fix'] : []), '.']],
    },
  ];
  const results = [];
  for (const check of checks) {
    step(`${fix ? 'formatting' : 'lint'}: ${check.name}`);
    const [command, args] = await check.args();
    const { code } = await run(command, args);
    console.log(code === 0 ? `  ${check.name}: ok` : `  ${check.name}: FAILED (npm run format fixes formatting)`);
    results.push({ name: check.name, ok: code === 0 });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await lint({ fix: process.argv.includes('--fix') });
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}
