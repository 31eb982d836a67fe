import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { DeviceError } from '../errors';
import { FIXTURES_DIR } from './fixtures';
import { profileForVersion } from './profile';
import { classify } from './screens';
import { parseUiDump, topmostAt, type UiDump, type UiNode } from './ui-xml';

// The same screen written by hand in both formats: `uiautomator dump` (one line, `node` elements)
// and the UiAutomator2 server's page source (indented with CRLF as Android's serializer writes
// it, elements named by class, empty resource-id / content-desc left out).
const P = 'com.xunmeng.pinduoduo';
const DUMP =
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
  `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="${P}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2376]">` +
  `<node index="0" text="A &amp; B &quot;x&quot; &lt;y&gt;" resource-id="${P}:id/title" class="android.widget.TextView" package="${P}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,100][1080,200]" />` +
  `<node index="2" text="" resource-id="" class="com.pdd.Widget$Inner" package="${P}" content-desc="关闭" checkable="false" checked="false" clickable="true" enabled="false" focusable="true" focused="false" scrollable="true" long-clickable="false" password="false" selected="true" bounds="[10,300][500,900]">` +
  `<node index="0" text="¥12.50" resource-id="" class="android.widget.TextView" package="${P}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[10,300][500,400]" />` +
  `</node></node></hierarchy>`;
const common = 'checkable="false" checked="false"';
const SOURCE = [
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`,
  `<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2376">`,
  `  <android.widget.FrameLayout index="0" package="${P}" class="android.widget.FrameLayout" text="" ${common} clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[0,0][1080,2376]" displayed="true">`,
  `    <android.widget.TextView index="0" package="${P}" class="android.widget.TextView" text="A &amp; B &quot;x&quot; &lt;y&gt;" resource-id="${P}:id/title" ${common} clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[0,100][1080,200]" displayed="true" />`,
  `    <com.pdd.Widget.Inner index="2" package="${P}" class="com.pdd.Widget$Inner" text="" content-desc="关闭" ${common} clickable="true" enabled="false" focusable="true" focused="false" long-clickable="false" password="false" scrollable="true" selected="true" bounds="[10,300][500,900]" displayed="true">`,
  `      <android.widget.TextView index="0" package="${P}" class="android.widget.TextView" text="¥12.50" ${common} clickable="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" scrollable="false" selected="false" bounds="[10,300][500,400]" displayed="true" />`,
  `    </com.pdd.Widget.Inner>`,
  `  </android.widget.FrameLayout>`,
  `</hierarchy>`,
].join('\r\n');

