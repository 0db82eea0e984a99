// Lock Lab's code editor: CodeMirror 6, bundled by build.sh into
// static/vendor/editor.min.js. It only enhances: every form it touches
// still posts its plain fields (the design page's textareas, the command
// line's input), with or without it.
//
// - Script boxes (textarea.script): Lua highlighting, line numbers,
//   bracket matching, history, the usual keys; Tab indents, and Escape
//   then Tab leaves the editor (CodeMirror's tab-focus convention).
// - The command line (#cli-input): one line, Redis command highlighting,
//   completion of the command names the line sends (data-commands), Up
//   and Down through this timeline's commands (data-history) when no
//   completion is open, Enter sends the form.
// Colours come from the site's stylesheet (tok-* classes, .cm-* rules),
// so light and dark follow the page and no inline style is needed.
import { EditorState } from "@codemirror/state";
import { EditorView, Decoration, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { StreamLanguage, bracketMatching, syntaxHighlighting, indentOnInput } from "@codemirror/language";
import { autocompletion, completionKeymap, closeBrackets, closeBracketsKeymap, completionStatus, acceptCompletion } from "@codemirror/autocomplete";
import { lua } from "@codemirror/legacy-modes/mode/lua";
import { classHighlighter } from "@lezer/highlight";

// redis is a stream language for one command line: the command name,
// quoted strings, numbers, and keys.
function redisMode(names) {
  return StreamLanguage.define({
    name: "redis",
    startState: () => ({ first: true }),
    token(stream, st) {
      if (stream.eatSpace()) { return null; }
      let style = null;
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) {
        style = "string";
      } else if (stream.match(/^-?\d+(?:\.\d+)?(?=\s|$)/)) {
        style = "number";
      } else {
        stream.match(/^\S+/);
        const w = stream.current().toUpperCase();
        style = st.first ? (names.has(w) ? "keyword" : "invalid") : (/[:]/.test(w) ? "variableName" : null);
      }
      st.first = false;
      return style;
    },
  });
}

function commandCompletions(names) {
  const options = [...names].sort().map((n) => ({ label: n, type: "keyword" }));
  return (ctx) => {
    const line = ctx.state.doc.toString().slice(0, ctx.pos);
    if (/\s/.test(line.trimStart())) { return null; } // only the first word
    const word = ctx.matchBefore(/\S*/);
    if (!word || (word.from === word.to && !ctx.explicit)) { return null; }
    return { from: word.from, options, validFor: /^\S*$/ };
  };
}

// plain is the text as the form sends it: a space the browser's editing
// surface stored as a no-break space (U+00A0) is a space again.
const plain = (s) => s.replace(/\u00a0/g, " ");

const base = [drawSelection(), syntaxHighlighting(classHighlighter),
  // tabindex: the content is focusable anyway (contenteditable); saying so
  // lets checkers see that a scrolled editor is reachable by keyboard
  EditorView.contentAttributes.of({ spellcheck: "false", autocapitalize: "off", autocorrect: "off", tabindex: "0" })];

// script turns a textarea into a Lua editor kept in step with it.
function script(ta) {
  const view = new EditorView({
    doc: ta.value,
    extensions: [
      base, lineNumbers(), highlightActiveLine(), history(), indentOnInput(), bracketMatching(), closeBrackets(),
      StreamLanguage.define(lua), EditorView.editorAttributes.of({ class: "cm-script" }),
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      EditorView.contentAttributes.of({ "aria-label": labelOf(ta) }),
      EditorView.updateListener.of((u) => { if (u.docChanged) { ta.value = plain(u.state.doc.toString()); } }),
      refused(ta),
    ],
  });
  ta.classList.add("cm-hidden");
  ta.setAttribute("aria-hidden", "true");
  ta.tabIndex = -1;
  ta.after(view.dom);
  for (const l of document.querySelectorAll(`label[for="${ta.id}"]`)) {
    l.addEventListener("click", (e) => { e.preventDefault(); view.focus(); });
  }
  // the script a design was refused for: the caret on the line the
  // checker named, and its box in view, its name and reason above it
  if (ta.hasAttribute("autofocus")) {
    const n = Number(ta.getAttribute("data-error-line")) || 0;
    if (n >= 1 && n <= view.state.doc.lines) {
      view.dispatch({ selection: { anchor: view.state.doc.line(n).from } });
    }
    view.focus();
    (ta.closest("fieldset") || view.dom).scrollIntoView({ block: "start" });
  }
}

