/**
 * Inline styles that hold under a strict Content-Security-Policy (no 'unsafe-inline' for styles,
 * README.md "Embedding"): a Lit directive that sets each property through the element's CSSOM
 * (`element.style.setProperty`), which such a policy allows, on every render, the first included.
 * A style="…" attribute, written in a template or bound (`style=${'…'}`), is refused by the
 * policy and reported as a violation; so is Lit's own styleMap on its first render, which it
 * writes as an attribute.
 *
 *   html`<div class="grid" style=${styleProps({ 'grid-template-columns': `repeat(${n}, auto)` })}></div>`
 *   svg`<circle … style=${styleProps(GRAB)}></circle>`        // const GRAB = { cursor: 'grab', … }
 *
 * Properties are CSS names ('touch-action', '--w'); one whose value is null or undefined is
 * removed. Only in a style attribute, and alone there. A chart's SVG export (export.js) still
 * carries these styles: the browser writes them into the element's style attribute.
 */
import { noChange } from 'lit';
import { Directive, directive, PartType } from 'lit/directive.js';

class StylePropsDirective extends Directive {
  /** @type {Set<string>} the properties this directive set last time */
  #set = new Set();

  constructor(partInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ATTRIBUTE || partInfo.name !== 'style' || partInfo.strings?.length > 2) {
      throw new Error('styleProps goes in a style attribute, alone: style=${styleProps({ … })}');
    }
  }

  render() {
    return noChange;
  }

  update(part, [props]) {
    const { style } = part.element;
    for (const name of this.#set) {
      if (props[name] == null) {
        style.removeProperty(name);
        this.#set.delete(name);
      }
    }
    for (const [name, value] of Object.entries(props)) {
      if (value == null) continue;
      style.setProperty(name, String(value));
      this.#set.add(name);
    }
    return noChange;
  }
}

/** Sets CSS properties on the element through its CSSOM: { 'property-name': value }. */
export const styleProps = directive(StylePropsDirective);
