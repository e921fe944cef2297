// The house-rule editor (docs/house-rules.md, "The editor"): CodeMirror 6, vendored unchanged
// from its npm releases under static/vendor (MANIFEST.tsv; index.html's import map names the
// modules), with line numbers, Lua highlighting, undo, bracket matching, and a line marked as the
// error's (markError) that the editor can jump to (goToLine). Tab is left to move the focus (the
// editor is one stop of the page's keyboard order, not a trap); indentation follows Enter.
//
// The element ruleEditor returns behaves as a form field for the page and its tests: .value reads
// and sets the script, .select() focuses it with everything selected (so typing replaces it, as in
// a textarea), and an "input" event bubbles from it on every edit. The editor lives in the
// element's (open) shadow root: its line marked as the error's is .cm-error-line there.

import { EditorState, StateField, StateEffect, RangeSet } from "@codemirror/state";
import { EditorView, lineNumbers, keymap, Decoration, highlightActiveLine, highlightActiveLineGutter, drawSelection, gutterLineClass, GutterMarker, placeholder } from "@codemirror/view";
import { StreamLanguage, syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from "@codemirror/language";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { tags } from "@lezer/highlight";
import { lua } from "@codemirror/legacy-modes/mode/lua";

// setError marks a line (1-based) as the error's, or clears the mark (0).
const setError = StateEffect.define();

const errorLine = Decoration.line({ class: "cm-error-line", attributes: { "data-error-line": "true" } });
const errorGutter = new (class extends GutterMarker { })();
errorGutter.elementClass = "cm-error-gutter";

// errorField holds the error's line as a decoration (it moves with edits above it).
const errorField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setError)) continue;
      if (!e.value || e.value > tr.state.doc.lines) deco = Decoration.none;
      else deco = Decoration.set([errorLine.range(tr.state.doc.line(e.value).from)]);
    }
    return deco;
  },
  provide: (f) => [EditorView.decorations.from(f), gutterLineClass.from(f, (deco) => {
    const marks = [];
    for (let it = deco.iter(); it.value; it.next()) marks.push(errorGutter.range(it.from));
    return RangeSet.of(marks);
  })],
});

// Colours on the page's dark panel, each at least 4.5:1 against it (axe's contrast rule).
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "#f2c14e", fontWeight: "600" },
  { tag: [tags.string, tags.special(tags.string)], color: "#9be29b" },
  { tag: tags.comment, color: "#a9b8c6", fontStyle: "italic" },
  { tag: tags.number, color: "#ffb38a" },
  { tag: [tags.standard(tags.variableName), tags.function(tags.variableName)], color: "#8fd0ff" },
  { tag: tags.operator, color: "#eef3f7" },
  { tag: tags.bracket, color: "#d7c6ff" },
]);

const theme = EditorView.theme({
  "&": { backgroundColor: "#0c151d", color: "#eef3f7", borderRadius: "8px", border: "1px solid #2c4356", fontSize: ".9em" },
  "&.cm-focused": { outline: "3px solid #f2c14e", outlineOffset: "2px" },
  ".cm-scroller": { fontFamily: "\"DejaVu Sans Mono\", monospace", lineHeight: "1.45", minHeight: "14em", maxHeight: "32em", overflow: "auto" },
  ".cm-content": { caretColor: "#f2c14e", minHeight: "12em" },
  ".cm-gutter": { minHeight: "12em" },
  ".cm-cursor": { borderLeftColor: "#f2c14e" },
  ".cm-gutters": { backgroundColor: "#111e29", color: "#a9b8c6", borderRight: "1px solid #2c4356" },
  ".cm-activeLine": { backgroundColor: "#ffffff0d" },
  ".cm-activeLineGutter": { backgroundColor: "#ffffff14", color: "#eef3f7" },
  ".cm-selectionBackground, &.cm-focused .cm-selectionBackground": { backgroundColor: "#3a5a78 !important" },
  ".cm-error-line": { backgroundColor: "#5a1d22", boxShadow: "inset 3px 0 #e0393e" },
  ".cm-gutterElement.cm-error-gutter": { backgroundColor: "#5a1d22", color: "#ffffff", fontWeight: "700" },
  ".cm-placeholder": { color: "#a9b8c6" },
  ".cm-matchingBracket": { backgroundColor: "#2e4a34", outline: "1px solid #3fb68b" },
}, { dark: true });

// ruleEditor makes the editor: id names its element (the field), label is its accessible name,
// hint the placeholder shown while it is empty.
export function ruleEditor({ id, label, hint = "", value = "" }) {
  const el = document.createElement("div");
  el.id = id;
  el.className = "rule-editor";
  // In a shadow root, CodeMirror's styles are constructed style sheets, which the page's
  // Content-Security-Policy (no inline style) allows; in the document it would add <style> elements.
  const root = el.attachShadow({ mode: "open" });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: value,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(),
        StreamLanguage.define(lua), syntaxHighlighting(highlight), bracketMatching(), indentOnInput(),
        EditorState.tabSize.of(2), placeholder(hint), errorField, theme,
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.contentAttributes.of({ tabindex: "0", "aria-label": label, spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
        // A non-breaking space (a web page's, or a browser's own in typed text) becomes a space:
        // Lua reads it as an unexpected symbol.
        EditorView.clipboardInputFilter.of((text) => text.replace(/\u00a0/g, " ")),
        EditorView.inputHandler.of((v, from, to, text) => {
          if (!text.includes("\u00a0")) return false;
          const clean = text.replace(/\u00a0/g, " ");
          v.dispatch({ changes: { from, to, insert: clean }, selection: { anchor: from + clean.length }, userEvent: "input.type" });
          return true;
        }),
        // Text typed over a selection, or typed with line breaks, is put in by the editor itself:
        // the browser's own editing would rewrite the lines' markup first (with style attributes
        // the page's Content-Security-Policy refuses) before the editor reads it back.
        EditorView.domEventHandlers({
          beforeinput(e, v) {
            if (e.inputType !== "insertText" || e.isComposing || e.data == null) return false;
            if (v.state.selection.main.empty && !e.data.includes("\n")) return false;
            e.preventDefault();
            v.dispatch(v.state.replaceSelection(e.data.replace(/\u00a0/g, " ")), { userEvent: "input.type" });
            return true;
          },
        }),
        EditorView.updateListener.of((u) => { if (u.docChanged) el.dispatchEvent(new Event("input", { bubbles: true })); }),
      ],
    }),
  });
  Object.defineProperty(el, "value", {
    get: () => view.state.doc.toString(),
    set: (v) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: String(v ?? "") }, effects: setError.of(0) }),
  });
  el.select = () => { view.focus(); view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } }); };
  el.focus = () => view.focus();
  // markError marks line (1-based; 0 or past the end clears the mark) and scrolls it into sight.
  el.markError = (line) => {
    const ok = line > 0 && line <= view.state.doc.lines;
    view.dispatch({ effects: ok ? [setError.of(line), EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "center" })] : [setError.of(0)] });
  };
  // goToLine puts the cursor at the start of line and the focus in the editor.
  el.goToLine = (line) => {
    if (!(line > 0 && line <= view.state.doc.lines)) return;
    const at = view.state.doc.line(line);
    view.dispatch({ selection: { anchor: at.from, head: at.to }, effects: EditorView.scrollIntoView(at.from, { y: "center" }) });
    view.focus();
  };
  el.view = view;
  return el;
}
