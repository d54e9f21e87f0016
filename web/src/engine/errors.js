/**
 * The one error type of the engine. Every bad input, whether caught in JS or
 * in the C++ core, surfaces as an AttentionError with a message naming what
 * was wrong; `kind` says which class of problem it was.
 */
export class AttentionError extends Error {
  /**
   * @param {string} message what was wrong, where, and the offending value
   * @param {{ kind?: string }} [options] 'ShapeError' | 'ValueError' | 'MemoryError' | 'TypeError' | 'Error'
   */
  constructor(message, { kind = 'Error' } = {}) {
    super(message);
    this.name = 'AttentionError';
    this.kind = kind;
  }
}

/**
 * The error a request ends with when it was stopped or replaced before it finished: kind
 * 'Cancelled', which cells and labs treat as "not a failure, nothing to show".
 * @param {string} why what stopped it ("a newer request replaced it")
 */
export const cancelledError = (why) => new AttentionError(`cancelled: ${why}`, { kind: 'Cancelled' });

/**
 * Throws an AttentionError: the one way the engine's JS checks refuse an input.
 * @param {string} message what was wrong, naming the argument and the offending value
 * @param {string} [kind] 'TypeError' (the default: a value of the wrong JS type) or 'ShapeError', 'ValueError'
 * @returns {never}
 */
export function fail(message, kind = 'TypeError') {
  throw new AttentionError(message, { kind });
}

/** A short description of a value for error messages: its type, and the value when small. */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value === 'object' ? 'an object' : String(typeof value);
}

/**
 * A core error message with the C++ names in it (snake_case: convex_combination,
 * hull_points) spelled as this API spells them (convexCombination, hullPoints). Parts of a dotted
 * parameter name (final_ln.gain, layer0.mlp.b_in: the names Trainer.parameters() uses) stay as
 * they are.
 * @param {string} message
 */
export function jsNames(message) {
  return message.replace(/(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!\.\w)/g, (name) =>
    name.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase()),
  );
}

/**
 * Runs the body of method `name`, so that every error it throws starts with the method's name, as
 * the core's own messages do ("softmax: logits[1] is NaN"): the checks in index.js, trainer.js,
 * tensor.js and mask.js name only the argument ("x[1] has 2 values but x[0] has 3").
 * @template T @param {string} name @param {() => T} body @returns {T}
 */
export function named(name, body) {
  try {
    return body();
  } catch (error) {
    if (error instanceof AttentionError && !error.message.startsWith(`${name}: `)) {
      error.message = `${name}: ${error.message}`;
    }
    throw error;
  }
}

// The bindings return a result or { error, kind }; the latter becomes an AttentionError in this
// API's words (the core names its C++ functions and parameters: points_in_hull, hull_points).
export function unwrap(result) {
  if (result && typeof result.error === 'string') {
    throw new AttentionError(jsNames(result.error), { kind: result.kind });
  }
  return result;
}
