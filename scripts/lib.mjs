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

/**
 * The browsers, both Debian's Chromium 156 (CHROMIUM_PATH overrides either):
 * - HEADLESS_SHELL, Chromium's headless shell (package chromium-headless-shell), which the tests,
 *   `npm run shots` and `npm run audit` drive. The same Blink, V8 and software rasteriser as the
 *   full browser, without its browser UI layer: every browser test passed on both, and the browser
 *   layer took 308 s on it against 360 s on the full browser, run after run on one quiet 2-core
 *   machine (the browser process used 63 s of CPU against 132 s).
 * - CHROMIUM, the full browser a learner runs, which the bench and the soak measure.
 * Either runs with the flags it needs headless as root on a machine with no network.
 */
export const HEADLESS_SHELL = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--allow-file-access-from-files',
];

/**
 * Features turned off beside playwright-core's own list. WebUIOmniboxPopup and
 * WebUIOmniboxAimPopup: every new headless window otherwise starts a renderer
 * for the address bar's popup (chrome://omnibox-popup.top-chrome), which on a
 * 2-core machine took about half the CPU while a page loaded: the first lesson
 * measured 684 ms interactive with it and 367-407 ms without (npm run bench).
 * A browser a learner already has open built that popup long before. (The
 * headless shell has no address bar; there the two names change nothing.)
 */
const EXTRA_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
/**
 * The --disable-features switch playwright-core (the version in package-lock)
 * passes. Chromium keeps only the last --disable-features on its command line,
 * so launches drop this one (ignoreDefaultArgs, an exact match) and pass one
 * switch with both lists. tests/e2e/chromium-flags.test.js reads the running
 * browser's command line and fails if two such switches ever reach it (a new
 * playwright-core with a different list: copy its list here).
 */
export const PLAYWRIGHT_DISABLE_FEATURES =
  '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,' +
  'HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,' +
  'AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,' +
  'AimEnabled,PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion';

/**
 * Options for chromium.launch() and chromium.launchPersistentContext():
 * `executablePath` (the headless shell unless told: CHROMIUM for the full
 * browser), headless, with CHROMIUM_ARGS, the merged feature list and
 * `extraArgs`.
 * @param {string[]} [extraArgs] @param {{ executablePath?: string }} [options]
 */
export function chromiumLaunchOptions(extraArgs = [], { executablePath = HEADLESS_SHELL } = {}) {
  return {
    executablePath,
    headless: true,
    ignoreDefaultArgs: [PLAYWRIGHT_DISABLE_FEATURES],
    args: [...CHROMIUM_ARGS, `${PLAYWRIGHT_DISABLE_FEATURES},${EXTRA_DISABLED_FEATURES.join(',')}`, ...extraArgs],
  };
}
