/**
 * The page's Content-Security-Policy, read rather than tripped: what needs a source a strict
 * policy may refuse (a blob: worker, a blob: image) asks first and falls back or says why, so
 * the page reports no violation (README.md, "Embedding": default-src 'self'; script-src 'self'
 * 'wasm-unsafe-eval' allows neither).
 *
 *   await pageAllows(['worker-src', 'child-src', 'script-src', 'default-src'], 'blob:')
 *   await pageAllows(['img-src', 'default-src'], 'blob:')
 *
 * The policies are the page's <meta http-equiv> tags and, over http(s), its own response
 * headers (one HEAD request, once: the page's policy does not change).
 */

let policiesPromise;

/** The page's CSPs (each a string), asked once. @returns {Promise<string[]>} */
export function pagePolicies() {
  policiesPromise ??= readPolicies();
  return policiesPromise;
}

async function readPolicies() {
  const policies = [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]')].map(
    (meta) => meta.content,
  );
  if (/^https?:$/.test(location.protocol)) {
    try {
      const response = await fetch(location.href, { method: 'HEAD', credentials: 'same-origin' });
      const header = response.headers.get('Content-Security-Policy');
      if (header) policies.push(...header.split(','));
    } catch {
      // offline or refused: judge by the meta tags alone
    }
  }
  return policies;
}

/**
 * Whether one policy allows `source` (a scheme such as 'blob:') for a fetch governed by the first
 * of `directives` it has (the fallback order of CSP: e.g. img-src, then default-src).
 * @param {string} policy @param {string[]} directives @param {string} source
 */
export function policyAllows(policy, directives, source) {
  const found = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name.toLowerCase(), sources.map((s) => s.toLowerCase())]),
  );
  const governing = directives.find((name) => found.has(name));
  return !governing || found.get(governing).includes(source.toLowerCase());
}

/** Whether every policy of the page allows `source` under `directives` (see policyAllows). */
export async function pageAllows(directives, source) {
  return (await pagePolicies()).every((policy) => policyAllows(policy, directives, source));
}
