// The layout sweep's checks (tests/e2e/layout.py), run in the page: they return the problems
// found and the visible text (for untranslated keys). `hidden` (content behind a sideways scroll
// or cut) is reported to the callers that ask for it (the phone's account pages).
//
// Controls are links, buttons, inputs and selects. Overlaps are looked for inside one region (the
// header, a dialog such as the side menu or the login popup, a form), a button drawn inside its
// own input (show password) aside; so is content spilling out of its box.
() => {
  const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=tab]';
  const REGIONS = 'header.site-header, [role=dialog], [role=alertdialog], form';
  const view = document.documentElement.clientWidth;
  const round = (n) => Math.round(n);
  const describe = (el, r = el.getBoundingClientRect()) => ({
    tag: el.tagName.toLowerCase(),
    text: (el.innerText || el.value || el.getAttribute('aria-label') || el.getAttribute('title') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 40),
    testid: el.getAttribute('data-testid') || el.className.toString().split(' ')[0] || '',
    rect: [round(r.left), round(r.top), round(r.right - r.left), round(r.bottom - r.top)],
  });
  // The part of a box the element's ancestors do not clip (the page itself aside: that is the check).
  const clip = (el, r) => {
    let { left, right, top, bottom } = r;
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      if (style.overflowX !== 'visible') { left = Math.max(left, box.left); right = Math.min(right, box.right); }
      if (style.overflowY !== 'visible') { top = Math.max(top, box.top); bottom = Math.min(bottom, box.bottom); }
    }
    return { left, right, top, bottom };
  };
  const clipped = (el) => clip(el, el.getBoundingClientRect());
  const sized = (c) => c.right - c.left >= 2 && c.bottom - c.top >= 2;
  const shown = (el) => {
    const visible = { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true };
    if (!el.checkVisibility(visible)) return null;
    const c = clipped(el);
    return sized(c) ? c : null;
  };
  // A link that wraps is two boxes, one per line: its bounding box would cover its neighbours.
  const lineBoxes = (el) => [...el.getClientRects()].map((r) => clip(el, r)).filter(sized);
  const problems = [];

  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) {
    // What crosses the right edge: the outermost such elements (where it starts) and the
    // innermost (what is too wide), a few of each.
    const all = [...document.body.querySelectorAll('*')];
    const crossing = new Set(all.filter((el) => shown(el) && clipped(el).right > view + 0.5));
    const outermost = [...crossing].filter((el) => !crossing.has(el.parentElement)).slice(0, 4);
    const innermost = [...crossing].filter((el) => ![...el.children].some((child) => crossing.has(child)))
      .filter((el) => !outermost.includes(el)).slice(0, 6);
    problems.push({ check: 'overflow', message: `the page is ${width}px wide in a ${innerWidth}px window`,
                    elements: [...outermost, ...innermost].map((el) => describe(el)) });
  }

  const controls = [...document.querySelectorAll(CONTROLS)].map((el) => ({ el, box: shown(el) })).filter((c) => c.box);
  for (const { el, box } of controls) {
    if (box.left < -0.5 || box.right > view + 0.5) {
      const edge = box.left < 0 ? 'left' : 'right';
      problems.push({ check: 'cut', message: `crosses the ${edge} edge of the ${view}px screen`,
                      elements: [describe(el)] });
    }
  }

  const inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const field = (el) => ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
  // An open dropdown covers what is under it, as it should: its entries are compared among themselves.
  const layer = (el, region) => {
    for (let a = el; a && a !== region; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (['absolute', 'fixed'].includes(style.position) && style.zIndex !== 'auto') return a;
    }
    return region;
  };
  const seen = new Set();
  for (const region of document.querySelectorAll(REGIONS)) {
    const items = controls.filter((c) => region.contains(c.el));
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const [a, b] = [items[i], items[j]];
        if (a.el.contains(b.el) || b.el.contains(a.el) || layer(a.el, region) !== layer(b.el, region)) continue;
        if ((field(a.el) && inside(b.box, a.box)) || (field(b.el) && inside(a.box, b.box))) continue;
        let w = 0, h = 0;
        for (const p of lineBoxes(a.el)) {
          for (const q of lineBoxes(b.el)) {
            const pw = Math.min(p.right, q.right) - Math.max(p.left, q.left);
            const ph = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
            if (pw > 1 && ph > 1 && pw * ph > w * h) [w, h] = [pw, ph];
          }
        }
        if (w === 0) continue;
        const key = controls.indexOf(a) + ':' + controls.indexOf(b);
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push({ check: 'overlap', message: `${round(w)}x${round(h)}px overlap`,
                        elements: [describe(a.el), describe(b.el)] });
      }
    }
  }

  // Content wider than its box and drawn over what follows (a crowded menu bar): inside the
  // regions, a flex or grid box whose children (in the flow: an open dropdown does not count)
  // reach past its content box, or a control whose text does not fit it.
  const inFlow = (el) => !['absolute', 'fixed'].includes(getComputedStyle(el).position) && shown(el);
  for (const el of document.querySelectorAll(`:is(${REGIONS}) *, :is(${REGIONS})`)) {
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible' || el.clientWidth === 0 || !shown(el)) continue;
    let reach = 0;
    if (/flex|grid/.test(style.display)) {
      const box = el.getBoundingClientRect();
      const left = box.left + el.clientLeft + parseFloat(style.paddingLeft);
      const right = left + el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      for (const child of [...el.children].filter(inFlow)) {
        const r = child.getBoundingClientRect();
        reach = Math.max(reach, r.right - right, left - r.left);
      }
    } else if (el.matches(CONTROLS)) {
      reach = el.scrollWidth - el.clientWidth;
    }
    if (reach > 1) {
      problems.push({ check: 'spill', message: `its content reaches ${round(reach)}px past its ${el.clientWidth}px box`,
                      elements: [describe(el)] });
    }
  }

  // What a player cannot read whole without scrolling a box sideways: a box whose content is
  // wider than it and scrolls or is clipped (an ellipsis included), and text that crosses the
  // screen's edge or is cut by a box that clips it. Fields aside: a long value scrolls in them.
  for (const el of document.body.querySelectorAll('*')) {
    if (field(el) || !shown(el)) continue;
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      const how = style.textOverflow === 'ellipsis' ? ' (cut with an ellipsis)' : '';
      problems.push({ check: 'hidden', message: `${el.scrollWidth}px of content in a ${el.clientWidth}px box${how}`,
                      elements: [describe(el)] });
      continue;
    }
    const text = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!text) continue;
    const r = el.getBoundingClientRect(), c = clipped(el);
    if (r.left < -0.5 || r.right > view + 0.5) {
      problems.push({ check: 'hidden', message: `text crosses the edge of the ${view}px screen`, elements: [describe(el)] });
    } else if (c.left > r.left + 0.5 || c.right < r.right - 0.5) {
      problems.push({ check: 'hidden', message: 'text cut by a box that clips it', elements: [describe(el)] });
    }
  }

  const placeholders = controls.map((c) => c.el.getAttribute('placeholder') || '').filter(Boolean);
  return { problems, text: [document.body.innerText, ...placeholders].join('\n') };
}
