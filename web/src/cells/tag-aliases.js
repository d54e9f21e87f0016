/**
 * The one table of old tag names. Each lab answers to one tag; a page or a course site written
 * with an older name keeps working, because that name is defined as the lab it now names (its
 * attributes, state fields and permalinks are the lab's). register.js defines them after the
 * cells; the lessons build accepts them in a lesson (scripts/vite-lessons-plugin.mjs
 * registeredTags). Add a row when a lab's tag changes; never reuse an old name for another lab.
 */
export const TAG_ALIASES = Object.freeze({
  'attn-softmax-lab': 'attn-softmax-temperature', // the softmax lab's name inside lessons until 2026-12
});

/** Defines each old name in `registry` as a subclass of the lab it names (once; a name taken is left). */
export function defineTagAliases(registry = globalThis.customElements) {
  for (const [old, tag] of Object.entries(TAG_ALIASES)) {
    const Lab = registry.get(tag);
    if (!Lab) throw new Error(`tag-aliases.js: <${old}> names <${tag}>, which no cell defines`);
    if (!registry.get(old)) registry.define(old, class extends Lab {});
  }
}
