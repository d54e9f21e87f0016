// Every code cell a lesson shows runs in Python as written, in the lesson's own
// state and in edited ones. The built site (dist/site, strict CSP) is opened in
// headless Chromium; for each lesson, every attn-code element inside its cells
// is read (its `code` property), first as the lesson opens, then after each
// edit of its cell's state fields (see states() below). So is every attn-code
// written in the lesson's text itself (the page's light DOM): one wired to a
// cell (for="<id>") with that cell's states, one on its own as the lesson opens
// (it has no state). Identical texts are
// run once: one test per (lesson, code cell, distinct text), named by the
// first state that showed it, run by Debian's Python (tests/python/run_cells.py:
// one runner, each run in a process forked from it, two at a time).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { launch, lessonIds, openGates, serveSite, watch } from '../e2e/browser.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PYTHON = '/usr/bin/python3'; // Debian's, with NumPy, SciPy, Matplotlib and PyTorch
const CELL_TIMEOUT_S = 180; // one cell, on a busy 2-core machine
const NEEDS = /^# needs: ([A-Za-z][\w-]*)\s*$/; // a cell's first line: run that lesson cell's code first

/**
 * Waits until `cells` (the handle of a lesson cell, or of a list of them) have drawn their current
 * state: each one's `data-settled` attribute, which a state change removes at once and which comes
 * back when the new state is drawn and every cell nested in it (its code cells included) has
 * settled. Bounded by `timeout` ms, so a cell that never settles fails its lesson.
 */
async function settled(cells, timeout = 60000) {
  await cells.evaluate(
    (found, limit) =>
      Promise.all(
        [found].flat().map(
          (host) =>
            host.hasAttribute('data-settled') ||
            new Promise((resolve, reject) => {
              const observer = new MutationObserver(() => {
                if (!host.hasAttribute('data-settled')) return;
                observer.disconnect();
                clearTimeout(timer);
                resolve(true);
              });
              observer.observe(host, { attributes: true, attributeFilter: ['data-settled'] });
              const timer = setTimeout(() => {
                observer.disconnect();
                reject(new Error(`${host.id || host.localName} did not settle within ${limit / 1000} s`));
              }, limit);
            }),
        ),
      ),
    timeout,
  );
}

/**
 * The code cells of a lesson cell, in order: every attn-code in its shadow tree, then the ones the
 * lesson's text wires to it (`wired`, a handle of a list; see wiredCodes), or, for an attn-code
 * written in the lesson's text on its own, itself. [{ label, code, inline }], the printed
 * outputs in its shadow tree, and `refused`: the input error a lab shows instead of a result
 * (LabTask's error, e.g. an attention cell's keys and values of different lengths), or ''.
 */
function readCodes(cell, wired) {
  return cell.evaluate((host, inline) => {
    const codes = [];
    const printed = [];
    const read = (el, inText) => ({
      label: el.label || `${el.language === 'python' ? 'Python' : el.language} code`, // as its header says
      code: el.code,
      inline: inText,
    });
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === 'attn-code') codes.push(read(el, false));
        if (el.localName === 'attn-output') printed.push(String(el.text ?? ''));
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    if (host.localName === 'attn-code') codes.push(read(host, true));
    else if (host.shadowRoot) walk(host.shadowRoot);
    for (const el of inline) codes.push(read(el, true));
    return { codes, printed, refused: host.task?.error || '' };
  }, wired);
}

/**
 * The attn-code elements written in the lesson's text (not inside a cell's shadow tree) that are
 * wired to `cell` (for="<its id>"): their code follows its state. A handle of a list, in document order.
 */
function wiredCodes(cell) {
  return cell.evaluateHandle((host) =>
    host.id
      ? [...document.querySelectorAll('.lesson-body attn-code')].filter((el) => el !== host && el.for === host.id)
      : [],
  );
}

const round = (x) => Number(x.toPrecision(4));

/**
 * The values a numeric spec is tried at, in ascending order: both ends and one
 * inside (a fraction for `number`, the middle for `integer`). An infinite end is tried as is:
 * state-fields.js accepts a declared infinite bound (softmax temperature = ∞
 * is a state a learner can set); the value inside is then taken 2.5 away from
 * the finite end.
 */
