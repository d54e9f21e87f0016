/**
 * Hash routes (they work from file:// and need no server):
 *
 *   #/                                   the lesson list
 *   #/<lesson-id>                        a lesson
 *   #/<lesson-id>?<cell>.<field>=<text>&…   a lesson with cells set (a permalink)
 *   …&embed=1                            embed mode: only the lesson, height posted to the parent
 *
 * parseHash() only splits and percent-decodes; it never evaluates anything.
 * Problems (bad percent-encoding, a key that is not cell.field, an over-long
 * link) are returned as `issues`, short plain-text messages for a notice.
 */

export const MAX_QUERY = 100000; // characters of settings in one link
const MAX_SHOWN = 40; // characters of untrusted text quoted in a message

/** Untrusted text shortened for a message. */
export function clip(text, max = MAX_SHOWN) {
  const s = String(text);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * @param {string} hash location.hash
 * @returns {null | { page: 'home' | 'lesson', lessonId: string | null, params: { cell: string, field: string, text: string }[], embed: boolean, issues: string[] }}
 *   null when the hash is not a route (e.g. '#main'); '' is the home page.
 */
export function parseHash(hash) {
  const raw = String(hash ?? '').replace(/^#/, '');
  if (raw !== '' && !raw.startsWith('/')) return null;
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  const route = { page: 'home', lessonId: null, params: [], embed: false, issues: [] };

  const segment = pathPart.replace(/^\/+|\/+$/g, '');
  if (segment !== '') {
    route.page = 'lesson';
    route.lessonId = decode(segment) ?? segment;
  }

  if (query.length > MAX_QUERY) {
    route.issues.push(`the link's settings are too long (${query.length} characters), so none were used`);
    return route;
  }
  let embedSeen = false;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const key = decode(rawKey);
    const text = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (key === null || text === null) {
      route.issues.push(`${clip(key ?? rawKey)}: not valid percent-encoding`);
      continue;
    }
    if (key === 'embed') {
      if (embedSeen) route.issues.push('embed: given more than once (the first one counts)');
      else if (text === '1' || text === 'true') route.embed = true;
      else if (text !== '0' && text !== 'false') route.issues.push(`embed: "${clip(text)}" is not 1 or 0`);
      embedSeen = true;
      continue;
    }
    const dot = key.indexOf('.');
    if (dot <= 0 || dot === key.length - 1) {
      route.issues.push(`${clip(key)}: not a cell setting (expected cell.field=value)`);
      continue;
    }
    route.params.push({ cell: key.slice(0, dot), field: key.slice(dot + 1), text });
  }
  return route;
}

// Percent-encode, but keep the list separators readable: #/l?t.logits=1,2,3
const encode = (text) => encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%3B/gi, ';');

/**
 * The hash for a lesson and its cells' settings.
 * @param {string} lessonId
 * @param {{ cell: string, field: string, text: string }[]} params
 * @param {{ embed?: boolean }} options
 */
export function buildHash(lessonId, params = [], { embed = false } = {}) {
  const parts = params.map(({ cell, field, text }) => `${encode(cell)}.${encode(field)}=${encode(text)}`);
  if (embed) parts.push('embed=1');
  return `#/${encode(lessonId)}${parts.length ? `?${parts.join('&')}` : ''}`;
}
