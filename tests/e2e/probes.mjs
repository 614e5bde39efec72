// Probes that run inside the page (page.evaluate / addInitScript): accessible names of buttons,
// colour contrast from computed styles, a recorder of live-region announcements, and overlapping
// or escaping text. Each is a plain function so it can be serialised into the page.

/** Accessible names of the visible buttons under rootSelector (simplified accname: labelledby, label, content). */
export const buttonNames = (rootSelector) => {
  const root = document.querySelector(rootSelector) || document;
  const textOf = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    if (node.getAttribute('aria-hidden') === 'true') return '';
    if (node.tagName === 'IMG') return node.getAttribute('alt') || '';
    return [...node.childNodes].map(textOf).join('');
  };
  const nameOf = (el) => {
    const ids = (el.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean);
    if (ids.length) return ids.map((id) => textOf(document.getElementById(id) || document.createElement('i'))).join(' ');
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
    return textOf(el);
  };
  return [...root.querySelectorAll('button, [role="button"], a.btn')]
    .filter((b) => b.getClientRects().length > 0)
    .map((b) => nameOf(b).replace(/\s+/g, ' ').trim());
};

/**
 * Contrast ratio (WCAG 2) of the text of the element matched by selector against its effective
 * background: the element's and its ancestors' background colours composited (alpha) down to the
 * canvas. Returns { ratio, color, background }.
 */
export const contrastOf = (selector) => {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`contrastOf: no element ${selector}`);
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) throw new Error(`contrastOf: unsupported colour ${c}`);
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const layers = [];
  for (let n = el; n; n = n.parentElement) {
    const bg = parse(getComputedStyle(n).backgroundColor);
    if (bg.a > 0) layers.push(bg);
    if (bg.a >= 1) break;
  }
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  let background = dark ? { r: 0, g: 0, b: 0, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of layers.reverse()) background = over(layer, background);
  const fg = over(parse(getComputedStyle(el).color), background);
  const lum = ({ r, g, b }) => {
    const ch = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const [hi, lo] = [lum(fg), lum(background)].sort((x, y) => y - x);
  const rgb = (c) => `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
  return { ratio: (hi + 0.05) / (lo + 0.05), color: rgb(fg), background: rgb(background) };
};

/**
 * Init script: records every change of a live region's text (role alert/status/log or aria-live
 * polite/assertive) in window.__dozorLive as { at, region, text }.
 */
export const LIVE_RECORDER = () => {
  window.__dozorLive = [];
  const last = new Map();
  const regionOf = (node) => {
    const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    return el && el.closest('[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"]');
  };
  const record = (region) => {
    const text = region.textContent.replace(/\s+/g, ' ').trim();
    if (last.get(region) === text) return;
    last.set(region, text);
    if (text) window.__dozorLive.push({ at: Date.now(), region: region.id || region.className, text });
  };
  const start = () => new MutationObserver((mutations) => {
    const regions = new Set();
    for (const m of mutations) {
      const r = regionOf(m.target);
      if (r) regions.add(r);
      for (const added of m.addedNodes) {
        if (added.nodeType !== Node.ELEMENT_NODE) continue;
        const own = regionOf(added);
        if (own) regions.add(own);
        for (const inner of added.querySelectorAll('[aria-live], [role="alert"], [role="status"], [role="log"]')) regions.add(inner);
      }
    }
    for (const r of regions) record(r);
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
};

/**
 * Text that overlaps other text, or escapes the box of the element holding it, or the viewport.
 * Only rendered, visible text counts (visually-hidden helpers and off-screen toasts are skipped).
 */
export const textCollisions = () => {
  const rects = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest('.visually-hidden, .toast, option, script, [hidden]')) continue;
    if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    // What scrolling or clipping ancestors cut off is not drawn: only the visible part counts.
    const clips = [];
    for (let a = parent; a && a !== document.documentElement; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== 'visible' || st.overflowY !== 'visible') clips.push(a.getBoundingClientRect());
    }
    const box = parent.getBoundingClientRect();
    for (const full of range.getClientRects()) {
      let r = { left: full.left, right: full.right, top: full.top, bottom: full.bottom };
      for (const c of clips) {
        r = { left: Math.max(r.left, c.left), right: Math.min(r.right, c.right),
          top: Math.max(r.top, c.top), bottom: Math.min(r.bottom, c.bottom) };
      }
      if (r.right - r.left < 1 || r.bottom - r.top < 1) continue;
      const escapes = r.left < box.left - 2 || r.right > box.right + 2;
      rects.push({ node, parent, r, escapes, text: node.textContent.trim().slice(0, 40) });
    }
  }
  const problems = [];
  const vw = document.documentElement.clientWidth;
  for (const a of rects) {
    if (a.escapes) problems.push(`"${a.text}" runs out of its <${a.parent.tagName.toLowerCase()}>`);
    if (a.r.right > vw + 1 || a.r.left < -1) problems.push(`"${a.text}" runs off the screen`);
  }
  for (let i = 0; i < rects.length; i += 1) {
    for (let j = i + 1; j < rects.length; j += 1) {
      const a = rects[i];
      const b = rects[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 2) problems.push(`"${a.text}" overlaps "${b.text}"`);
    }
  }
  return [...new Set(problems)];
};
