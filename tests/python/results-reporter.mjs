// A node:test reporter that writes one JSON line per test that ended: { name, nesting, ok, error },
// `error` the message the test failed with (its assertion's message), or null. Used by
// inline-code-fixture.test.js to read what code-cells.test.js reported on a fixture course.
export default async function* resultsReporter(source) {
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const error = data.details?.error;
    const failure = error ? (error.cause ?? error) : null;
    yield `${JSON.stringify({
      name: data.name,
      nesting: data.nesting,
      ok: type === 'test:pass',
      error: failure ? String(failure.message ?? failure) : null,
    })}\n`;
  }
}
