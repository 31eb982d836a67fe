import type { UiDump, UiNode } from './ui-xml';

/**
 * What a fixture must never carry into the repository: a phone number, a postal address or a
 * recipient's name, as the cashier, the orders list or an address page would show them. Labels
 * alone (`收货人`, `详细地址`, an empty field) and masked numbers (`138****6688`) are not data.
 * The check names the kind and where it is, never the value.
 */

/** the attributes a person's data can be in: what is shown and what is read aloud */
const READ = ['text', 'content-desc', 'hint'] as const;

/** a mainland mobile number (with +86, spaces or dashes), or a fixed line with its area code */
const PHONE = [/(?<![\d*])(?:\+?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?![\d*])/, /(?<![\d*])0\d{2,3}-\d{7,8}(?![\d*])/];

/**
 * An address: a province, city or district followed by more of the place, or a street, road,
 * lane or village with a number (`科技园路1号`, `幸福小区3栋`).
 */
const ADDRESS = [
  /[\u4e00-\u9fa5]{2,}(?:省|自治区|市)[\u4e00-\u9fa5]{1,}(?:市|区|县|旗|州|盟)/,
  /[\u4e00-\u9fa5](?:路|街|道|巷|弄|村|镇|里|小区|大厦|花园)\s*\d+\s*(?:号|栋|幢|座|室|楼|单元|弄)/,
];

/** a recipient named after its label: `收货人：张三`, `收件人 李四` */
const RECIPIENT = /(?:收货人|收件人|联系人)\s*[:：]?\s*[^\s:：]/;

function valuesOf(n: UiNode): string[] {
  return READ.map((k) => n.attrs[k] ?? '').filter((v) => v.trim().length > 0);
}

function where(n: UiNode): string {
  return `${n.className || 'a node'} [${n.bounds.left},${n.bounds.top}][${n.bounds.right},${n.bounds.bottom}]`;
}

/** Why this dump may not be a fixture (the kind of data and the node it is in), or null when none is found. */
export function privateDataIn(dump: UiDump): string | null {
  for (const n of dump.nodes)
    for (const v of valuesOf(n)) {
      if (PHONE.some((re) => re.test(v))) return `a phone number in ${where(n)}`;
      if (ADDRESS.some((re) => re.test(v))) return `an address in ${where(n)}`;
      if (RECIPIENT.test(v)) return `a recipient's name in ${where(n)}`;
    }
  return null;
}