function numericValues(spec, integer) {
  const { min, max } = spec;
  let inside;
  if (Number.isFinite(min) && Number.isFinite(max)) {
    inside = integer ? Math.round((min + max) / 2) : round(min + 0.3 * (max - min));
    if (!integer && Number.isInteger(inside)) inside += inside + 0.5 <= max ? 0.5 : -0.5;
  } else if (Number.isFinite(min)) inside = min + (integer ? 2 : 2.5);
  else if (Number.isFinite(max)) inside = max - (integer ? 2 : 2.5);
  else inside = integer ? 1 : 0.5;
  return [...new Set([min, inside, max])].sort((a, b) => a - b);
}

const text = (value, spec) => {
  if (spec.type === 'boolean') return value ? '1' : '0';
  if (spec.type === 'numbers') return value.map(String).join(',');
  if (spec.type === 'matrix' || (spec.type === 'mask' && Array.isArray(value))) {
    return value.map((row) => row.map(String).join(',')).join(';');
  }
  return String(value);
};

/** Cycles `items` to `n` entries (a list grown or cut to a length). */
const resize = (items, n) => Array.from({ length: n }, (_, i) => structuredClone(items[i % items.length]));

/**
 * The edits tried on a cell: each numeric field in turn (numbers and integers
 * at both ends and inside; lists and matrices with every entry at each of
 * those values, and at their shortest and longest length, entries repeated
 * from the lesson's), each boolean and enum at each of its values, and each
 * numeric edit again with each boolean and enum value (a mask painted only
 * counts under the preset 'custom', a window only under the mask 'window').
 * Every other field keeps the lesson's value. Returns [{ name, fields }], the
 * fields as text, as a permalink would set them.
 */
function states(fields, base) {
  const numeric = [];
  const discrete = [];
  for (const [name, spec] of Object.entries(fields)) {
    const integer = spec.type === 'integer' || spec.integer === true; // a list or matrix may hold whole numbers only
    const values = ['number', 'integer', 'numbers', 'matrix'].includes(spec.type) ? numericValues(spec, integer) : [];
    if (spec.type === 'number' || spec.type === 'integer') {
      for (const v of values) numeric.push({ name: `${name}=${v}`, fields: { [name]: text(v, spec) } });
    } else if (spec.type === 'numbers') {
      const lengths = [spec.minLength ?? 1, spec.maxLength ?? 4096];
      for (const v of values) {
        const list = base[name].map(() => v);
        numeric.push({ name: `${name}=[every entry ${v}]`, fields: { [name]: text(list, spec) } });
      }
      for (const n of lengths.filter((n) => n !== base[name].length)) {
        numeric.push({ name: `${name} with ${n} entries`, fields: { [name]: text(resize(base[name], n), spec) } });
      }
    } else if (spec.type === 'matrix') {
      const rows = [spec.minRows ?? 1, spec.maxRows ?? 4096];
      for (const v of values) {
        const m = base[name].map((row) => row.map(() => v));
        numeric.push({ name: `${name}=[every entry ${v}]`, fields: { [name]: text(m, spec) } });
      }
      for (const n of rows.filter((n) => n !== base[name].length)) {
        numeric.push({ name: `${name} with ${n} rows`, fields: { [name]: text(resize(base[name], n), spec) } });
      }
    } else if (spec.type === 'boolean' || spec.type === 'enum' || spec.type === 'mask') {
      // an attention cell's mask (cells/figures/attention-model.js): 'none', 'causal' or the lesson's rows of 0/1
      const choices = { boolean: [false, true], enum: spec.values, mask: ['none', 'causal'] }[spec.type];
      discrete.push(...choices.map((v) => ({ name: `${name}=${v}`, fields: { [name]: text(v, spec) } })));
    } else {
      throw new Error(`field ${name}: no edits defined for type ${spec.type}`);
    }
  }
  // grouped by the discrete value, and numeric values in ascending order: a trainer's `steps` edits
  // of one configuration come one after another, each going on from the last (0, then half-way,
  // then the end), instead of retraining from the start each time
  const crossed = discrete.flatMap((d) =>
    numeric.map((n) => ({ name: `${n.name}, ${d.name}`, fields: { ...n.fields, ...d.fields } })),
  );
  return [...discrete, ...numeric, ...crossed];
}

/** An expected error the page itself prints for this state (its "Printed output"), e.g. AssertionError: ... */
function expectedError(printed) {
  for (const out of printed) {
    const line = out
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /^\w+(Error|Exception): /.test(l));
    if (line) {
      const at = line.indexOf(': ');
      return { error: line.slice(0, at), message: line.slice(at + 2) };
    }
  }
  return null;
}

