/**
 * The heads of the trainer lab's model (lesson learning-to-attend): the attention of one head as
 * rows, what the checks read from the attention, the lab's checks, and where a row looks most. No
 * DOM. Unit-tested in Node (tests/js/labs-learning-to-attend.test.js).
 */

/**
 * One head's weights from predict's attention (layers, heads, T, T; a { data, shape } tensor) as
 * rows of numbers.
 */
export function headRows(attention, layer, head) {
  const [, H, T] = attention.shape;
  const start = (layer * H + head) * T * T;
  return Array.from({ length: T }, (_, r) => Array.from(attention.data.subarray(start + r * T, start + (r + 1) * T)));
}

/**
 * What the lab verifies about predict's attention (layers, heads, T, T): every row sums to 1 and
 * no weight falls on a later position (causal). { maxRowSumError, maxFutureWeight }.
 */
export function attentionFacts(attention) {
  const T = attention.shape[2];
  let maxRowSumError = 0;
  let maxFutureWeight = 0;
  for (let start = 0; start < attention.data.length; start += T) {
    const row = (start / T) % T;
    let sum = 0;
    for (let c = 0; c < T; c++) {
      const w = attention.data[start + c];
      sum += w;
      if (c > row) maxFutureWeight = Math.max(maxFutureWeight, Math.abs(w));
    }
    maxRowSumError = Math.max(maxRowSumError, Math.abs(sum - 1));
  }
  return { maxRowSumError, maxFutureWeight };
}

/**
 * The lab's checks, as data for checkCells (cells/base/lab.js). `python`: each in the names of the
 * lab's PyTorch cell (maps: every layer's weights on its probe), for the lesson's notebook.
 */
export function trainerChecks(attention) {
  const facts = attentionFacts(attention);
  return [
    {
      name: 'row-sums',
      label: 'max |row sum − 1| over every head’s weights on the probe',
      threshold: 1e-5,
      value: facts.maxRowSumError,
      python: 'max((m.sum(-1) - 1).abs().max().item() for m in maps)',
    },
    {
      name: 'causal',
      label: 'largest weight on a later position (causal mask)',
      comparison: 'eq',
      threshold: 0,
      value: facts.maxFutureWeight,
      python: 'max(m.triu(1).abs().max().item() for m in maps)',
    },
  ];
}

/** Where row `row` of a head puts most of its weight: { col, weight }. */
export function strongestKey(rows, row) {
  let col = 0;
  rows[row].forEach((w, c) => {
    if (w > rows[row][col]) col = c;
  });
  return { col, weight: rows[row][col] };
}
