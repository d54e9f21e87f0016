// A layout audit of one page of the built site as a learner sees it (npm run audit, and the
// browser tests that assert a lesson has no layout fault at 390×844 and at 1280×900).
//
//   await openEverything(page); // every exercise answered once, every figure drawn
//   const { faults } = await auditPage(page); // [{ kind, where, detail }]
//
// Kinds of fault:
// - 'sideways-page': the document is wider than the window (document.scrollingElement.scrollWidth
//   over the window's width + 1; the width is documentElement.clientWidth when that is smaller than
//   innerWidth, since a phone's meta viewport lets Chromium widen innerWidth to the content);
// - 'sideways-box': a box (light DOM or any open shadow root) whose overflow-x is auto or scroll and
//   that scrolls sideways (scrollWidth > clientWidth + 1), not at or in an element marked
//   data-wide-matrix; also a box so marked whose matrix (a table's or grid's data cells) has 6
//   columns or fewer;
// - 'clipped': text, an svg or a canvas cut off by an ancestor that clips (overflow hidden or clip,
//   contain: paint; up to the first ancestor that scrolls on that axis), or lying outside the
//   window's horizontal range [0, width];
// - 'small-text': SVG text under 12 px as rendered (its font size times the scale its svg is drawn
//   at: its screen CTM, and the svg's drawn width over its viewBox width, the smaller), and HTML text
//   under 12 px inside a figure (an attn-* figure or lab, or a <figure>); one fault for the texts of
//   one kind in one place, a formula's sub- and superscripts at the formula;
// - 'overlap': two visible labels whose boxes (without the blank 0.15 em above and below the glyphs)
//   intersect by more than 1 px in both axes: SVG <text> of one svg, or HTML text of one figure (not
//   two parts of one formula; a halo under the same text is not a second label);
// - 'touch-target': with a coarse pointer (a phone), a range input, role=slider, [draggable] or
//   pointer-drag handle (touch-action: none) whose hit area (its box joined with an invisible hit
//   shape under its centre, as the charts draw) is under 44 px in either dimension;
// - 'cta-below-fold': on the home page, the link to the next lesson ends below the first screen.
// Everything is measured with content-visibility forced to visible (in the document and in every
// open shadow root), so blocks off screen are measured too; elements not visible (checkVisibility
// with opacity and visibility, SVG inside a display:none group, empty boxes, screen-reader-only
// text), text inside a closed <details> and KaTeX's hidden MathML are skipped. `where` says where it
// is, from the outside in: §the lesson's section, the attn-* hosts with their ids (or [n], their
// place among their kind), a short CSS path inside the innermost, and the text.
import { drawEveryFigure } from '../../scripts/draw-figures.mjs';
import { nextFrames } from './next-frames.js';

/** The two sizes of the audit, as browser context options: a phone (touch, coarse pointer) and a desktop. */
export const AUDIT_SIZES = [
  { name: '390x844', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: '1280x900', viewport: { width: 1280, height: 900 } },
];
export const MIN_TEXT_PX = 12;
export const MIN_TARGET_PX = 44;
// The rule of web/README.md, stated here on purpose rather than imported from the page (matrix-box.js):
// the audit checks the page against it. A matrix may scroll sideways only with more columns than this.
export const WIDE_MATRIX_COLUMNS = 6;
const PAINT_ALL = '* { content-visibility: visible !important; }';
const TIMEOUT = 120_000; // ms for one wait (the largest lessons compute in a worker)

const appSettled = (page, timeout) => page.locator('attn-app[data-settled]').waitFor({ timeout });

/**
 * Answers every exercise of the page once, as a learner would (the first choice, or 0 in "Your
 * answer", then Check; a custom exercise with its own attempt as it stands), so that every figure
 * held back for an exercise (attn-reveal after="…") shows; then draws every figure and waits until
 * the app has settled. Exercises that already have an attempt are left as they are.
 * @param {import('playwright-core').Page} page a page of the site showing a route
 * @param {{ timeout?: number }} [options] ms for each wait
 */
