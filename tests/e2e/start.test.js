// npm start's server: prints the URL and the single file's path, and serves the lessons there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('start serves dist/site on 127.0.0.1 and prints the URL and the single-file path', async (t) => {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: root,
    env: { ...process.env, PORT: '0' },
  });
  t.after(() => child.kill());
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // Started once the single file's whole line is out (the URL's comes before it), or exited.
  const started = await new Promise((resolve) => {
    const onData = () => /offline single file:\s+\S+\n/.test(output) && resolve(true);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', () => resolve(false));
  });
  assert.ok(started, `start exited early:\n${output}`);

  const url = output.match(/running at\s+(http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
  assert.ok(url, `no URL in:\n${output}`);
  const file = output.match(/offline single file:\s+(\S+)/)?.[1];
  assert.ok(path.isAbsolute(file), `the single-file path ${file} is not absolute`);
  await access(file);

  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.match(await response.text(), /<attn-app>/); // the shell; lessons are in the bundle
});

test('start refuses a malformed PORT with a clear message', async () => {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: root,
    env: { ...process.env, PORT: 'eighty' },
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 1);
  assert.match(output, /PORT must be a whole number from 0 to 65535, got "eighty"/);
});