/**
 * Opens `lessonId` and collects every code text of every cell in every state.
 * @returns {Promise<Array<{ cell: string, index: number, label: string, state: string, code: string,
 *   printed: string[] }>>} `printed`: the texts of the cell's printed outputs (attn-output) in that state
 */
async function collect(browser, server, lessonId) {
  const page = await browser.context.newPage();
  const { problems } = watch(page);
  try {
    await page.goto(`${server.url}#/${lessonId}`);
    await page.locator('.lesson-body').waitFor();
    const cells = await page.evaluateHandle(() =>
      [...document.querySelectorAll('.lesson-body *')].filter(
        (el) => el.localName.startsWith('attn-') && typeof el.getState === 'function',
      ),
    );
    const count = await cells.evaluate((list) => list.length);
    const found = []; // [{ cell, index, label, inline, state, code, printed }]
    for (let i = 0; i < count; i++) {
      const cell = await cells.evaluateHandle((list, n) => list[n], i);
      // a code cell in the lesson's text wired to a cell of the lesson is read with that cell, in its states
      const withItsCell = await cells.evaluate((list, n) => {
        const el = list[n];
        return el.localName === 'attn-code' && Boolean(el.for) && list.includes(document.getElementById(el.for));
      }, i);
      if (withItsCell) continue;
      const wired = await wiredCodes(cell);
      const id = await cell.evaluate(
        (el) => el.id || `${el.localName} #${[...document.querySelectorAll(el.localName)].indexOf(el)}`,
      );
      // a cell in an exercise's explanation is shown as a learner shows it: an attempt (the
      // explanation is offered only after one), then Show explanation
      await cell.evaluate(async (el) => {
        const exercise = el.closest('attn-exercise');
        if (!exercise || el.checkVisibility()) return;
        const showButton = () =>
          [...exercise.shadowRoot.querySelectorAll('button')].find((b) =>
            /^Show explanation$/.test(b.textContent.trim()),
          );
        if (!showButton()) {
          await exercise.submit(exercise.getAttempt?.());
          await exercise.updateComplete;
        }
        showButton()?.click();
      });
      await openGates(cell); // a cell held back for an exercise shows once it is attempted
      await cell.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      // the code cells wired to it draw once it has (their update follows each of its updates)
      const drawn = async () => {
        await settled(cell);
        await settled(wired);
      };
      await drawn();
      const first = await readCodes(cell, wired);
      if (first.codes.length === 0) continue; // no code cell: its state reaches no Python
      // A code cell in the lesson's text runs without an error (a printed error belongs to the cell's
      // own code), in the states its cell computes: where the cell refuses the inputs instead (its
      // input error in their place), the code it feeds is not run.
      const record = (state, { codes, printed, refused }) =>
        codes.forEach(({ label, code, inline }, index) => {
          if (inline && refused && state !== 'as the lesson opens') return;
          found.push({ cell: id, index, label, inline, state, code, printed: inline ? [] : printed });
        });
      record('as the lesson opens', first);

      const fields = await cell.evaluate((el) => el.constructor.stateFields);
      const base = await cell.evaluate((el) => el.getState());
      // a field the lesson leaves unset (null: automatic, e.g. a bar chart's max) has no text; it stays
      // unset unless the state sets it
      const unset = Object.keys(fields).filter((n) => base[n] === null);
      const baseText = Object.fromEntries(
        Object.entries(fields)
          .filter(([n]) => !unset.includes(n))
          .map(([n, spec]) => [n, text(base[n], spec)]),
      );
      const setState = (texts) =>
        cell.evaluate(
          (el, { texts, unset }) => {
            try {
              el.setStateFromText(texts);
              for (const n of unset) if (!(n in texts)) el[n] = null;
              return null;
            } catch (error) {
              return error.message;
            }
          },
          { texts, unset },
        );
      for (const state of states(fields, base)) {
        const outcome = await setState({ ...baseText, ...state.fields });
        if (outcome !== null) throw new Error(`${id}: the state ${state.name} is refused: ${outcome}`);
        await drawn();
        record(state.name, await readCodes(cell, wired));
      }
      const outcome = await setState(baseText);
      if (outcome !== null) throw new Error(`${id}: the lesson's own state is refused: ${outcome}`);
      await drawn();
    }
    assert.deepEqual(problems, [], `${lessonId}: the page reported problems`);
    return found;
  } finally {
    await page.close();
  }
}

