/**
 * Hash routes (they work from file:// and need no server):
 *
 *   #/                                   the lesson list
 *   #/<lesson-id>                        a lesson
 *   #/<lesson-id>?<cell>.<field>=<text>&…   a lesson with cells set (a permalink)
 *   …&embed=1                            embed mode: only the lesson, height posted to the parent
 *   …&embed=1&host=https://course.example   and progress posted to the parent at exactly that
 *                                        origin (docs/progress-protocol.md); ignored without embed=1
 *   …&at=<id>                            opens the lesson at that exercise or section (an
 *                                        assignment link: docs/teaching.md)
 *
 * parseHash() only splits and percent-decodes; it never evaluates anything.
 * Problems (bad percent-encoding, a key that is not cell.field, an over-long
 * link) are returned as `issues`, short plain-text messages for a notice.
 */

export const MAX_QUERY = 100000; // characters of settings in one link
export const MAX_HOST = 300; // characters of a host origin (a 253-character name, scheme and port fit)
const MAX_SHOWN = 40; // characters of untrusted text quoted in a message
const AT_ID = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/; // a cell or heading id (lessons use no other)

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

// scheme, then an authority with no path, query, fragment, credentials, backslash, space or control
// character; one trailing "/" allowed
const ORIGIN_SHAPE = /^https?:\/\/[^/?#\\@\s\p{Cc}]+\/?$/iu;

/**
 * The `host` parameter: an http(s) origin, normalised as the browser compares origins
 * (`HTTPS://Course.Example:443/` -> `https://course.example`).
 * @param {string} text the parameter, percent-decoded
 * @returns {{ origin: string } | { error: string }} error: a short message for the notice
 */
export function parseOrigin(text) {
  const s = String(text);
  if (s.length > MAX_HOST) return { error: `host: is too long (${s.length} characters, at most ${MAX_HOST})` };
  const refused = { error: `host: "${clip(s)}" is not a web origin such as https://course.example` };
  if (!ORIGIN_SHAPE.test(s)) return refused;
  let url;
  try {
    url = new URL(s);
  } catch {
    return refused;
  }
  const ok =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.origin !== 'null';
  return ok ? { origin: url.origin } : refused;
}

/**
 * @param {string} hash location.hash
 * @returns {null | { page: 'home' | 'lesson', lessonId: string | null, params: { cell: string, field: string, text: string }[], embed: boolean, host: string | null, at: string | null, issues: string[] }}
 *   host: the origin named by `host=` (normalised), only with embed=1; otherwise null.
 *   at: the id named by `at=` (an exercise or heading to open the lesson at), or null.
 *   null when the hash is not a route (e.g. '#main'); '' is the home page.
 */
export function parseHash(hash) {
  const raw = String(hash ?? '').replace(/^#/, '');
  if (raw !== '' && !raw.startsWith('/')) return null;
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 ? '' : raw.slice(q + 1);
  const route = { page: 'home', lessonId: null, params: [], embed: false, host: null, at: null, issues: [] };

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
  let hostSeen = false;
  let atSeen = false;
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
    if (key === 'host') {
      if (hostSeen) route.issues.push('host: given more than once (the first one counts)');
      else {
        const parsed = parseOrigin(text);
        if ('error' in parsed) route.issues.push(parsed.error);
        else route.host = parsed.origin;
      }
      hostSeen = true;
      continue;
    }
    if (key === 'at') {
      if (atSeen) route.issues.push('at: given more than once (the first one counts)');
      else if (AT_ID.test(text)) route.at = text;
      else route.issues.push(`at: "${clip(text)}" is not the id of an exercise or a section`);
      atSeen = true;
      continue;
    }
    const dot = key.indexOf('.');
    if (dot <= 0 || dot === key.length - 1) {
      route.issues.push(`${clip(key)}: not a cell setting (expected cell.field=value)`);
      continue;
    }
    route.params.push({ cell: key.slice(0, dot), field: key.slice(dot + 1), text });
  }
  if (route.host !== null && !route.embed) {
    route.issues.push('host: used only with embed=1, so ignored');
    route.host = null;
  }
  return route;
}

// Percent-encode, but keep the list separators readable: #/l?t.logits=1,2,3
const encode = (text) => encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%3B/gi, ';');

/**
 * The hash for a lesson and its cells' settings.
 * @param {string} lessonId
 * @param {{ cell: string, field: string, text: string }[]} params
 * @param {{ embed?: boolean, host?: string | null, at?: string | null }} options host: an origin from
 *   parseOrigin, kept only with embed; at: the exercise or section the link opens at
 */
export function buildHash(lessonId, params = [], { embed = false, host = null, at = null } = {}) {
  const parts = params.map(({ cell, field, text }) => `${encode(cell)}.${encode(field)}=${encode(text)}`);
  if (at) parts.push(`at=${encode(at)}`);
  if (embed) parts.push('embed=1');
  if (embed && host) parts.push(`host=${encodeURIComponent(host).replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`);
  return `#/${encode(lessonId)}${parts.length ? `?${parts.join('&')}` : ''}`;
}
