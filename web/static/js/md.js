// A small, safe Markdown renderer for rules pages (sdk.Info.Rules) and anything else a plugin
// sends: it builds DOM nodes and text nodes only, never innerHTML, so no markup in the text can
// run. Supported: # headings, paragraphs, - * • and 1. lists, tables (| a | b | rows under a
// | --- | line), **bold**, *italic*, `code`, and [links](https://...) to http(s) addresses only.

// markdown returns a DocumentFragment for the Markdown source text.
export function markdown(src) {
  const frag = document.createDocumentFragment();
  const lines = String(src || "").replace(/\r\n?/g, "\n").split("\n");
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) {
      const p = document.createElement("p");
      inline(p, para.join(" "));
      frag.append(p);
      para = [];
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = raw.trimEnd();
    if (isRow(line) && isRule(lines[i + 1] || "")) {
      flush();
      list = null;
      const rows = [cells(line)];
      for (i += 2; i < lines.length && isRow(lines[i].trim()); i++) rows.push(cells(lines[i].trim()));
      i--;
      frag.append(table(rows));
      continue;
    }
    const head = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*(?:[-*•]|\d+[.)])\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
      list = null;
      continue;
    }
    if (head) {
      flush();
      list = null;
      const hn = document.createElement("h" + Math.min(6, head[1].length + 1));
      inline(hn, head[2]);
      frag.append(hn);
      continue;
    }
    if (bullet) {
      flush();
      const ordered = /^\s*\d/.test(line);
      if (!list || (list.tagName === "OL") !== ordered) {
        list = document.createElement(ordered ? "ol" : "ul");
        frag.append(list);
      }
      const li = document.createElement("li");
      inline(li, bullet[1]);
      list.append(li);
      continue;
    }
    if (list && /^\s{2,}/.test(raw)) {
      inline(list.lastChild, " " + line.trim());
      continue;
    }
    list = null;
    para.push(line.trim());
  }
  flush();
  return frag;
}

// isRow reports whether a line is a table row (| a | b |); isRule whether it is the line under a
// table's header (| --- | :---: |).
const isRow = (line) => /^\|.*\|$/.test(line.trim());
const isRule = (line) => isRow(line) && cells(line.trim()).every((c) => /^:?-{3,}:?$/.test(c));

// cells splits a table row into its cells' text.
function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

// table builds a <table> from rows of cell text, the first row its header.
function table(rows) {
  const t = document.createElement("table");
  t.className = "md-table";
  const head = t.createTHead().insertRow();
  for (const c of rows[0]) {
    const th = document.createElement("th");
    inline(th, c);
    head.append(th);
  }
  const body = t.createTBody();
  for (const r of rows.slice(1)) {
    const tr = body.insertRow();
    for (let i = 0; i < rows[0].length; i++) inline(tr.insertCell(), r[i] || "");
  }
  return t;
}

const INLINE = /(\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/;

// inline appends the inline Markdown of text to parent as text, <strong>, <em>, <code> and <a>.
function inline(parent, text) {
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      parent.append(document.createTextNode(rest));
      return;
    }
    if (m.index) parent.append(document.createTextNode(rest.slice(0, m.index)));
    let el;
    if (m[2] !== undefined || m[3] !== undefined) {
      el = document.createElement("strong");
      el.textContent = m[2] ?? m[3];
    } else if (m[4] !== undefined) {
      el = document.createElement("em");
      el.textContent = m[4];
    } else if (m[5] !== undefined) {
      el = document.createElement("code");
      el.textContent = m[5];
    } else if (/^https?:\/\//i.test(m[7])) {
      el = document.createElement("a");
      el.href = m[7];
      el.rel = "noopener noreferrer";
      el.target = "_blank";
      el.textContent = m[6];
    } else {
      el = document.createTextNode(m[6]);
    }
    parent.append(el);
    rest = rest.slice(m.index + m[0].length);
  }
}
