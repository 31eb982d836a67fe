import fs from 'node:fs';
import path from 'node:path';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { privateTempFile } from '../../platform/private-files';

/** The phone's global animation scales (Developer options → 窗口/过渡/动画程序时长缩放). */
const ANIMATION_SCALES = ['window_animation_scale', 'transition_animation_scale', 'animator_duration_scale'] as const;
export type AnimationScales = Record<(typeof ANIMATION_SCALES)[number], string>;

/** what `settings get` prints for a scale: a number, or `null` for one never set */
const VALUE = /^(null|\d{1,3}(\.\d{1,6})?)$/;
/** the file beside the ledger in the device's data folder */
export const SAVED_SCALES_FILE = 'animation-scales.json';

/**
 * Whose the phone is, as a status check saw it: `automation` may claim on it (or only waits for
 * its health), `released` is paused, needs a person (需处理) or revoked; undefined: not known
 * (the admin did not answer), nothing changes.
 */
export type PhoneHolder = 'automation' | 'released' | undefined;

/**
 * Animations off while automation holds the phone: a dump taken while a page still slides in
 * reads half a page, and uiautomator waits for an animating window to be idle. Before the first
 * 0 the phone's own three scales are written to `<device dir>/animation-scales.json`, so a worker
 * killed before it put them back (SIGKILL, power loss, a phone that left ADB during the stop)
 * puts them back at its next stop from that file: a start that finds the file keeps it and never
 * reads the zeros it left on the phone as the phone's own. The file is removed once the phone
 * reads its own values again. Every change goes through one queue, so a status check and the
 * stop never interleave their `settings put`s.
 */
export class PhoneAnimations {
  private queue: Promise<void> = Promise.resolve();
  /** the phone read 0 after our last put, and nothing was put back since */
  private off = false;
  private stopped = false;

  constructor(
    private readonly opts: {
      /** one shell command on the phone, its output */
      shell: (command: string) => Promise<string>;
      /** `<device dir>/animation-scales.json` */
      file: string;
      log: Logger;
    },
  ) {}

  /**
   * After every status check: automation holds it → 0; released (paused, 需处理, revoked) → the
   * phone's own values, for the person who takes it. Once they are 0 nothing is sent again until
   * that changes (global settings survive a reboot and a replug), so a status check costs the
   * phone no shell command of its own.
   */
  async follow(state: { adbConnected: boolean; holder: PhoneHolder }): Promise<void> {
    if (!state.adbConnected) return;
    if (state.holder === 'automation') await this.turnOff();
    else if (state.holder === 'released') await this.restore();
  }

  /** Saves the phone's own scales (unless a saved set is already waiting to go back), then sets them to 0. */
  turnOff(): Promise<void> {
    return this.enqueue(async () => {
      if (this.stopped || this.off) return;
      if (!this.saved()) {
        const own = await this.read();
        this.save(own);
        this.opts.log.info({ scales: own }, 'animations off while automation holds the phone; saved its own scales');
      }
      await this.put({ window_animation_scale: '0', transition_animation_scale: '0', animator_duration_scale: '0' });
      this.off = true;
    });
  }

  /** Puts the saved scales back and forgets them; nothing saved: nothing to put back. */
  restore(): Promise<void> {
    return this.enqueue(async () => {
      const saved = this.saved();
      this.off = false;
      if (!saved) return;
      await this.put(saved);
      fs.rmSync(this.opts.file, { force: true });
      this.opts.log.info({ scales: saved }, "the phone's own animation scales are back");
    });
  }

  /** The worker stops: nothing turns them off again, and the saved ones go back. Never throws. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.restore().catch((err: unknown) => {
      this.opts.log.warn({ err: describeError(err) }, 'could not put the animation scales back; the next start will');
    });
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<AnimationScales> {
    const out = await this.opts.shell(ANIMATION_SCALES.map((n) => `settings get global ${n}`).join('; '));
    const lines = out.split('\n').map((l) => l.trim());
    const values = ANIMATION_SCALES.map((_, i) => lines[i] ?? '');
    const bad = values.find((v) => !VALUE.test(v));
    if (bad !== undefined || lines.filter(Boolean).length !== ANIMATION_SCALES.length)
      throw new Error(`settings get global answered ${JSON.stringify(out.slice(0, 200))}`);
    return scales(values);
  }

  /** Puts the values (`null` deletes the setting, as it was before) and reads them back. */
  private async put(want: AnimationScales): Promise<void> {
    const commands = ANIMATION_SCALES.map((n) =>
      want[n] === 'null' ? `settings delete global ${n}` : `settings put global ${n} ${want[n]}`,
    );
    await this.opts.shell(commands.join(' && '));
    const got = await this.read();
    if (ANIMATION_SCALES.some((n) => Number(got[n]) !== Number(want[n]) && got[n] !== want[n]))
      throw new Error(`the phone reads ${JSON.stringify(got)} after putting ${JSON.stringify(want)}`);
  }

  private saved(): AnimationScales | null {
    let text: string;
    try {
      text = fs.readFileSync(this.opts.file, 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = (JSON.parse(text) as { scales?: Record<string, unknown> }).scales ?? {};
      const values = ANIMATION_SCALES.map((n) => parsed[n]);
      if (values.every((v): v is string => typeof v === 'string' && VALUE.test(v))) return scales(values);
    } catch {
      // unreadable: reported below
    }
    // kept, not overwritten: it may be the only record of the phone's own values
    throw new Error(`${this.opts.file} does not hold three animation scales; fix or remove it by hand`);
  }

  private save(own: AnimationScales): void {
    fs.mkdirSync(path.dirname(this.opts.file), { recursive: true });
    const tmp = privateTempFile(this.opts.file);
    try {
      const fd = fs.openSync(tmp.file, 'w');
      try {
        fs.writeFileSync(fd, `${JSON.stringify({ scales: own, saved_at: new Date().toISOString() })}\n`);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      tmp.finish();
    } finally {
      tmp.discard();
    }
  }
}

function scales(values: string[]): AnimationScales {
  const [window_animation_scale = '', transition_animation_scale = '', animator_duration_scale = ''] = values;
  return { window_animation_scale, transition_animation_scale, animator_duration_scale };
}

/** For the status watch: a failed change is logged, never a reason to refuse or delay a claim. */
export function followQuietly(animations: PhoneAnimations, log: Logger) {
  return (state: { adbConnected: boolean; holder: PhoneHolder }): Promise<void> =>
    animations.follow(state).catch((err: unknown) => {
      log.warn({ err: describeError(err) }, 'could not change the phone animation scales');
    });
}
