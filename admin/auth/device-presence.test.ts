import pino from 'pino';
import { DevicePresence } from './device-registry';

/**
 * 设备 must cost the same with 5 phones or 500: a load waits for Temporal only for a phone it
 * has never asked about, and is otherwise answered from the last round while the stale phones
 * are asked again beside it (admin/auth/device-registry.ts).
 */
class HeldTemporal {
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  private release: Array<() => void> = [];
  held = true;
  lastPoll = new Date('2026-12-06T10:00:00Z');

  async activityPollers(): Promise<Array<{ identity: string; lastAccessTime: Date | null }>> {
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.held) await new Promise<void>((resolve) => this.release.push(resolve));
    this.inFlight--;
    return [{ identity: 'w', lastAccessTime: this.lastPoll }];
  }

  /** lets every held call answer, until none is left (each round asks a few at a time) */
  async answerAll(): Promise<void> {
    this.held = false;
    while (this.release.length > 0 || this.inFlight > 0) {
      this.release.splice(0).forEach((r) => r());
      await new Promise((r) => setImmediate(r));
    }
  }
}

const ids = Array.from({ length: 500 }, (_, i) => `dev-${i}`);
const log = pino({ level: 'silent' });

describe('device presence', () => {
  it('waits for Temporal on first sight only, then answers from the last round while the next one runs', async () => {
    const temporal = new HeldTemporal();
    const presence = new DevicePresence(temporal, log);
    const t0 = new Date('2026-12-06T10:00:05Z');

    const first = presence.lastPolls(ids, t0);
    let settled = false;
    void first.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // never asked about: it waits for the round
    await temporal.answerAll();
    expect((await first)?.get('dev-499')).toEqual(temporal.lastPoll);
    expect(temporal.calls).toBe(500);
    expect(temporal.maxInFlight).toBeLessThanOrEqual(8);

    // past the cache period, with Temporal slow to answer: the page does not wait for it
    temporal.held = true;
    temporal.calls = 0;
    const later = new Date(t0.getTime() + 6_000);
    const again = await presence.lastPolls(ids, later);
    expect(again?.size).toBe(500);
    expect(again?.get('dev-0')).toEqual(temporal.lastPoll);
    // one round runs beside it, a few calls at a time, and a second load starts no other
    expect(temporal.calls).toBeGreaterThan(0);
    expect(temporal.calls).toBeLessThanOrEqual(8);
    await presence.lastPolls(ids, later);
    expect(temporal.calls).toBeLessThanOrEqual(8);

    // what that round learns is what the next load says
    temporal.lastPoll = new Date('2026-12-06T10:00:06Z');
    await temporal.answerAll();
    expect(temporal.calls).toBe(500);
    expect((await presence.lastPolls(ids, later))?.get('dev-250')).toEqual(temporal.lastPoll);
  });

  it('a new phone beside known ones is waited for, and a Temporal that fails is said so', async () => {
    const temporal = new HeldTemporal();
    temporal.held = false;
    const presence = new DevicePresence(temporal, log);
    const t0 = new Date('2026-12-06T10:00:05Z');
    await presence.lastPolls(ids.slice(0, 5), t0);
    const withNew = await presence.lastPolls(ids.slice(0, 6), t0);
    expect(withNew?.get('dev-5')).toEqual(temporal.lastPoll);

    const failing = new DevicePresence(
      {
        activityPollers: () => Promise.reject(new Error('unavailable')),
      },
      log,
    );
    expect(await failing.lastPolls(ids.slice(0, 3), t0)).toBeNull();
  });
});
