// Helpers shared by the project's scripts: announce steps, run commands.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Prints a step heading, so long first runs never look hung. */
export function step(message) {
  console.log(`\n▶ ${message}`);
}

/**
 * Runs a command from the project root. Output streams to the terminal; with
 * `capture` it is also collected and returned. Resolves to { code, output }.
 */
export function run(command, args, { capture = false, quiet = false, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', capture || quiet ? 'pipe' : 'inherit', capture || quiet ? 'pipe' : 'inherit'],
    });
    let output = '';
    const collect = (stream, sink) =>
      stream?.on('data', (chunk) => {
        output += chunk;
        if (!quiet) sink.write(chunk);
      });
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Like run(), but throws when the command fails, printing its output if it was quiet. */
export async function mustRun(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    if (options.quiet) process.stderr.write(result.output);
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.code}`);
  }
  return result;
}

/** Environment for emcc links: Debian's acorn lives in /usr/share/nodejs. */
export const emccEnv = { NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };

// native-asan: the same GoogleTest suite under AddressSanitizer + UndefinedBehaviorSanitizer.
export const presets = ['native', 'native-asan', 'wasm-simd', 'wasm-scalar'];

/** Debian's Chromium, and the flags it needs headless as root on a machine with no network. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--allow-file-access-from-files',
];