/**
 * The runs for one lesson: each code text once per code cell, with the code
 * of the cell it needs (its first line `# needs: <cell id>`) run first: the
 * needed cell's code cells as the lesson opens (all of them, or the ones
 * before this one when it names its own cell, in the same state).
 */
function plan(lessonId, found) {
  const runs = new Map();
  for (const f of found) {
    const programs = [];
    const needs = f.code.split('\n')[0].match(NEEDS)?.[1];
    if (needs) {
      const same = needs === f.cell;
      const before = found.filter((g) =>
        same
          ? g.cell === f.cell && g.state === f.state && g.index < f.index
          : g.cell === needs && g.state === 'as the lesson opens',
      );
      if (before.length === 0) throw new Error(`${lessonId}/${f.cell}: needs ${needs}, which shows no code`);
      programs.push(...before.map((g) => g.code));
    }
    programs.push(f.code);
    const expected = expectedError(f.printed);
    const key = JSON.stringify([f.cell, f.index, programs, expected]);
    const run = runs.get(key);
    if (run) run.states.push(f.state);
    else {
      runs.set(key, {
        key: String(runs.size),
        cell: f.cell,
        index: f.index,
        label: f.label,
        inline: f.inline,
        states: [f.state],
        programs,
        expected,
      });
    }
  }
  return [...runs.values()];
}

/**
 * The one Python runner (run_cells.py) for the whole file: it imports NumPy, PyTorch and Matplotlib
 * once and runs each job in a process forked from itself, two at a time. `run(jobs)` sends jobs and
 * resolves to Map(key -> result) once all of them are back; `close()` ends its input and waits for it
 * to exit. If the runner itself dies, every job still out is rejected with its last stderr.
 */
