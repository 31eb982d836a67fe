import type { UiNode } from '../node';

const PDD_PKG = 'com.xunmeng.pinduoduo';
const GENERIC_ID = `${PDD_PKG}:id/pdd`;

// Most of the real app's views carry the shared id `pdd` or none: text-bearing widgets none,
// containers and images `pdd`. Which one a node gets depends only on its class, so a dump is stable.
const NO_ID = new Set([
  'android.widget.TextView',
  'android.widget.Button',
  'android.widget.EditText',
  'android.widget.CheckBox',
  'android.widget.ProgressBar',
  'android.widget.Toast',
]);

/** The `generic` id style: texts, classes, structure and bounds stay; descriptive ids go. */
export function genericIds(n: UiNode): UiNode {
  const rename = n.pkg === PDD_PKG && n.id !== '' && n.id !== GENERIC_ID && !n.keepId;
  return {
    ...n,
    id: rename ? (NO_ID.has(n.cls) ? '' : GENERIC_ID) : n.id,
    children: n.children.map(genericIds),
  };
}
