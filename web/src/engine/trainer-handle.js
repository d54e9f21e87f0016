/**
 * A trainer held elsewhere (in the engine's Web Worker, or runtime.js's main-thread stand-in),
 * seen from the caller: every Trainer method as a promise, and step() with progress and cancel.
 *
 *   const t = await engine.createTrainer({ task: 'reverse', seed: 1 });
 *   const controller = new AbortController();
 *   await t.step(500, { onProgress: ({ done, count, step, loss }) => …, signal: controller.signal });
 *   await t.evaluate();  await t.dispose();
 *
 * step(count, { onProgress, signal }) runs in chunks where the trainer lives and reports
 * { done, count, step, loss } after each. controller.abort() or t.cancel() stops it between two
 * chunks: it rejects with an AttentionError of kind 'Cancelled', and the trainer stays at the last
 * completed step (the rejection's message says which). Cancelling one trainer never touches
 * another. Calls on one trainer run in the order they were made.
 * No imports of the wasm engine: worker-client.js uses this without loading it.
 */
import { AttentionError, describe } from './errors.js';

/** The members of a handle (worker-client.d.ts's WorkerTrainer). */
export const TRAINER_HANDLE_MEMBERS = Object.freeze([
  'config',
  'task',
  'step',
  'evaluate',
  'sample',
  'predict',
  'setHeadEnabled',
  'parameters',
  'exportState',
  'encode',
  'decode',
  'unknownCharacters',
  'copyingProbe',
  'ovCircuit',
  'qkCircuit',
  'dispose',
  'cancel',
]);

const cancelledBeforeStart = () =>
  new AttentionError('step: cancelled before it started (the signal was already aborted)', { kind: 'Cancelled' });

/**
 * @param {{ trainer: number, config: object, task: object }} info what createTrainer answered
 * @param {{ request(op: string, args: unknown[], onProgress?: (p: object) => void): { id: unknown, promise: Promise<any> }, cancel(id: unknown): void }} link
 */
export function trainerHandle({ config, task }, { request, cancel }) {
  const steps = new Set(); // ids of this trainer's step calls not yet settled
  const call =
    (op) =>
    (...args) =>
      request(op, args).promise;
  const stopSteps = () => steps.forEach((id) => cancel(id));
  return {
    /** The resolved config, as Trainer.config. */
    config,
    /** The task's entry of trainingTasks(), as Trainer.task. */
    task,
    /** Runs count steps in chunks; see the top of this file. */
    step(count = 1, options = {}) {
      if (options === null || typeof options !== 'object') {
        return Promise.reject(
          new AttentionError(
            `step: options must be an object such as { onProgress, signal }, got ${describe(options)}`,
            {
              kind: 'TypeError',
            },
          ),
        );
      }
      const { onProgress = null, signal = null } = options;
      if (onProgress !== null && typeof onProgress !== 'function') {
        return Promise.reject(
          new AttentionError(`step: onProgress must be a function, got ${describe(onProgress)}`, { kind: 'TypeError' }),
        );
      }
      if (signal?.aborted) return Promise.reject(cancelledBeforeStart());
      const { id, promise } = request('step', [count], onProgress ?? undefined);
      steps.add(id);
      const abort = () => cancel(id);
      signal?.addEventListener('abort', abort, { once: true });
      return promise.finally(() => {
        steps.delete(id);
        signal?.removeEventListener('abort', abort);
      });
    },
    evaluate: call('evaluate'),
    sample: call('sample'),
    predict: call('predict'),
    setHeadEnabled: call('setHeadEnabled'),
    parameters: call('parameters'),
    exportState: call('exportState'),
    encode: call('encode'),
    decode: call('decode'),
    unknownCharacters: call('unknownCharacters'),
    copyingProbe: call('copyingProbe'),
    ovCircuit: call('ovCircuit'),
    qkCircuit: call('qkCircuit'),
    /** Cancels this trainer's steps, then frees it; later calls reject ("…: this trainer was disposed"). */
    dispose() {
      stopSteps();
      return request('dispose', []).promise;
    },
    /** Cancels this trainer's running and queued steps (each rejects with kind 'Cancelled'). */
    cancel: stopSteps,
  };
}
