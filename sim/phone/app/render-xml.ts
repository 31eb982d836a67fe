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

// Characters XML 1.0 does not allow; the server writes `?` for them in attribute values.
const NON_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const safe = (s: string): string => esc(s.replace(NON_XML_CHAR, '?'));

/**
 * The element name the server gives a class: `$`, `@`, `#`, `&` become dots (runs of dots one,
 * none at the ends), whatever else may not stand in an XML name becomes `_`.
 */
export function agentTagName(cls: string): string {
  const dotted = cls
    .replace(/[$@#&]/g, '.')
    .replace(/\.+/g, '.')
    .replace(/^\.|\.$/g, '');
  const name = dotted.replace(/^[^A-Za-z_]+/, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return name === '' ? 'android.view.View' : name;
}

function renderAgentNode(n: UiNode, depth: number, out: string[]): void {
  const [l, t, r, b] = n.bounds;
  const tag = agentTagName(n.cls);
  const pad = '  '.repeat(depth);
  // Attribute order and the ones left out when empty (content-desc, resource-id) are the server's.
  out.push(
    `\n${pad}<${tag} index="${n.index}" package="${safe(n.pkg)}" class="${safe(n.cls)}" text="${safe(n.text)}"` +
      (n.desc ? ` content-desc="${safe(n.desc)}"` : '') +
      (n.id ? ` resource-id="${safe(n.id)}"` : '') +
      ` checkable="false" checked="false" clickable="${n.clickable}" enabled="${n.enabled}"` +
      ` focusable="${n.clickable}" focused="false" long-clickable="false" password="false"` +
      ` scrollable="${n.scrollable}" selected="${n.selected}" bounds="[${l},${t}][${r},${b}]" displayed="true"`,
  );
  if (n.children.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  for (const c of n.children) renderAgentNode(c, depth + 1, out);
  out.push(`\n${pad}</${tag}>`);
}

/**
 * The tree as the UiAutomator2 server's `GET /session/:id/source` writes it: every element named
 * by its class, a `hierarchy` root that carries the display size, indented.
 */
export function renderAgentXml(root: UiNode, display: { width: number; height: number }): string {
  const out: string[] = [
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
    `\n<hierarchy index="0" class="hierarchy" rotation="0" width="${display.width}" height="${display.height}">`,
  ];
  renderAgentNode(root, 1, out);
  out.push('\n</hierarchy>');
  return out.join('');
}