export async function openEverything(page, { timeout = TIMEOUT } = {}) {
  await appSettled(page, timeout);
  // passes until none is left: an exercise held back with a figure shows once an earlier one is answered
  for (let answered = -1; answered !== 0;) {
    answered = 0;
    const exercises = page.locator('attn-exercise');
    const count = await exercises.count();
    for (let i = 0; i < count; i += 1) {
      const exercise = exercises.nth(i);
      if ((await exercise.getAttribute('data-progress')) !== null) continue; // attempted before
      if (!(await exercise.evaluate((el) => el.checkVisibility()))) continue; // not shown (yet)
      await answer(exercise, timeout);
      answered += 1;
    }
  }
  await appSettled(page, timeout);
  await drawEveryFigure(page, { timeout });
}

/** Commits some answer to `exercise` as a learner would, and waits until its verdict is shown. */
async function answer(exercise, timeout) {
  await exercise.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await exercise.locator(':scope[data-settled]').waitFor({ timeout });
  const radio = exercise.getByRole('radio').first();
  if (await radio.count()) await radio.check({ timeout });
  const field = exercise.getByRole('textbox', { name: 'Your answer' });
  if (await field.count()) await field.fill('0', { timeout });
  const check = exercise.locator('.check-button').first();
  if (await check.count()) {
    await check.click({ timeout });
  } else {
    // a custom exercise whose lesson submits attempts itself: its own attempt, as openGates does
    await exercise.evaluate(async (el) => {
      await el.submit(el.getAttempt?.());
      await el.updateComplete;
    });
  }
  await exercise.locator(':scope[data-progress]').waitFor({ timeout });
  await exercise.locator(':scope[data-settled]').waitFor({ timeout });
}

/** In the page: forces content-visibility: visible in the document and every open shadow root. */
function paintAll({ css, add }) {
  const MARK = 'data-layout-audit';
  if (!add) {
    document.querySelectorAll(`style[${MARK}]`).forEach((s) => s.remove());
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (!el.shadowRoot) continue;
        const sheets = el.shadowRoot.adoptedStyleSheets;
        const kept = sheets.filter((s) => !s[MARK]);
        if (kept.length !== sheets.length) el.shadowRoot.adoptedStyleSheets = kept;
        visit(el.shadowRoot);
      }
    };
    visit(document);
    return 0;
  }
  if (!document.querySelector(`style[${MARK}]`)) {
    const style = document.createElement('style');
    style.setAttribute(MARK, '');
    style.textContent = css;
    document.head.append(style);
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  sheet[MARK] = true;
  let roots = 0;
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (!el.shadowRoot) continue;
      if (!el.shadowRoot.adoptedStyleSheets.some((s) => s[MARK])) {
        el.shadowRoot.adoptedStyleSheets = [...el.shadowRoot.adoptedStyleSheets, sheet];
        roots += 1;
      }
      visit(el.shadowRoot);
    }
  };
  visit(document);
  return roots;
}

/**
 * In the page: every layout fault, measured as the page stands. Self-contained (it is sent to the
 * page as source).
 */
