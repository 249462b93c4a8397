// A small Markdown renderer for the rules help (GET /api/rules/{lang}/{edition}): headings,
// paragraphs, lists, tables, **bold**, *italic* and `code`. It builds DOM nodes with
// textContent only: nothing from the text is ever read as HTML.

function inline(parent, text) {
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*|_[^_\s][^_]*_|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) parent.append(document.createTextNode(text.slice(last, m.index)));
    const tok = m[0];
    let el;
    if (tok.startsWith("**")) {
      el = document.createElement("strong");
      inline(el, tok.slice(2, -2));
    } else if (tok.startsWith("`")) {
      el = document.createElement("code");
      el.textContent = tok.slice(1, -1);
    } else if (tok.startsWith("[")) {
      el = document.createElement("span");
      el.textContent = tok.slice(1, tok.indexOf("]"));
    } else {
      el = document.createElement("em");
      inline(el, tok.slice(1, -1));
    }
    parent.append(el);
    last = m.index + tok.length;
  }
  if (last < text.length) parent.append(document.createTextNode(text.slice(last)));
}

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

const BULLET = /^\s*([-*]|\d+\.)\s+/;

/** Markdown text as a DocumentFragment. */
export function renderMarkdown(source) {
  const out = document.createDocumentFragment();
  const lines = String(source).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 1, 6);
      const h = document.createElement(`h${level}`);
      inline(h, heading[2]);
      out.append(h);
      i += 1;
    } else if (/^\s*\|/.test(line)) {
      i = readTable(lines, i, out);
    } else if (BULLET.test(line)) {
      i = readList(lines, i, out);
    } else {
      i = readParagraph(lines, i, out);
    }
  }
  return out;
}

/** The table that starts at line `i`, appended to `out`; the line after it. */
function readTable(lines, i, out) {
  const table = document.createElement("table");
  const rows = [];
  while (i < lines.length && /^\s*\|/.test(lines[i])) {
    rows.push(lines[i]);
    i += 1;
  }
  rows.forEach((row, r) => {
    if (/^\s*\|?\s*:?-{2,}/.test(row) && r === 1) return;
    const tr = document.createElement("tr");
    for (const text of cells(row)) {
      const cell = document.createElement(r === 0 ? "th" : "td");
      inline(cell, text);
      tr.append(cell);
    }
    table.append(tr);
  });
  out.append(table);
  return i;
}

/** The list that starts at line `i`, appended to `out`; the line after it. */
function readList(lines, i, out) {
  const ordered = /^\s*\d+\./.test(lines[i]);
  const list = document.createElement(ordered ? "ol" : "ul");
  let item = null;
  while (i < lines.length && lines[i].trim()) {
    const cur = lines[i];
    if (BULLET.test(cur)) {
      item = document.createElement("li");
      inline(item, cur.replace(BULLET, ""));
      list.append(item);
    } else if (item) {
      item.append(document.createTextNode(" "));
      inline(item, cur.trim());
    }
    i += 1;
  }
  out.append(list);
  return i;
}

/** The paragraph that starts at line `i`, appended to `out`; the line after it. */
function readParagraph(lines, i, out) {
  const p = document.createElement("p");
  const parts = [];
  while (i < lines.length && lines[i].trim() && !/^(#{1,6})\s/.test(lines[i]) && !/^\s*\|/.test(lines[i])
    && !BULLET.test(lines[i])) {
    parts.push(lines[i].trim());
    i += 1;
  }
  inline(p, parts.join(" "));
  out.append(p);
  return i;
}
