// What scripts/shots.mjs and scripts/audit-layout.mjs share: their command line ([label]
// [--only home|<lesson-id>]… and switches of their own) and the pages of the course, read from the
// home page's list of lessons.

/**
 * { label, only, switches } from `args`. `only` is null (every page) or a Set of 'home' and lesson
 * ids; `switches` the set of the given ones among `known` (e.g. ['--shots']). `usage` goes into the
 * error for an unknown option.
 */
export function parsePageArgs(args, { usage, known = [] }) {
  let label = null;
  let only = null;
  const switches = new Set();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (known.includes(arg)) {
      switches.add(arg);
    } else if (arg === '--only') {
      if (i + 1 >= args.length) throw new Error('--only needs a page: home or a lesson id');
      (only ??= new Set()).add(args[(i += 1)]);
    } else if (arg.startsWith('-')) {
      throw new Error(`unknown option ${arg} (usage: ${usage})`);
    } else if (label === null) {
      label = arg;
    } else {
      throw new Error(`one label only (got "${label}" and "${arg}")`);
    }
  }
  label ??= 'current';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(label)) {
    throw new Error(`label "${label}": use letters, digits, ".", "_" or "-" (it names a folder)`);
  }
  return { label, only, switches };
}

/**
 * The pages of the course at `url`, [{ id, url, index }] in course order ('home' first, index 0;
 * lessons from 1), those in `only` if given. Opens `url` in `page` to read the home page's list.
 */
export async function coursePages(page, url, only, { timeout }) {
  await page.goto(url);
  await page.locator('attn-app[data-settled]').waitFor({ timeout });
  const ids = await page
    .locator('attn-lesson-list [data-lesson]')
    .evaluateAll((cards) => cards.map((card) => card.dataset.lesson));
  const unknown = [...(only ?? [])].filter((id) => id !== 'home' && !ids.includes(id));
  if (unknown.length) throw new Error(`--only: no page called ${unknown.join(', ')} (home or a lesson id)`);
  const pages = [{ id: 'home', url, index: 0 }, ...ids.map((id, i) => ({ id, url: `${url}#/${id}`, index: i + 1 }))];
  return pages.filter(({ id }) => only?.has(id) ?? true);
}