function measure({ minText, minTarget, wideColumns, touch, mark }) {
  // the window's width: with a phone's meta viewport, Chromium widens innerWidth (the layout viewport)
  // to take in content that sticks out, so innerWidth alone would hide a sideways page
  const W = Math.min(innerWidth, document.documentElement.clientWidth);
  const faults = [];
  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  /** The parent in the flat tree: the slot an element is assigned to, its parent, or its shadow host. */
  const up = (el) =>
    el.assignedSlot ?? el.parentElement ?? (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
  const ancestors = (el) => {
    const list = [];
    for (let node = up(el); node; node = up(node)) list.push(node);
    return list;
  };
  const isFigureHost = (el) =>
    el.localName.startsWith('attn-') && 'figureStyles' in (customElements.get(el.localName) ?? {});
  const clean = (text) => text.replace(/\s+/g, ' ').trim();
  const ownText = (el) =>
    clean(
      [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join(' '),
    );

  /** An SVG <text>'s words, without its <title> (a tooltip, not drawn). */
  const svgText = (el) =>
    clean(
      [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE || (n.localName !== 'title' && n.localName !== 'desc'))
        .map((n) => n.textContent)
        .join(''),
    );

  // ---- where: the attn-* hosts from the outside in, a short path inside the innermost, the text
  const hostName = (host) => {
    if (host.id) return `${host.localName}#${host.id}`;
    const root = host.getRootNode();
    const same = [...root.querySelectorAll(host.localName)];
    return same.length > 1 ? `${host.localName}[${same.indexOf(host) + 1}]` : host.localName;
  };
  const step = (el) => {
    const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
    const classes = cls
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((c) => `.${c}`)
      .join('');
    return `${el.localName}${el.id ? `#${el.id}` : ''}${classes}`;
  };
  /** The lesson's section (its h2 or h3) that holds the top-level block `block`. */
  const sectionOf = (block) => {
    for (let node = block; node; node = node.previousElementSibling) {
      if (/^h[23]$/.test(node.localName)) return clean(node.textContent).slice(0, 40);
    }
    return null;
  };
  const where = (el, text = '') => {
    const path = [];
    const steps = [];
    for (let node = el; node && path.length < 3; node = node.parentElement) {
      path.unshift(step(node));
      steps.push(node);
      if (node.localName.startsWith('attn-')) break;
    }
    const hosts = [];
    let section = null;
    for (let node = el; node; node = node.getRootNode().host ?? null) {
      const host = node.getRootNode().host;
      if (host?.localName.startsWith('attn-') && host.localName !== 'attn-app') hosts.unshift(hostName(host));
      if (!host) {
        // the block of the lesson's own text that holds it, and its section
        const block = node.closest('.lesson-body > *');
        if (block && block !== node && !steps.includes(block)) {
          hosts.unshift(block.localName.startsWith('attn-') ? hostName(block) : step(block));
        }
        if (block) section = sectionOf(block);
      }
    }
    const quoted = text ? ` "${text.length > 50 ? `${text.slice(0, 49)}…` : text}"` : '';
    return `${section ? `§${section} › ` : ''}${hosts.join(' › ')}${hosts.length ? ' › ' : ''}${path.join(' > ')}${quoted}`;
  };
  const add = (kind, el, detail, text, other = null) =>
    faults.push({ kind, where: where(el, text), detail, el, other });
  const px = (v) => Math.round(v * 10) / 10;
  const boxText = (r) => `${px(r.left)},${px(r.top)} ${px(r.width)}×${px(r.height)}`;

  // ---- what is shown
  const shown = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    for (let node = el; node; node = up(node)) {
      if (node.classList?.contains('katex-mathml')) return false;
      // Chromium's checkVisibility() passes SVG content inside a <g display="none">
      if (node instanceof SVGElement && style(node).display === 'none') return false;
      const parent = up(node);
      // a closed details shows its summary only
      if (parent?.localName === 'details' && !parent.open && node.localName !== 'summary') return false;
    }
    return true;
  };
  /** Hidden on purpose for screen readers only (a 1 px box that clips, or clip: rect(0 0 0 0)). */
  const screenReaderOnly = (el) => {
    for (let node = el; node; node = up(node)) {
      const s = style(node);
      if (s.clip !== 'auto' && s.clip !== '' && s.position === 'absolute') return true;
      if (/inset\(50%/.test(s.clipPath)) return true;
      const r = node.getBoundingClientRect();
      if (r.width <= 1.5 && r.height <= 1.5 && s.overflow !== 'visible') return true;
    }
    return false;
  };

  // ---- boxes
  /** The boxes (one per line) of an HTML element's own text, and their union. */
  const textRects = (el) => {
    const rects = [];
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0.5 && r.height > 0.5) rects.push(r);
    }
    return rects;
  };
  const union = (rects) => {
    const u = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const r of rects) {
      u.left = Math.min(u.left, r.left);
      u.top = Math.min(u.top, r.top);
      u.right = Math.max(u.right, r.right);
      u.bottom = Math.max(u.bottom, r.bottom);
    }
    return { ...u, width: u.right - u.left, height: u.bottom - u.top };
  };
  /** A text box without the blank part of its line above and below the glyphs (0.15 em each). */
  const ink = (r, fontPx) => {
    const inset = Math.min(0.15 * fontPx, r.height / 3);
    return { left: r.left, right: r.right, top: r.top + inset, bottom: r.bottom - inset };
  };
  const overlapOf = (a, b) => ({
    x: Math.min(a.right, b.right) - Math.max(a.left, b.left),
    y: Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top),
  });

  // ---- clipping
  const clipsX = (s) => /hidden|clip/.test(s.overflowX) || /paint|strict|content/.test(s.contain);
  const clipsY = (s) => /hidden|clip/.test(s.overflowY) || /paint|strict|content/.test(s.contain);
  const scrollsX = (s) => /auto|scroll/.test(s.overflowX);
  const scrollsY = (s) => /auto|scroll/.test(s.overflowY);
  const containsAbsolute = (s) =>
    s.position !== 'static' ||
    s.transform !== 'none' ||
    s.filter !== 'none' ||
    /paint|layout|strict|content/.test(s.contain);
  const containsFixed = (s) =>
    s.transform !== 'none' || s.filter !== 'none' || /paint|layout|strict|content/.test(s.contain);
  /**
   * Whether `box` (the ink of `el`, or its box) is cut off: by an ancestor that clips on that axis
   * (up to the first one that scrolls on it), or sideways by the window. Returns the reason or null.
   */
  const clipOf = (el, box, tolerance, { self = false } = {}) => {
    // an absolute or fixed box escapes ancestors that do not contain it (its own overflow clips its text)
    let position = self ? 'static' : style(el).position;
    let scrollX = false;
    let scrollY = false;
    for (const node of self ? [el, ...ancestors(el)] : ancestors(el)) {
      const s = style(node);
      const contains = position === 'absolute' ? containsAbsolute(s) : position === 'fixed' ? containsFixed(s) : true;
      if (!contains) continue;
      position = s.position === 'absolute' || s.position === 'fixed' ? s.position : 'static';
      if (node === document.documentElement || node === document.body) continue;
      const r = node.getBoundingClientRect();
      const inner =
        node instanceof SVGElement
          ? r
          : {
              left: r.left + node.clientLeft,
              top: r.top + node.clientTop,
              right: r.left + node.clientLeft + node.clientWidth,
              bottom: r.top + node.clientTop + node.clientHeight,
            };
      const how = (axis) =>
        `${step(node)} (${boxText(r)}, overflow-${axis} ${axis === 'x' ? s.overflowX : s.overflowY}${
          s.contain !== 'none' ? `, contain ${s.contain}` : ''
        })`;
      if (!scrollX && clipsX(s) && (box.left < inner.left - tolerance.x || box.right > inner.right + tolerance.x)) {
        return `cut off sideways by ${how('x')}`;
      }
      if (!scrollY && clipsY(s) && (box.top < inner.top - tolerance.y || box.bottom > inner.bottom + tolerance.y)) {
        return `cut off at the top or bottom by ${how('y')}`;
      }
      if (scrollsX(s)) scrollX = true;
      if (scrollsY(s)) scrollY = true;
      if (scrollX && scrollY) break;
    }
    if (!scrollX && (box.left < -tolerance.x || box.right > W + tolerance.x)) {
      return `outside the window sideways (${px(box.left)} … ${px(box.right)} of 0 … ${W})`;
    }
    return null;
  };

  // ---- every element, in the document and in every open shadow root
  const all = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      all.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);

  // sideways page
  const scroller = document.scrollingElement;
  if (scroller.scrollWidth > W + 1) {
    let widest = null;
    for (const el of all) {
      const r = el.getBoundingClientRect();
      // the innermost of the shown elements that reach furthest right
      if (r.right > W + 1 && r.width > 0 && (!widest || r.right >= widest.r.right - 0.5) && shown(el)) {
        if (!screenReaderOnly(el)) widest = { el, r };
      }
    }
    faults.push({
      kind: 'sideways-page',
      where: widest ? where(widest.el) : 'document',
      detail: `the page is ${scroller.scrollWidth} px wide in a ${W} px window${widest ? `; widest: ${boxText(widest.r)}` : ''}`,
      el: widest?.el ?? null,
    });
  }

  /** Columns of a matrix inside `el`, when it can be told: a table's, a grid's or a matrix's rows. */
  const columnsOf = (el) => {
    const scope = el.shadowRoot ?? el;
    const rows = scope.querySelectorAll('tr, [role="row"]');
    let most = 0;
    for (const row of rows) {
      // the data cells, not the row's or column's headers
      const data = [...row.children].filter((c) => c.matches('td, [role="gridcell"], [role="cell"]'));
      most = Math.max(most, data.length);
    }
    if (most) return most;
    for (const child of scope.querySelectorAll('*')) {
      if (child.shadowRoot) {
        const inner = columnsOf(child);
        if (inner) return inner;
      }
    }
    return null;
  };

  const texts = []; // { el, text, rects, box, font, svg, figure, math, script, clipped }
  const small = new Map(); // small text, by place and size
  const touchCandidates = [];
  for (const el of all) {
    if (el === document.documentElement || el === document.body) continue;
    const tag = el.localName;
    if (/^(script|style|template|noscript|title|desc|metadata|defs|head|meta|link)$/.test(tag)) continue;
    const s = style(el);

    // sideways boxes
    if (scrollsX(s) && el.scrollWidth > el.clientWidth + 1 && shown(el)) {
      const wide = el.closest('[data-wide-matrix]') ?? ancestors(el).find((a) => a.hasAttribute?.('data-wide-matrix'));
      if (!wide) {
        const columns = columnsOf(el);
        const holds = columns === null ? 'no table' : `a table of ${columns} column${columns === 1 ? '' : 's'}`;
        add(
          'sideways-box',
          el,
          `scrolls sideways: ${el.scrollWidth} px of content in ${el.clientWidth} px; holds ${holds}, not marked data-wide-matrix`,
        );
      }
    }
    if (el.hasAttribute('data-wide-matrix') && shown(el)) {
      const columns = columnsOf(el);
      if (columns !== null && columns <= wideColumns) {
        add('sideways-box', el, `marked data-wide-matrix but its matrix has ${columns} columns (≤ ${wideColumns})`);
      }
    }

    // touch targets
    if (
      touch &&
      (el.matches('input[type="range"], [role="slider"], [draggable="true"]') || s.touchAction === 'none') &&
      shown(el)
    ) {
      touchCandidates.push(el);
    }

    // text and pictures
    const inSvg = el instanceof SVGElement;
    if (inSvg && tag !== 'text' && tag !== 'svg') continue;
    if (tag === 'svg' || tag === 'canvas') {
      if (!shown(el) || screenReaderOnly(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      if (tag === 'svg' && el.closest('.katex')) continue; // KaTeX's stretchy glyphs: judged as text
      const why = clipOf(el, r, { x: 1, y: 1 });
      if (why) add('clipped', el, `${tag} ${boxText(r)} ${why}`);
      continue;
    }
    const text = tag === 'text' ? svgText(el) : ownText(el);
    if (!text) continue;
    if (!shown(el) || screenReaderOnly(el)) continue;
    const rects = tag === 'text' ? [el.getBoundingClientRect()] : textRects(el);
    if (!rects.length) continue;
    const box = union(rects);
    let font = parseFloat(s.fontSize);
    let svg = null;
    if (tag === 'text') {
      svg = el.ownerSVGElement;
      const ctm = el.getScreenCTM();
      const byCtm = ctm ? Math.sqrt(Math.abs(ctm.a * ctm.d - ctm.b * ctm.c)) : 1;
      const vb = svg?.viewBox?.baseVal;
      const byViewBox = vb?.width ? svg.getBoundingClientRect().width / vb.width : 1;
      font *= Math.min(byCtm, byViewBox);
    }
    const anc = ancestors(el);
    const figure = [el, ...anc].find((a) => a.localName === 'figure' || isFigureHost(a)) ?? null;
    const math = [el, ...anc].find((a) => a.classList?.contains('katex') || a.classList?.contains('math')) ?? null;
    const script = [el, ...anc].some((a) =>
      a === math
        ? false
        : a.localName === 'sub' ||
          a.localName === 'sup' ||
          a.classList?.contains('msupsub') ||
          a.classList?.contains('script'),
    );
    // glyphs fill less of their box than the line: 0.2 em of it may be cut; a formula's big
    // delimiters and radicals (built from pieces in tall boxes) half of it
    const slack = math?.classList.contains('katex') ? 0.5 * box.height : 0.2 * font;
    const why = clipOf(el, box, { x: 1, y: Math.max(1, slack) }, { self: !svg });
    if (why) add('clipped', el, `text ${boxText(box)} ${why}`, text);
    // a clipped text's box is not what shows: no overlap is judged for it
    texts.push({ el, text, rects, box, font, svg, figure, math, script, clipped: Boolean(why) });
    if (font < minText - 0.05 && (svg || figure)) {
      // one fault for the texts of one kind in one place (a heatmap's annotations, a formula's scripts)
      const detail = `${svg ? 'SVG' : 'HTML'} text ${px(font)} px as rendered (${px(parseFloat(s.fontSize))} px set${
        svg ? `, drawn at ${px(font / parseFloat(s.fontSize))}×` : ''
      })${script ? ', a sub- or superscript' : ''}`;
      // a formula's sub- and superscripts are one fault, at the formula
      const at = script && math ? math : el;
      const key = `${where(at)}|${detail}`;
      if (!small.has(key)) small.set(key, { el: at, detail, texts: [] });
      small.get(key).texts.push(text);
    }
  }

  for (const { el, detail, texts: list } of small.values()) {
    const words = [...new Set(list)];
    const shown = words.slice(0, 6).map((w) => `"${w.length > 20 ? `${w.slice(0, 19)}…` : w}"`);
    faults.push({
      kind: 'small-text',
      where: `${where(el)} ${list.length === 1 ? shown[0] : `(${list.length} texts: ${shown.join(', ')}${words.length > 6 ? ', …' : ''})`}`,
      detail,
      el,
    });
  }

  // overlapping labels: SVG text of one svg; HTML text of one figure (not within one formula)
  const groups = new Map();
  for (const t of texts) {
    const key = t.svg ?? t.figure;
    if (!key) continue;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(t);
  }
  for (const [key, list] of groups) {
    const inSvg = key instanceof SVGElement;
    const items = list.filter((t) => Boolean(t.svg) === inSvg);
    items.sort((a, b) => a.box.left - b.box.left);
    for (let i = 0; i < items.length; i += 1) {
      const a = items[i];
      for (let j = i + 1; j < items.length && items[j].box.left < a.box.right - 1; j += 1) {
        const b = items[j];
        if ((a.math && a.math === b.math) || a.clipped || b.clipped) continue;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        // a halo drawn under the same text (same words, same place) is one label
        if (a.text === b.text && Math.abs(a.box.left - b.box.left) < 1 && Math.abs(a.box.top - b.box.top) < 1) continue;
        let hit = null;
        for (const ra of a.rects) {
          for (const rb of b.rects) {
            const o = overlapOf(ink(ra, a.font), ink(rb, b.font));
            if (o.x > 1 && o.y > 1) hit = o;
          }
        }
        if (hit) {
          const detail = `${inSvg ? 'SVG text' : 'HTML text'} overlaps "${b.text.slice(0, 40)}" (${step(b.el)}) by ${px(hit.x)}×${px(hit.y)} px`;
          add('overlap', a.el, detail, a.text, b.el);
        }
      }
    }
  }

  // touch targets: the hit area is the element's box joined with any drag surface under its centre
  if (touch) {
    // an invisible shape over a handle (fill transparent) is the handle's hit area
    const transparent = (c) => c === 'none' || c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c);
    const boxes = touchCandidates.map((el) => ({
      el,
      r: el.getBoundingClientRect(),
      hitArea: el instanceof SVGGeometryElement && transparent(style(el).fill) && transparent(style(el).stroke),
    }));
    for (const { el, r } of boxes) {
      if (r.width === 0 && r.height === 0) continue;
      const cx = (r.left + r.right) / 2;
      const cy = (r.top + r.bottom) / 2;
      let u = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      for (const other of boxes) {
        if (other.el === el || !other.hitArea || other.el.getRootNode() !== el.getRootNode()) continue;
        const o = other.r;
        if (cx >= o.left && cx <= o.right && cy >= o.top && cy <= o.bottom) {
          u = {
            left: Math.min(u.left, o.left),
            top: Math.min(u.top, o.top),
            right: Math.max(u.right, o.right),
            bottom: Math.max(u.bottom, o.bottom),
          };
        }
      }
      const w = u.right - u.left;
      const h = u.bottom - u.top;
      if (w < minTarget - 0.5 || h < minTarget - 0.5) {
        const what = el.matches('input[type="range"]')
          ? 'range input'
          : el.getAttribute('role') === 'slider'
            ? 'role=slider'
            : el.getAttribute('draggable') === 'true'
              ? 'draggable'
              : 'drag handle (touch-action: none)';
        const label = el.getAttribute('aria-label') ?? el.getAttribute('aria-valuetext') ?? '';
        add('touch-target', el, `${what}: hit area ${px(w)}×${px(h)} px (under ${minTarget}×${minTarget})`, label);
      }
    }
  }

  // the home page: the next lesson's link in the first screen
  const home = document.querySelector('attn-home');
  if (home && home.checkVisibility()) {
    const cta = home.querySelector('.hero-next');
    if (!cta) {
      add('cta-below-fold', home, 'no link to the next lesson');
    } else {
      const bottom = cta.getBoundingClientRect().bottom + scrollY;
      if (bottom > innerHeight) {
        add(
          'cta-below-fold',
          cta,
          `its bottom is at ${px(bottom)} px, below the first ${innerHeight} px`,
          clean(cta.textContent),
        );
      }
    }
  }
  const checked = {
    texts: texts.length,
    svgTexts: texts.filter((t) => t.svg).length,
    pictures: all.filter((el) => (el.localName === 'svg' || el.localName === 'canvas') && shown(el)).length,
    touchTargets: touchCandidates.length,
  };
  // mark the elements at fault (data-layout-fault="<index> …"), for pictures of them
  if (mark) {
    faults.forEach(({ el, other }, i) => {
      for (const target of [el, other]) {
        if (!target) continue;
        const marks = (target.getAttribute('data-layout-fault') ?? '').split(' ').filter(Boolean);
        target.setAttribute('data-layout-fault', [...marks, String(i)].join(' '));
      }
    });
  }
  return { faults: faults.map(({ kind, where: at, detail }) => ({ kind, where: at, detail })), checked };
}

