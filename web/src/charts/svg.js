/** Small helpers to create SVG elements (used by every chart). */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates `<name>` with attributes, appended to parent when given. */
export function svgElement(name, attributes = {}, parent) {
  const node = document.createElementNS(SVG_NS, name);
  setAttributes(node, attributes);
  parent?.append(node);
  return node;
}

/** Sets several attributes at once (numbers are written as text). */
export function setAttributes(node, attributes) {
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
}
