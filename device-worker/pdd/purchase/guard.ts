import type { AdbDevice } from '../../adb/adb-device';
import { DeviceError } from '../../errors';
import type { TapTarget } from '../../adb/adb-device';
import { descendants, parseUiDump, resolveRef, topmostAt, within, type UiDump, type UiNode } from '../ui-xml';
import { PAYMENT_DENY_TEXTS, PAYMENT_SCREEN_TEXTS } from './profile';

/** A tap the purchase guard refused: never retried, the flow stops where it is. */
export class TapRefused extends DeviceError {
  override readonly name: string = 'TapRefused';
  constructor(message: string) {
    super('TAP_REFUSED', message);
  }
}

export interface TapGuardOptions {
  authorizationId: string;
  /** true once `irreversible_action_at` is recorded for the authorization (read from the ledger each time) */
  irreversible(authorizationId: string): boolean;
  pkg: string;
  submitLabel: string;
  /** the only page that may still be opened (by intent) once the authorization is irreversible */
  readOnlyUrl: string;
}

/**
 * The clickable node a touch at (x, y) ends on, as Android dispatches it: the topmost node there
 * in drawing order (ui-xml.ts topmostAt), or its nearest clickable ancestor. Null when the
 * topmost node and its ancestors are not clickable: the touch goes nowhere useful.
 */
function hitTarget(dump: UiDump, x: number, y: number): UiNode | null {
  for (let n = topmostAt(dump, x, y); n; n = n.parent) if (n.clickable) return n;
  return null;
}

function describeNode(n: UiNode | null): string {
  if (!n) return 'nothing';
  const what = n.text || n.contentDesc;
  return `${n.className}${what ? ` ${JSON.stringify(what)}` : ''} [${n.bounds.left},${n.bounds.top}][${n.bounds.right},${n.bounds.bottom}]`;
}

function texts(n: UiNode): string[] {
  return [n, ...descendants(n)].flatMap((m) => [m.text, m.contentDesc]).filter((t) => t.length > 0);
}

/**
 * The one gate every input of a purchase passes (不付款 / 最终面板零点击): each tap
 * is hit-tested against the last dump and refused when it would land on a payment control, on a
 * foreign app, on nothing, or — without the one-shot permit of submitOnce — on 提交订单. After
 * `irreversible_action_at` of the authorization no input of any kind passes, except the single
 * permitted submit tap itself. No caller can hand it a coordinate it has not seen in a dump.
 */
export class TapGuard {
  private last: UiDump | null = null;
  private permit: { x: number; y: number } | null = null;
  /** every input this guard let through, for the step log and tests */
  readonly passed: { kind: string; x?: number; y?: number; target?: string }[] = [];

  constructor(readonly opts: TapGuardOptions) {}

  /** Arms exactly one tap at exactly this point; only submitOnce calls it, after the durable write. */
  permitSubmitTap(point: { x: number; y: number }): void {
    if (!this.opts.irreversible(this.opts.authorizationId))
      throw new TapRefused('a submit permit needs irreversible_action_at recorded first');
    if (this.permit) throw new TapRefused('a submit permit is already armed');
    this.permit = { ...point };
  }

  remember(xml: string): void {
    try {
      this.last = parseUiDump(xml);
    } catch {
      this.last = null; // an unreadable dump: nothing may be tapped until a readable one
    }
  }

