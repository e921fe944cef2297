// A small, safe Markdown renderer for rules pages (sdk.Info.Rules) and anything else a plugin
// sends: it builds DOM nodes and text nodes only, never innerHTML, so no markup in the text can
// run. Supported: # headings, paragraphs, - * • and 1. lists, **bold**, *italic*, `code`, and
// [links](https://...) to http(s) addresses only.

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
  for (const raw of lines) {
    const line = raw.trimEnd();
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