/** What the worker reads of a node, its place in the tree included; `attrs` differ by format. */
function reading(n: UiNode) {
  return {
    order: n.order,
    parent: n.parent?.order ?? null,
    children: n.children.map((c) => c.order),
    text: n.text,
    resourceId: n.resourceId,
    className: n.className,
    packageName: n.packageName,
    contentDesc: n.contentDesc,
    clickable: n.clickable,
    enabled: n.enabled,
    selected: n.selected,
    scrollable: n.scrollable,
    bounds: n.bounds,
  };
}
const readAll = (d: UiDump) => d.nodes.map(reading);

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
});
type Entry = Record<string, unknown>;
const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
const tagFor = (cls: string) =>
  cls
    .replace(/[$@#&]/g, '.')
    .replace(/\.+/g, '.')
    .replace(/^\.|\.$/g, '')
    .replace(/[^A-Za-z0-9._-]/g, '_') || 'android.view.View';
const FIRST = ['index', 'package', 'class', 'text', 'content-desc', 'resource-id'];

/** A `uiautomator dump` rewritten as the server's page source, independently of the simulator. */
function asPageSource(dumpXml: string): string {
  const render = (e: Entry, depth: number): string => {
    const a = (e[':@'] ?? {}) as Record<string, string>;
    const keys = [...FIRST.filter((k) => k in a), ...Object.keys(a).filter((k) => !FIRST.includes(k))];
    const attrs = keys
      .filter((k) => !((k === 'resource-id' || k === 'content-desc') && a[k] === ''))
      .map((k) => ` ${k}="${esc(a[k] ?? '')}"`)
      .join('');
    const tag = tagFor(a['class'] ?? '');
    const kids = ((e['node'] ?? []) as Entry[]).filter((c) => 'node' in c);
    const pad = '\n' + '  '.repeat(depth);
    if (kids.length === 0) return `${pad}<${tag}${attrs} displayed="true" />`;
    return `${pad}<${tag}${attrs} displayed="true">${kids.map((k) => render(k, depth + 1)).join('')}${pad}</${tag}>`;
  };
  const doc = xmlParser.parse(dumpXml) as Entry[];
  const hierarchy = doc.find((e) => 'hierarchy' in e) as Entry;
  const root = ((hierarchy['hierarchy'] ?? []) as Entry[]).find((e) => 'node' in e) as Entry;
  return (
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n` +
    `<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2376">${render(root, 1)}\n</hierarchy>`
  );
}

function refused(xml: string): DeviceError {
  try {
    parseUiDump(xml);
  } catch (e) {
    if (e instanceof DeviceError) return e;
    throw e;
  }
  throw new Error('parsed');
}

describe('parseUiDump reads the dump and the agent page source alike', () => {
  test('the same screen in both formats gives the same nodes in the same order', () => {
    const dump = parseUiDump(DUMP);
    const source = parseUiDump(SOURCE);
    expect(readAll(source)).toEqual(readAll(dump));
    expect(source.nodes.map((n) => n.className)).toEqual([
      'android.widget.FrameLayout',
      'android.widget.TextView',
      'com.pdd.Widget$Inner',
      'android.widget.TextView',
    ]);
    expect(source.nodes[1]).toMatchObject({ text: 'A & B "x" <y>', resourceId: `${P}:id/title` });
    expect(source.nodes[2]).toMatchObject({ contentDesc: '关闭', resourceId: '', clickable: true, enabled: false });
    expect(source.xml).toBe(SOURCE);
    for (const [x, y] of [
      [20, 350],
      [20, 500],
      [600, 150],
      [1079, 2375],
      [1080, 10],
    ] as const)
      expect(topmostAt(source, x, y)?.order).toBe(topmostAt(dump, x, y)?.order);
  });

  test('a class name comes from the class attribute, else from the element name', () => {
    const src = SOURCE.replace(' class="com.pdd.Widget$Inner"', '');
    expect(parseUiDump(src).nodes[2]?.className).toBe('com.pdd.Widget.Inner');
    // a dump node without a class stays without one
    expect(parseUiDump(DUMP.replace(' class="android.widget.TextView"', '')).nodes[1]?.className).toBe('');
  });

  test('every recorded fixture reads the same, and is the same screen, as a page source', () => {
    const profile = profileForVersion('8.17.0');
    const names = fs.readdirSync(FIXTURES_DIR).filter((n) => fs.existsSync(path.join(FIXTURES_DIR, n, 'window.xml')));
    expect(names.length).toBeGreaterThan(10);
    // a screen names nodes by reference: compare them by their place in the dump
    const noNodes = (_: string, v: unknown) =>
      v && typeof v === 'object' && 'order' in v && 'bounds' in v ? { node: (v as UiNode).order } : v;
    for (const name of names) {
      const xml = fs.readFileSync(path.join(FIXTURES_DIR, name, 'window.xml'), 'utf8');
      const dump = parseUiDump(xml);
      const source = parseUiDump(asPageSource(xml));
      expect({ name, nodes: readAll(source) }).toEqual({ name, nodes: readAll(dump) });
      const screen = (d: UiDump) => JSON.stringify(classify(d, profile), noNodes);
      expect({ name, screen: screen(source) }).toEqual({ name, screen: screen(dump) });
    }
  });
});

describe('parseUiDump refuses what is not one screen, in either format', () => {
  const frame = (bounds: string) =>
    `<android.widget.FrameLayout index="0" package="${P}" class="android.widget.FrameLayout" text="" bounds="${bounds}" />`;
  const head = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`;
  const hierarchy = (inner: string) =>
    `${head}<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2376">${inner}</hierarchy>`;

  test('two root elements', () => {
    expect(refused(hierarchy(frame('[0,0][1,1]') + frame('[0,0][1,1]'))).message).toMatch(/2 root nodes/);
    // a toast the server adds beside the window is no second root: the dump never shows it
    const toast = `<android.widget.Toast index="1" class="android.widget.Toast" text="hi" displayed="true" />`;
    const withToast = parseUiDump(hierarchy(frame('[0,0][1,1]') + toast));
    expect(withToast.nodes.map((n) => n.className)).toEqual(['android.widget.FrameLayout']);
    expect(refused(hierarchy(toast + toast)).message).toMatch(/0 root nodes/);
    const dumpTwo = DUMP.replace('</hierarchy>', `<foo bounds="[0,0][1,1]" /></hierarchy>`);
    expect(refused(dumpTwo).message).toMatch(/2 root nodes/);
  });

  test('no root element, or no hierarchy', () => {
    expect(refused(hierarchy('\r\n  text only\r\n')).message).toMatch(/0 root nodes/);
    expect(refused(hierarchy('<?pi data?>')).message).toMatch(/0 root nodes/);
    expect(refused(`${head}${frame('[0,0][1,1]')}`).message).toMatch(/0 root nodes/);
    expect(refused(SOURCE.replace(/hierarchy/g, 'h')).code).toBe('PAGE_UNRECOGNIZED');
    expect(refused('').code).toBe('PAGE_UNRECOGNIZED');
  });

  test('bad bounds anywhere in the tree', () => {
    expect(refused(hierarchy(frame('[0,0][1080]'))).message).toMatch(/bounds/);
    expect(refused(hierarchy(frame('0,0,1,1'))).message).toMatch(/bounds/);
    expect(refused(SOURCE.replace('bounds="[10,300][500,400]"', 'bounds="[a,b][c,d]"')).message).toMatch(/bounds/);
    expect(refused(SOURCE.replace(' bounds="[10,300][500,400]"', '')).message).toMatch(/bounds/);
  });

  test('text between elements is never a node', () => {
    const d = parseUiDump(
      hierarchy(`\n  ${frame('[0,0][1,1]').replace(' />', `>\n    hello\n  </android.widget.FrameLayout>`)}\n`),
    );
    expect(d.nodes).toHaveLength(1);
    expect(d.root.children).toEqual([]);
  });
});