/** In the page: removes the marks measure() left. */
function unmark() {
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      el.removeAttribute('data-layout-fault');
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
}

/**
 * Measures every layout fault a learner would see on the page as it stands (call openEverything
 * first for a lesson). Forces content-visibility: visible while it measures, and removes that
 * again before it returns.
 * @param {import('playwright-core').Page} page
 * @param {{ touch?: boolean, mark?: boolean, timeout?: number }} [options] touch: judge touch
 *   targets (default: when the page has a coarse pointer, as a phone does); mark: leave
 *   data-layout-fault="<index> …" on the elements at fault (the index in `faults`; both texts of an
 *   overlap), for pictures of them, until unmarkFaults(page)
 * @returns {Promise<{ faults: { kind: string, where: string, detail: string }[],
 *   checked: { texts: number, svgTexts: number, pictures: number, touchTargets: number } }>} the faults, and
 *   how many elements were measured (a page that shows nothing has no faults)
 */
export async function auditPage(page, { touch, mark = false, timeout = TIMEOUT } = {}) {
  const coarse = await page.evaluate(() => matchMedia('(pointer: coarse)').matches);
  await page.evaluate(paintAll, { css: PAINT_ALL, add: true });
  try {
    // what was skipped is laid out now: wait two frames for it, and for anything that redraws
    await nextFrames(page);
    if (await page.locator('attn-app').count()) await appSettled(page, timeout);
    return await page.evaluate(measure, {
      minText: MIN_TEXT_PX,
      minTarget: MIN_TARGET_PX,
      wideColumns: WIDE_MATRIX_COLUMNS,
      touch: touch ?? coarse,
      mark,
    });
  } finally {
    await page.evaluate(paintAll, { css: PAINT_ALL, add: false });
  }
}

/** Removes the marks auditPage(page, { mark: true }) left. */
export async function unmarkFaults(page) {
  await page.evaluate(unmark);
}