// refused is, for the script a design was refused for, what the page's
// textarea said of it: invalid, described by the reason, and the line the
// checker named marked while the script is as it was sent (once edited,
// the mark would stand for nothing).
function refused(ta) {
  if (ta.getAttribute("aria-invalid") !== "true") { return []; }
  const attrs = EditorView.contentAttributes.of({ "aria-invalid": "true", "aria-describedby": ta.getAttribute("aria-describedby") || "" });
  const n = Number(ta.getAttribute("data-error-line")) || 0;
  if (n < 1) { return attrs; }
  const mark = Decoration.line({ class: "cm-error-line" });
  const sent = plain(ta.defaultValue);
  return [attrs, EditorView.decorations.compute(["doc"], (st) =>
    st.doc.toString() !== sent || n > st.doc.lines ? Decoration.none : Decoration.set([mark.range(st.doc.line(n).from)]))];
}

function labelOf(el) {
  const l = el.id && document.querySelector(`label[for="${el.id}"]`);
  return (l && l.textContent.trim()) || el.getAttribute("aria-label") || "";
}

// commandLine turns the command line's input into a one-line editor; the
// input stays in the form, hidden, and carries the value.
function commandLine(input) {
  const names = new Set(JSON.parse(input.getAttribute("data-commands") || "[]"));
  let hist = [];
  try { hist = JSON.parse(input.getAttribute("data-history") || "[]"); } catch (e) { hist = []; }
  let pos = hist.length;
  const form = input.form;
  const walk = (d) => (view) => {
    if (completionStatus(view.state) === "active" || !hist.length) { return false; }
    pos = Math.max(0, Math.min(hist.length, pos + d));
    const text = pos < hist.length ? hist[pos] : "";
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } });
    return true;
  };
  const send = (view) => {
    if (completionStatus(view.state) === "active" && acceptCompletion(view)) { return true; }
    refocus = true; // the page that answers gets a new line: focus it
    input.value = plain(view.state.doc.toString());
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    return true;
  };
  const view = new EditorView({
    doc: input.value,
    extensions: [
      base, history(), closeBrackets(), redisMode(names), EditorView.editorAttributes.of({ class: "cm-cli" }),
      autocompletion({ override: [commandCompletions(names)], activateOnTyping: true, icons: false, interactionDelay: 0 }),
      // one line: a line break typed (Enter, which the keymap has already
      // handled) adds nothing; one pasted inside text becomes a space
      EditorState.transactionFilter.of((tr) => {
        if (tr.newDoc.lines === 1) { return tr; }
        let onlyBreaks = true;
        tr.changes.iterChanges((fa, ta, fb, tb, ins) => { if (ins.toString().replace(/\r?\n/g, "") !== "") { onlyBreaks = false; } });
        if (onlyBreaks) { return []; }
        return [tr, { changes: { from: 0, to: tr.newDoc.length, insert: tr.newDoc.sliceString(0).replace(/\r?\n/g, " ") }, sequential: true }];
      }),
      keymap.of([{ key: "Enter", run: send }, { key: "ArrowUp", run: walk(-1) }, { key: "ArrowDown", run: walk(1) },
        ...closeBracketsKeymap, ...completionKeymap, ...defaultKeymap, ...historyKeymap]),
      EditorView.contentAttributes.of({ "aria-label": labelOf(input), "aria-describedby": input.getAttribute("aria-describedby") || "" }),
      EditorView.updateListener.of((u) => { if (u.docChanged) { input.value = plain(u.state.doc.toString()); } }),
    ],
  });
  input.type = "hidden";
  input.after(view.dom);
  for (const l of document.querySelectorAll(`label[for="${input.id}"]`)) {
    l.addEventListener("click", (e) => { e.preventDefault(); view.focus(); });
  }
  return view;
}

let refocus = false;

function enhance(root) {
  for (const ta of root.querySelectorAll("textarea.script:not([data-editor])")) {
    ta.setAttribute("data-editor", "");
    script(ta);
  }
  const input = root.querySelector("#cli-input:not([data-editor])");
  if (input) {
    input.setAttribute("data-editor", "");
    const view = commandLine(input);
    if (document.activeElement === input || refocus) { view.focus(); }
    refocus = false;
  }
}

window.LockLabEditor = { enhance };
enhance(document);
document.addEventListener("htmx:afterSettle", () => enhance(document));