function startRunner() {
  const child = spawn(PYTHON, [path.join(here, 'run_cells.py')], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, MPLBACKEND: 'Agg', PYTHONDONTWRITEBYTECODE: '1', PYTHONHASHSEED: '0' },
  });
  const waiting = new Map(); // key -> { resolve, reject }
  let err = '';
  let out = '';
  let sent = 0;
  const exited = new Promise((resolve) => child.on('close', resolve));
  const fail = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.stderr.on('data', (d) => (err = (err + d).slice(-3000)));
  child.stdout.on('data', (d) => {
    const lines = (out + d).split('\n');
    out = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const result = JSON.parse(line); // run_cells.py keeps its stdout for results
      waiting.get(result.key)?.resolve(result);
      waiting.delete(result.key);
    }
  });
  child.on('error', fail);
  child.stdin.on('error', () => {}); // EPIPE once the runner has died: 'close' below reports it, with its stderr
  exited.then((code) => fail(new Error(`${PYTHON} run_cells.py exited with ${code}:\n${err}`)));
  return {
    run(jobs) {
      const keyed = jobs.map((job) => ({ ...job, key: `${sent++}:${job.key}` }));
      const results = keyed.map((job) => new Promise((resolve, reject) => waiting.set(job.key, { resolve, reject })));
      for (const job of keyed) {
        child.stdin.write(`${JSON.stringify({ key: job.key, programs: job.programs, timeout: CELL_TIMEOUT_S })}\n`);
      }
      return Promise.all(results).then((list) => new Map(list.map((r, i) => [jobs[i].key, r])));
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}

/** A code cell by its place: "code cell 2 (PyTorch)", "… (NumPy, in the lesson text)" for one written there. */
const codeCellName = (run) => `code cell ${run.index + 1} (${run.label}${run.inline ? ', in the lesson text' : ''})`;

function report(lessonId, run, result) {
  const where = `${lessonId} / ${run.cell} / ${codeCellName(run)}`;
  const states =
    run.states.length > 3
      ? `${run.states.slice(0, 3).join('; ')}; … (${run.states.length} states)`
      : run.states.join('; ');
  const got = result.ok ? 'ran without an error' : `raised ${result.error}: ${result.message}`;
  const want = run.expected
    ? `raise ${run.expected.error}: ${run.expected.message}, as the page's printed output says`
    : 'run without an error';
  return [
    `${where}, state: ${states}`,
    `expected it to ${want}; it ${got}`,
    result.traceback ? `traceback (last lines):\n${result.traceback}` : `output (last lines):\n${result.output}`,
    `code:\n${run.programs.at(-1)}`,
  ].join('\n\n');
}

// Every lesson's code is collected in the browser, two lessons at a time (each slot its own
// Chromium), the course's last lessons first: their labs (training, scaling runs) take longest to
// collect, and starting them first keeps both slots busy to the end. Each lesson's runs go to the
// Python runner as soon as they are collected; it runs two at a time, so one lesson's many PyTorch
// variants use both cores. Each run is one test.
const SLOTS = 2;
const lessons = [];
const python = startRunner();
after(() => python.close());
/** `runs` sent to the runner; resolves to one Map(key -> result). */
function enqueue(runs) {
  const ran = python.run(runs);
  ran.catch(() => {}); // a failure is reported by each test of the lesson, not as an unhandled rejection
  return ran;
}
{
  const only = process.env.CODE_CELLS_LESSONS?.split(',').filter(Boolean); // e.g. retrieval,multi-head
  const ids = (await lessonIds()).filter((l) => !only || only.includes(l));
  const todo = [...ids].reverse();
  const found = new Map(); // id -> { id, runs, ran } or { id, error }
  const server = await serveSite();
  try {
    await Promise.all(
      Array.from({ length: Math.min(SLOTS, todo.length) }, async () => {
        const browser = await launch();
        try {
          for (let id = todo.shift(); id !== undefined; id = todo.shift()) {
            const started = performance.now();
            try {
              const runs = plan(id, await collect(browser, server, id));
              found.set(id, { id, runs, ran: enqueue(runs) });
            } catch (error) {
              found.set(id, { id, error });
            }
            if (process.env.CODE_CELLS_VERBOSE)
              console.error(`${id}: collected in ${((performance.now() - started) / 1000).toFixed(1)} s`);
          }
        } finally {
          await browser.close();
        }
      }),
    );
  } finally {
    await server.close();
  }
  lessons.push(...ids.map((id) => found.get(id))); // reported in course order
}

for (const lesson of lessons) {
  describe(lesson.id, () => {
    if (lesson.error) {
      test('its code cells can be collected', () => {
        throw lesson.error;
      });
      return;
    }
    for (const run of lesson.runs) {
      const name = `${run.cell}, ${codeCellName(run)}, ${run.states[0]}${run.states.length > 1 ? ` (+${run.states.length - 1} states, same code)` : ''}`;
      test(name, async () => {
        const result = (await lesson.ran).get(run.key);
        assert.ok(result, `${lesson.id}/${run.cell}: the Python runner returned nothing for this cell`);
        const ok = run.expected
          ? !result.ok && result.error === run.expected.error && result.message === run.expected.message
          : result.ok;
        assert.ok(ok, report(lesson.id, run, result));
      });
    }
  });
}

// The cells are checked against F.scaled_dot_product_attention as PyTorch 2
// defines it; on an older PyTorch the runner supplies it, so check that too.
const SDPA_CHECK = `import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)
q, k, v = torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 6)   # L = 3 queries, S = 5 keys

def reference(bias, scale):
    return torch.softmax(q @ k.transpose(-2, -1) * scale + bias, dim=-1) @ v

s, zero, inf = 1 / math.sqrt(4), torch.zeros(3, 5), float('inf')
close = lambda a, b: torch.allclose(a, b, atol=1e-6)
assert close(F.scaled_dot_product_attention(q, k, v), reference(zero, s)), 'default scale 1/sqrt(E)'
assert close(F.scaled_dot_product_attention(q, k, v, scale=0.3), reference(zero, 0.3)), 'scale='
top_left = torch.ones(3, 5, dtype=torch.bool).tril()   # query i sees keys 0..i
assert close(F.scaled_dot_product_attention(q, k, v, is_causal=True), reference(zero.masked_fill(~top_left, -inf), s)), 'is_causal'
allowed = torch.tensor([[1, 0, 1, 0, 1], [0, 1, 1, 1, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
assert close(F.scaled_dot_product_attention(q, k, v, attn_mask=allowed), reference(zero.masked_fill(~allowed, -inf), s)), 'bool mask: True may attend'
bias = torch.randn(3, 5)
assert close(F.scaled_dot_product_attention(q, k, v, attn_mask=bias), reference(bias, s)), 'float mask is added'
print('ok')`;

test("F.scaled_dot_product_attention, as the runner's Python has it, follows PyTorch 2's definition", async () => {
  const result = (await python.run([{ key: 'sdpa', programs: [SDPA_CHECK] }])).get('sdpa');
  assert.ok(result?.ok, `${result?.error}: ${result?.message}\n${result?.traceback}`);
  assert.equal(result.output, 'ok');
});
