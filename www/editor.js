// A plain textarea with a line-number gutter and a highlight layer beneath it.
// Lines never wrap (wrap="off"), so line N is always at (N - 1) * line-height.

export class Editor {
  constructor(textarea, gutter, overlay) {
    this.ta = textarea;
    this.gutter = gutter;
    this.overlay = overlay;
    this.lineCount = 0;
    this.marks = { decide: null, group: [], hover: [], jump: null, diags: [] };
    this.ta.addEventListener('scroll', () => this.syncScroll(), { passive: true });
    new ResizeObserver(() => this.syncScroll()).observe(this.ta);
  }

  get lh() {
    return parseFloat(getComputedStyle(this.ta).lineHeight) || 20;
  }

  get padTop() {
    return parseFloat(getComputedStyle(this.ta).paddingTop) || 0;
  }

  get value() { return this.ta.value; }

  set value(v) {
    this.ta.value = v;
    this.ta.scrollTop = 0;
    this.ta.scrollLeft = 0;
    this.refresh();
  }

  /** Re-number the gutter (cheap: one text node). */
  refresh() {
    const v = this.ta.value;
    let n = 1;
    for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) n++;
    if (n !== this.lineCount) {
      this.lineCount = n;
      let s = '';
      for (let i = 1; i <= n; i++) s += i + '\n';
      this.gutterText ??= this.gutter.appendChild(document.createTextNode(''));
      this.gutterText.data = s;
    }
    this.syncScroll();
  }

  syncScroll() {
    const y = -this.ta.scrollTop;
    this.gutter.style.transform = `translateY(${y}px)`;
    this.overlay.style.transform = `translateY(${y}px)`;
  }

  /** Highlights: the deciding line, the lines of the group that applied, the lines behind what the pointer is on, diagnostic marks. */
  setMarks(marks) {
    Object.assign(this.marks, marks);
    this.paint();
  }

  paint() {
    const lh = this.lh;
    const top = this.padTop;
    const frag = document.createDocumentFragment();
    const gfrag = document.createDocumentFragment();
    const bar = (line, cls) => {
      const d = document.createElement('div');
      d.className = `hl ${cls}`;
      d.style.top = `${top + (line - 1) * lh}px`;
      d.dataset.line = line;
      frag.appendChild(d);
    };
    for (const l of this.marks.group) if (l !== this.marks.decide) bar(l, 'group');
    if (this.marks.decide) bar(this.marks.decide, 'decide');
    for (const l of this.marks.hover) bar(l, 'hover');
    if (this.marks.jump) bar(this.marks.jump, 'jump');
    const seen = new Map();
    const rank = { error: 3, warning: 2, info: 1 };
    for (const d of this.marks.diags) {
      if (!d.line) continue;
      if ((rank[seen.get(d.line)] || 0) < (rank[d.severity] || 0)) seen.set(d.line, d.severity);
    }
    for (const [line, sev] of seen) {
      const m = document.createElement('div');
      m.className = `gutter-mark ${sev}`;
      m.style.top = `${top + (line - 1) * lh}px`;
      gfrag.appendChild(m);
    }
    this.overlay.replaceChildren(frag);
    // Keep the number text node, replace the marks.
    for (const el of [...this.gutter.querySelectorAll('.gutter-mark')]) el.remove();
    this.gutter.appendChild(gfrag);
  }

  /** Scroll so that `line` is visible (centred when it is not). */
  reveal(line) {
    const lh = this.lh;
    const y = this.padTop + (line - 1) * lh;
    const ta = this.ta;
    if (y < ta.scrollTop || y + lh > ta.scrollTop + ta.clientHeight) {
      ta.scrollTop = Math.max(0, y - ta.clientHeight / 2 + lh / 2);
    }
    this.syncScroll();
  }

  /** Put the caret on `line` (1-based), select it, show it. */
  jump(line, { focus = true } = {}) {
    const v = this.ta.value;
    let start = 0;
    for (let n = 1; n < line; n++) {
      const i = v.indexOf('\n', start);
      if (i === -1) break;
      start = i + 1;
    }
    let end = v.indexOf('\n', start);
    if (end === -1) end = v.length;
    if (focus) this.ta.focus({ preventScroll: true });
    this.ta.setSelectionRange(start, end);
    this.marks.jump = line;
    this.paint();
    this.reveal(line);
    clearTimeout(this.jumpTimer);
    this.jumpTimer = setTimeout(() => { this.marks.jump = null; this.paint(); }, 1600);
  }

  /** Text of line `n` (1-based). */
  line(n) {
    const v = this.ta.value;
    let start = 0;
    for (let i = 1; i < n; i++) {
      const j = v.indexOf('\n', start);
      if (j === -1) return '';
      start = j + 1;
    }
    const end = v.indexOf('\n', start);
    return v.slice(start, end === -1 ? undefined : end).replace(/\r$/, '');
  }
}