  /**
   * `meant` is the node the step means to tap: the tap passes only when the node Android would
   * dispatch to at (x, y) — the topmost there — is that node or inside it. Anything drawn over it
   * (a dialog, its mask, a toast) and the tap is refused.
   */
  checkTap(x: number, y: number, meant?: TapTarget): void {
    const permit = this.permit;
    this.permit = null; // one shot, used or not
    const dump = this.last;
    if (!dump) throw new TapRefused(`tap (${x},${y}) refused: no readable dump to check it against`);
    if (!meant) throw new TapRefused(`tap (${x},${y}) refused: it names no node it means to tap`);
    const node = resolveRef(dump, meant);
    if (!node) throw new TapRefused(`tap (${x},${y}) refused: ${meant.label} is not in the last dump`);
    const top = topmostAt(dump, x, y);
    if (!top || !within(top, node))
      throw new TapRefused(`tap (${x},${y}) refused: it would land on ${describeNode(top)}, drawn over ${meant.label}`);
    const target = hitTarget(dump, x, y);
    if (!target) throw new TapRefused(`tap (${x},${y}) refused: it hits no clickable node`);
    if (dump.root.packageName !== this.opts.pkg || target.packageName !== this.opts.pkg)
      throw new TapRefused(`tap (${x},${y}) refused: not the PDD app (${target.packageName})`);
    const shown = texts(target);
    const paying = shown.find((t) => PAYMENT_DENY_TEXTS.some((d) => t.includes(d)));
    if (paying !== undefined)
      throw new TapRefused(`tap (${x},${y}) refused: it would hit a payment control (${JSON.stringify(paying)})`);
    const onScreen = dump.nodes.find((n) =>
      PAYMENT_SCREEN_TEXTS.some((d) => n.text.includes(d) || n.contentDesc.includes(d)),
    );
    if (onScreen)
      throw new TapRefused(
        `tap (${x},${y}) refused: a payment control (${JSON.stringify(onScreen.text || onScreen.contentDesc)}) is on screen`,
      );
    const submit = shown.some((t) => t.startsWith(this.opts.submitLabel));
    if (permit) {
      if (permit.x !== x || permit.y !== y || !submit)
        throw new TapRefused(
          `tap (${x},${y}) refused: the submit permit is for (${permit.x},${permit.y}) on ${this.opts.submitLabel}`,
        );
    } else {
      if (submit)
        throw new TapRefused(`tap (${x},${y}) refused: ${this.opts.submitLabel} is tapped only by submitOnce`);
      if (this.opts.irreversible(this.opts.authorizationId))
        throw new TapRefused(
          `tap (${x},${y}) refused: authorization ${this.opts.authorizationId} is past irreversible_action_at; only reads are allowed`,
        );
    }
    this.passed.push({ kind: 'tap', x, y, target: meant.label });
  }

  checkOtherInput(kind: string): void {
    if (this.opts.irreversible(this.opts.authorizationId))
      throw new TapRefused(
        `${kind} refused: authorization ${this.opts.authorizationId} is past irreversible_action_at; only reads are allowed`,
      );
    this.passed.push({ kind });
  }

  /**
   * The phone as the purchase flow sees it: the same AdbDevice, but every input goes through
   * this guard and every dump is remembered for the next hit test. Raw `input` through shell
   * is refused outright.
   */
  wrap(adb: AdbDevice): AdbDevice {
    return wrapWith(this, adb);
  }
}

function wrapWith(guard: TapGuard, adb: AdbDevice): AdbDevice {
  return new Proxy(adb, {
    get(target, prop, receiver) {
      switch (prop) {
        case 'tap':
          return async (x: number, y: number, meant?: TapTarget) => {
            guard.checkTap(Math.round(x), Math.round(y), meant);
            await target.tap(x, y, meant);
          };
        case 'swipe':
          return async (x1: number, y1: number, x2: number, y2: number, ms: number) => {
            guard.checkOtherInput('swipe');
            await target.swipe(x1, y1, x2, y2, ms);
          };
        case 'keyevent':
          return async (code: number) => {
            guard.checkOtherInput(`keyevent ${code}`);
            await target.keyevent(code);
          };
        case 'startView':
          return async (url: string) => {
            if (url !== guard.opts.readOnlyUrl && guard.opts.irreversible(guard.opts.authorizationId))
              throw new TapRefused(
                `opening ${url} refused: past irreversible_action_at only the orders list may be opened`,
              );
            await target.startView(url);
          };
        case 'shell':
          return async (command: string, timeoutMs?: number) => {
            if (/^\s*input\b/.test(command) || /[;&|]\s*input\b/.test(command))
              throw new TapRefused(`raw input through shell is refused: ${command}`);
            return target.shell(command, timeoutMs);
          };
        case 'dumpUi':
          return async () => {
            const out = await target.dumpUi();
            if (out.kind === 'xml') guard.remember(out.xml);
            return out;
          };
        default: {
          const v: unknown = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        }
      }
    },
  });
}
