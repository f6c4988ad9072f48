
// Notes (notes.js): the editor's completion and Markdown shortcuts. The
// editor is a plain textarea of Markdown that saves without this; here,
// typing `@`, `^` or `#` and a few letters offers people, projects or tags
// (asked of /notes/suggestions) in a list under the box: up and down
// choose, Enter picks, Escape closes, and a status line says what is
// offered. Ctrl (or Cmd) with B, I or K makes bold, italics or a link, and
// Enter in a list starts the next item (or ends the list on an empty one).
{
  const editor = document.querySelector("textarea[data-editor]");
  if (editor) {
    const kinds = { "@": "person", "^": "project", "#": "tag" };
    const status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    editor.after(status);
    let list = null;
    let active = -1;
    let asked = 0;
    let timer = 0;
    // Where the last picked name began: not offered again.
    let settled = -1;

    // Puts `text` in place of start..end as typing would (so undo keeps it).
    const put = (text, start, end) => {
      editor.focus();
      editor.setSelectionRange(start, end);
      if (!document.execCommand("insertText", false, text)) {
        editor.setRangeText(text, start, end, "end");
      }
    };

    // What is being typed after a sigil, just before the caret: a tag is
    // one word, a person or project up to three.
    const typed = () => {
      if (editor.selectionStart !== editor.selectionEnd) return null;
      const upto = editor.value.slice(0, editor.selectionStart);
      const m = /(^|[\s(])([@^#])([^\s@^#]{1,40}(?: [^\s@^#]{1,40}){0,2})$/u.exec(upto);
      if (!m) return null;
      const start = upto.length - m[3].length - 1;
      if (start === settled) return null;
      if (m[2] === "#" && /\s/u.test(m[3])) return null;
      return { sigil: m[2], q: m[3], start };
    };

    const close = () => {
      list?.remove();
      list = null;
      active = -1;
      editor.removeAttribute("aria-activedescendant");
      editor.removeAttribute("aria-controls");
    };

    const mark = () => {
      if (!list) return;
      [...list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === active)));
      const li = list.children[active];
      if (li) {
        editor.setAttribute("aria-activedescendant", li.id);
        li.scrollIntoView({ block: "nearest" });
      }
    };

    const pick = (li) => {
      const t = typed();
      close();
      if (!t) return;
      const text = `${li.dataset.insert} `;
      settled = t.start;
      put(text, t.start, editor.selectionStart);
      status.textContent = `${li.dataset.insert} put in the note.`;
    };

    const offer = async () => {
      const t = typed();
      if (!t) {
        close();
        return;
      }
      const n = ++asked;
      const url = `/notes/suggestions?kind=${kinds[t.sigil]}&q=${encodeURIComponent(t.q)}`;
      const answer = await fetch(url, { credentials: "same-origin" });
      if (!answer.ok || n !== asked) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const next = page.getElementById("note-suggestions");
      if (!next || next.children.length === 0) {
        close();
        status.textContent = "";
        return;
      }
      next.addEventListener("mousedown", (event) => {
        const li = event.target.closest("[role=option]");
        if (li) {
          event.preventDefault();
          pick(li);
        }
      });
      if (list) list.replaceWith(next);
      else editor.after(next);
      list = next;
      editor.setAttribute("aria-controls", next.id);
      active = 0;
      mark();
      const count = next.children.length;
      status.textContent = `${count} ${count === 1 ? "suggestion" : "suggestions"}: up and down to choose, Enter to pick, Escape to close.`;
    };

    // Bold, italics and links around the selection.
    const wrap = (before, after, placeholder) => {
      const { selectionStart: start, selectionEnd: end, value } = editor;
      const inner = value.slice(start, end) || placeholder;
      put(`${before}${inner}${after}`, start, end);
      editor.setSelectionRange(start + before.length, start + before.length + inner.length);
    };

    // Enter at the end of a list item: the next item, or the list's end.
    const continueList = () => {
      const { selectionStart: at, value } = editor;
      if (at !== editor.selectionEnd) return false;
      const lineStart = value.lastIndexOf("\n", at - 1) + 1;
      const lineEnd = value.indexOf("\n", at);
      if (lineEnd !== -1 && lineEnd !== at) return false;
      const line = value.slice(lineStart, at);
      const m = /^(\s*)([-*+]|(\d+)([.)]))\s+(\[[ xX]\]\s+)?(.*)$/u.exec(line);
      if (!m) return false;
      if (m[6].trim() === "") {
        put("", lineStart, at);
        return true;
      }
      const marker = m[3] ? `${Number(m[3]) + 1}${m[4]}` : m[2];
      const box = m[5] ? "[ ] " : "";
      put(`\n${m[1]}${marker} ${box}`, at, at);
      return true;
    };

    editor.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => offer().catch(close), 80);
    });
    editor.addEventListener("blur", () => setTimeout(close, 150));
    editor.addEventListener("keydown", (event) => {
      if (list) {
        const count = list.children.length;
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          active = (active + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
          mark();
          return;
        }
        if (event.key === "Enter" && list.children[active]) {
          event.preventDefault();
          pick(list.children[active]);
          return;
        }
        if (event.key === "Escape") {
          event.preventDefault();
          close();
          status.textContent = "Suggestions closed.";
          return;
        }
      }
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && !event.shiftKey) {
        const key = event.key.toLowerCase();
        if (key === "b") {
          event.preventDefault();
          wrap("**", "**", "bold");
        } else if (key === "i") {
          event.preventDefault();
          wrap("_", "_", "italics");
        } else if (key === "k") {
          event.preventDefault();
          const { selectionStart: start, selectionEnd: end, value } = editor;
          const text = value.slice(start, end) || "link";
          put(`[${text}](https://)`, start, end);
          const url = start + text.length + 3;
          editor.setSelectionRange(url, url + "https://".length);
        }
        return;
      }
      if (event.key === "Enter" && !event.shiftKey && !mod && continueList()) {
        event.preventDefault();
      }
    });
  }
}
