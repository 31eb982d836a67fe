import { randomUUID } from 'node:crypto';
import { postDevicePng } from '../admin-client';
import { PDD_PACKAGE } from '../../domain/pdd-app';
import {
  MAX_SCREEN_NODE_CHARS,
  MAX_SCREEN_NODES,
  type ScreenNode,
  type ScreenNodesUpload,
} from '../../domain/screen-nodes';
import { nowUtc } from '../../domain/time';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { AdbDevice } from '../adb/adb-device';
import { profileForVersion, type PddProfile } from '../pdd/profile';
import { showsPaymentText } from '../pdd/purchase/evidence';
import { classify, type Screen } from '../pdd/screens';
import { parseUiDump, type UiDump } from '../pdd/ui-xml';

/** Why a second of a held phone was not kept. */
export type SkipReason = 'payment' | 'other_app' | 'unclassified' | 'unreadable';

export type FrameVerdict = { keep: true; screen: string } | { keep: false; why: SkipReason };

/** Texts of a payment keypad or sheet in any app: the cashier's own words plus the password prompts. */
const PASSWORD_TEXTS = ['支付密码', '输入密码'];

/**
 * Payment apps the phone hands a payment to. Only for the count: every root that is neither PDD
 * nor the launcher is refused anyway (`other_app`).
 */
const PAYMENT_APPS = ['com.eg.android.AlipayGphone', 'com.tencent.mm'];

/**
 * Whether a second of a held phone may be kept, by the worker's own classifier. A payment screen
 * is never kept: the cashier, a payment hand-off, any node with a payment or password text (also
 * a keypad drawn over another page). Only PDD's own screens and the launcher are kept: another
 * app's root is refused whole rather than by a list of payment apps, because the worker has no
 * profile of any other app and a list of names would miss a bank's or a wallet's app, or one that
 * embeds a payment sheet. A PDD screen no profile names (`unknown`), something unprofiled drawn
 * over one (`overlay`) or an ambiguous dump is not proof either: nothing is kept.
 */
export function holdFrameVerdict(dump: UiDump, profile: PddProfile): FrameVerdict {
  if (showsPaymentText(dump, profile, PASSWORD_TEXTS)) return { keep: false, why: 'payment' };
  const root = dump.root.packageName;
  if (root === profile.alipayPkg || PAYMENT_APPS.includes(root)) return { keep: false, why: 'payment' };
  if (root !== profile.pkg && root !== profile.launcherPkg) return { keep: false, why: 'other_app' };
  let screen: Screen;
  try {
    screen = classify(dump, profile);
  } catch {
    return { keep: false, why: 'unclassified' };
  }
  switch (screen.kind) {
    case 'cashier':
    case 'payment_handoff':
      return { keep: false, why: 'payment' };
    case 'unknown':
    case 'overlay':
      return { keep: false, why: 'unclassified' };
    case 'stop_page':
      return { keep: true, screen: `stop_page:${screen.page}` };
    case 'interstitial':
      return { keep: true, screen: `interstitial:${screen.name}` };
    default:
      return { keep: true, screen: screen.kind };
  }
}

/**
 * What a read shows a person teaching a popup: the nodes they could mark (a text, a content-desc,
 * or clickable), cut to the admin's bounds.
 */
export function screenNodesOf(dump: UiDump): ScreenNode[] {
  const cut = (s: string) => s.slice(0, MAX_SCREEN_NODE_CHARS);
  return dump.nodes
    .filter((n) => n.text !== '' || n.contentDesc !== '' || n.clickable)
    .slice(0, MAX_SCREEN_NODES)
    .map((n) => ({
      text: cut(n.text),
      content_desc: cut(n.contentDesc),
      resource_id: cut(n.resourceId),
      class: cut(n.className),
      bounds: [n.bounds.left, n.bounds.top, n.bounds.right, n.bounds.bottom],
      clickable: n.clickable,
    }));
}

/** Hands the nodes of one read to the admin; false when it did not take them (logged by the sender). */
export type ScreenNodesSend = (read: ScreenNodesUpload) => Promise<boolean>;

/** A read and, when a person may see what it shows, its nodes. */
interface Read {
  verdict: FrameVerdict;
  /**
   * null for a payment screen, another app, an unreadable or unprofiled read. A popup nobody
   * profiled is not kept as a frame but is offered: it is what a person teaches.
   */
  nodes: ScreenNode[] | null;
}

/** Hands one kept frame to the admin; false when it did not take it (logged by the uploader). */
export type HoldFrameUpload = (png: Buffer, meta: { holdSince: string; capturedAt: string }) => Promise<boolean>;

export interface HoldRecorderStats {
  stored: number;
  skipped: Record<SkipReason, number>;
  /** ticks that came while the last frame was still being read or sent */
  busy: number;
}

/**
 * A held phone's recording (docs/api.md §12.3): one frame a second while a person holds it, each
 * read and classified before and after the screencap — a screen that changed to a payment page
 * between the read and the picture is never kept. It reads through the same ADB as the activities
 * (through the on-device agent while it runs: a `uiautomator dump` is refused then). One frame at
 * a time: a slow read skips ticks rather than queue them.
 */
export class HoldRecorder {
  private hold: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  /** 'none': the phone's PDD version has no profile, so nothing of this hold is classified */
  private profile: PddProfile | 'none' | null = null;
  private counts: HoldRecorderStats = emptyStats();
  private stopped = false;
  /** the nodes the admin last took for this hold, as sent */
  private sentNodes: string | null = null;

