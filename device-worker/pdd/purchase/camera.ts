import { classify } from '../screens';
import type { DumpWitness, PddSession } from '../session';
import type { UiDump } from '../ui-xml';
import { screenMayBeCaptured } from './evidence';
import type { EvidenceKind } from './prepare';

interface Capture {
  png: Buffer;
  capturedAt: string;
  /** the screen the dump before the picture showed */
  screen: string;
  /** the session's dump count when the picture was taken */
  afterDump: number;
  names: EvidenceKind[];
  /** carried across one input: the dump after must show exactly its effect */
  shows?: (dump: UiDump) => boolean;
}

export interface CameraOptions {
  screencap(): Promise<Buffer>;
  /** a picture with a dump of the same screen on either side; never throws (an upload failure is logged) */
  keep(png: Buffer, kind: EvidenceKind, capturedAt: string): Promise<void>;
  /** why evidence of `kind` was not taken or not kept */
  skip(kind: EvidenceKind, why: string): void;
  now(): string;
}

/**
 * Evidence screenshots, each checked against a dump on BOTH sides (docs/architecture.md §2.7): the
 * dump before says the screen may be photographed (./evidence.ts `screenMayBeCaptured`), the
 * first dump after the capture must show the same screen, still photographable — a cashier, a
 * payment page or an overlay that came up in between is never kept. The dump after is the next
 * one the flow makes anyway wherever it makes one before its next input (the session asks the
 * camera before every input and looks once more while a picture waits), or the first one after an
 * input whose effect is known exactly (a quantity step: `across`), when it shows just that effect;
 * `settle()` looks once for a picture the flow made no dump after. A picture taken between two dumps of one screen names
 * every evidence kind proven on that screen: it is the same picture.
 */
export class EvidenceCamera implements DumpWitness {
  private pending: Capture[] = [];
  /** the picture the session's last dump checked, with the marks at that moment */
  private proven: { capture: Capture; dumps: number; inputs: number } | null = null;
  private readonly keeping: Promise<void>[] = [];

  constructor(
    private readonly session: PddSession,
    private readonly opts: CameraOptions,
  ) {
    session.setWitness(this);
  }

  /** Evidence `kind` of the screen the session's last dump proved. */
  async take(kind: EvidenceKind): Promise<void> {
    const marks = this.session.marks();
    const p = this.proven;
    if (p && p.dumps === marks.dumps && p.inputs === marks.inputs) {
      this.keep(p.capture, kind);
      return;
    }
    const c = await this.capture(kind);
    c?.names.push(kind);
  }

  /** A picture now, named by a later `take` once the next dump has shown the screen unchanged. */
  async preview(): Promise<void> {
    await this.capture(null);
  }

  /** The end of the flow: one look for a picture still waiting for its check, then every kept picture handed over. */
  async settle(): Promise<void> {
    if (this.waiting() && (await this.session.look()) === null) this.refuseAll('no dump after the capture');
    await Promise.all(this.keeping);
  }

  afterDump(dump: UiDump): void {
    this.proven = null;
    const marks = this.session.marks();
    const now = screenMayBeCaptured(dump, this.session.profile) ? screenOf(dump, this.session) : null;
    for (const c of this.pending) {
      if (now !== null && now === c.screen && (!c.shows || c.shows(dump))) {
        for (const kind of c.names) this.keep(c, kind);
        this.proven = { capture: c, dumps: marks.dumps, inputs: marks.inputs };
      } else {
        for (const kind of c.names)
          this.opts.skip(kind, `the screen changed after the capture (${c.screen} → ${now ?? 'not photographable'})`);
      }
    }
    this.pending = [];
  }

  waiting(): boolean {
    return this.pending.some((c) => c.names.length > 0 && !c.shows);
  }

  across(shows: (dump: UiDump) => boolean): void {
    for (const c of this.pending) c.shows ??= shows;
  }

  private async capture(kind: EvidenceKind | null): Promise<Capture | null> {
    const marks = this.session.marks();
    const queued = this.pending.find((c) => c.afterDump === marks.dumps);
    if (queued) return queued;
    const dump = this.session.lastDumpOrNull();
    const fresh = dump !== null && marks.inputs === marks.inputsAtLastDump;
    const screen = fresh && screenMayBeCaptured(dump, this.session.profile) ? screenOf(dump, this.session) : null;
    if (screen === null) {
      if (kind) this.opts.skip(kind, 'the phone shows a payment page, another app or nothing known');
      return null;
    }
    const png = await this.opts.screencap();
    const c: Capture = { png, capturedAt: this.opts.now(), screen, afterDump: marks.dumps, names: [] };
    this.pending.push(c);
    return c;
  }

  private keep(c: Capture, kind: EvidenceKind): void {
    this.keeping.push(this.opts.keep(c.png, kind, c.capturedAt).catch(() => undefined));
  }

  private refuseAll(why: string): void {
    for (const c of this.pending) for (const kind of c.names) this.opts.skip(kind, why);
    this.pending = [];
  }
}

function screenOf(dump: UiDump, session: PddSession): string | null {
  try {
    return classify(dump, session.profile).kind;
  } catch {
    return null;
  }
}
