import type { UiNode } from './node';

// Android's XmlSerializer escapes these in attribute values; a worker must unescape them.
function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

function renderNode(n: UiNode, out: string[]): void {
  const [l, t, r, b] = n.bounds;
  out.push(
    `<node index="${n.index}" text="${esc(n.text)}" resource-id="${esc(n.id)}" class="${n.cls}" package="${n.pkg}"` +
      ` content-desc="${esc(n.desc)}" checkable="false" checked="false" clickable="${n.clickable}" enabled="${n.enabled}"` +
      ` focusable="${n.clickable}" focused="false" scrollable="${n.scrollable}" long-clickable="false" password="false"` +
      ` selected="${n.selected}" bounds="[${l},${t}][${r},${b}]"`,
  );
  if (n.children.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  for (const c of n.children) renderNode(c, out);
  out.push('</node>');
}

/** One line, exactly as `uiautomator dump` writes the file (no trailing newline). */
export function renderXml(root: UiNode): string {
  const out: string[] = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"];
  renderNode(root, out);
  out.push('</hierarchy>');
  return out.join('');
}