  constructor(
    private readonly opts: {
      adb: Pick<AdbDevice, 'dumpUi' | 'screencap' | 'versionName'>;
      upload: HoldFrameUpload;
      /** the nodes of each read a person may see, when they changed (教弹窗); none without */
      sendNodes?: ScreenNodesSend;
      log: Logger;
      intervalMs?: number;
    },
  ) {}

  /** After every status answer: the hold it names (its `since`), or null when the phone is nobody's. */
  follow(hold: { since: string } | null): void {
    const since = this.stopped ? null : (hold?.since ?? null);
    if (since === this.hold) return;
    if (this.hold !== null) this.end();
    if (since === null) return;
    this.hold = since;
    this.profile = null; // the person may have updated the app since the last hold
    this.sentNodes = null;
    this.counts = emptyStats();
    this.opts.log.info({ since }, 'recording the held phone, one frame a second');
    this.timer = setInterval(() => this.tick(), this.opts.intervalMs ?? 1_000);
    this.tick();
  }

  stats(): HoldRecorderStats {
    return { ...this.counts, skipped: { ...this.counts.skipped } };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.hold !== null) this.end();
    await this.running;
  }

  private end(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.opts.log.info({ since: this.hold, ...this.stats() }, 'the hold ended: recording stopped');
    this.hold = null;
  }

  private tick(): void {
    const since = this.hold;
    if (since === null) return;
    if (this.running) {
      this.counts.busy += 1;
      return;
    }
    this.running = this.frame(since)
      .catch((err: unknown) => {
        this.counts.skipped.unreadable += 1;
        this.opts.log.debug({ err: describeError(err) }, 'a frame of the held phone could not be read');
      })
      .finally(() => (this.running = null));
  }

  private async frame(since: string): Promise<void> {
    const read = await this.read();
    await this.offerNodes(since, read.nodes);
    const before = read.verdict;
    if (!before.keep) return this.skip(before.why);
    const png = await this.opts.adb.screencap();
    const capturedAt = nowUtc();
    const after = (await this.read()).verdict;
    if (!after.keep) return this.skip(after.why);
    // moved on between the two reads: the picture may show what lay between
    if (after.screen !== before.screen) return this.skip('unclassified');
    if (this.hold !== since) return; // released meanwhile: the admin would refuse it
    if (await this.opts.upload(png, { holdSince: since, capturedAt })) this.counts.stored += 1;
  }

  private skip(why: SkipReason): void {
    this.counts.skipped[why] += 1;
  }

  /** Sends the read's nodes when they differ from what the admin last took for this hold. */
  private async offerNodes(since: string, nodes: ScreenNode[] | null): Promise<void> {
    const send = this.opts.sendNodes;
    if (!send || nodes === null || this.hold !== since) return;
    const body = JSON.stringify(nodes);
    if (body === this.sentNodes) return;
    if (await send({ hold_since: since, nodes })) this.sentNodes = body;
  }

  private async read(): Promise<Read> {
    const out = await this.opts.adb.dumpUi();
    if (out.kind === 'error') return { verdict: { keep: false, why: 'unreadable' }, nodes: null };
    let dump: UiDump;
    try {
      dump = parseUiDump(out.xml);
    } catch {
      return { verdict: { keep: false, why: 'unreadable' }, nodes: null };
    }
    const profile = await this.profileOf();
    if (!profile) return { verdict: { keep: false, why: 'unclassified' }, nodes: null };
    const verdict = holdFrameVerdict(dump, profile);
    // the same refusals as a frame's (payment, another app), but a screen the profile cannot name is shown
    const shown = verdict.keep || verdict.why === 'unclassified';
    return { verdict, nodes: shown ? screenNodesOf(dump) : null };
  }

  /** The profile of the phone's PDD version, read once a hold; an unprofiled version classifies nothing. */
  private async profileOf(): Promise<PddProfile | null> {
    if (this.profile === null) {
      // a failed read throws here and is tried again at the next tick; only a real answer is kept
      const version = await this.opts.adb.versionName(PDD_PACKAGE);
      try {
        this.profile = profileForVersion(version);
      } catch (err) {
        this.opts.log.warn(
          { err: describeError(err) },
          'no profile for this PDD version: nothing of the hold is recorded',
        );
        this.profile = 'none';
      }
    }
    return this.profile === 'none' ? null : this.profile;
  }
}

function emptyStats(): HoldRecorderStats {
  return { stored: 0, skipped: { payment: 0, other_app: 0, unclassified: 0, unreadable: 0 }, busy: 0 };
}

/**
 * `POST /api/device/hold-frames` (device Bearer, multipart like the evidence upload). A refusal —
 * the hold ended a moment ago (409 DEVICE_NOT_HELD) — or a failure is logged, never thrown: the
 * next frame is a second away.
 */
export function httpHoldFrameUploader(opts: {
  adminUrl: string;
  deviceId: string;
  token: string;
  log: Logger;
  timeoutMs?: number;
}): HoldFrameUpload {
  return async (png, meta) => {
    try {
      const fields = {
        upload_key: `hold:${meta.holdSince}:${randomUUID()}`,
        hold_since: meta.holdSince,
        captured_at: meta.capturedAt,
      };
      const res = await postDevicePng(opts, '/api/device/hold-frames', fields, png, opts.timeoutMs ?? 10_000);
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) opts.log.debug({ status: res.status }, 'the admin did not take a frame of the held phone');
      return res.ok;
    } catch (err) {
      opts.log.debug({ err: describeError(err) }, 'a frame of the held phone could not be sent');
      return false;
    }
  };
}
