/**
 * Keys for `options` objects. The common names get the usual keys (`color`, `size`) so that
 * mappings read naturally; any other dimension keeps its page name as its key — the flow never
 * assumes which or how many dimensions a goods has.
 */
const WELL_KNOWN: Readonly<Record<string, string>> = {
  颜色分类: 'color',
  颜色: 'color',
  尺码: 'size',
  尺寸: 'size',
};

export function dimensionKeys(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let key = WELL_KNOWN[name] ?? name;
    if (used.has(key)) key = name;
    for (let i = 2; used.has(key); i++) key = `${name}_${i}`;
    used.add(key);
    return key;
  });
}
