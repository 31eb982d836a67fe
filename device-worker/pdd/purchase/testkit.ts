import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPhoneSim, type PhoneSim } from '../../../sim/phone';
import type { PurchaseTarget } from '../../../domain/contracts/device-activities';
import { AdbDevice, type AdbTimeouts } from '../../adb/adb-device';
import { PhoneAgent } from '../../agent/phone-agent';
import type { AgentApks } from '../../agent/package';
import { writeStandInApks } from '../../../sim/phone/agent/stand-in-apks';
import { createLogger } from '../../../platform/logger';
import { CounterClock } from '../../counters';
import { SubmissionLedger } from '../../ledger/submissions';
import { StepLog } from '../../step-log';
import { profileForVersion } from '../profile';
import { DEFAULT_TIMING, type SessionTiming } from '../session';
import type { DumpMemory } from '../session/dumps';
import { TapGuard } from './guard';
import { PURCHASE_8_17_0 } from './profile';
import { PurchaseSession } from './purchase-session';

/**
 * Test-only: what the purchase-step tests share — one simulated phone and one submission ledger
 * per file, the phone reset before each test, and timings without settle pauses (the flow's own
 * waits for the expected screen still run).
 */
export const FAST_TIMING: SessionTiming = {
  ...DEFAULT_TIMING,
  navigationSettleMs: 0,
  tapSettleMs: 0,
  swipeSettleMs: 0,
  loadingPollMs: 10,
};

/**
 * The channel these tests read the screen through: `agent` in jest's `agent channel` project
 * (jest.config.js), which runs the purchase safety tests again with every read through the
 * on-device agent; `dump` everywhere else.
 */
export const TEST_CHANNEL: 'dump' | 'agent' = process.env.CMAUTOBUY_TEST_CHANNEL === 'agent' ? 'agent' : 'dump';

/** The agent of each rig's phone, on the agent channel. */
const agents = new Map<string, PhoneAgent>();

/** The phone over ADB as a purchase reads it: through the rig's agent on the agent channel. */
export function phoneAdb(port: number, serial: string, timeouts: Partial<AdbTimeouts> = {}): AdbDevice {
  return onChannel(new AdbDevice({ host: '127.0.0.1', port, serial }, timeouts));
}

function onChannel(adb: AdbDevice): AdbDevice {
  return adb.readHierarchyFrom(agents.get(adb.serial) ?? null);
}

export interface PurchaseRig {
  sim: PhoneSim;
  ledger: SubmissionLedger;
  /** The ledger's file, for a test that opens it again as a restarted worker would. */
  ledgerPath: string;
}

/** Starts the phone and ledger for the file; `bind` gets them once up, `reset` runs after each reset. */
export function usePurchaseRig(
  serial: string,
  bind: (rig: PurchaseRig) => void,
  reset: (sim: PhoneSim) => void = () => undefined,
): void {
  let rig: PurchaseRig | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    const sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [serial] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `${serial}-`));
    const ledgerPath = path.join(dir, 'ledger.db');
    rig = { sim, ledger: new SubmissionLedger(ledgerPath), ledgerPath };
    if (TEST_CHANNEL === 'agent') {
      const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial });
      const log = createLogger({ name: 'agent', level: 'silent' });
      const apks: AgentApks = writeStandInApks(dir);
      agents.set(serial, new PhoneAgent({ adb, log, retryMs: 0, apks: () => apks }));
    }
    bind(rig);
  });
  afterAll(async () => {
    await agents.get(serial)?.stop();
    agents.delete(serial);
    rig?.ledger.close();
    await rig?.sim.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    rig!.sim.phone(serial).reset();
    reset(rig!.sim);
    // the reset killed and removed the agent: it is installed and started again before the case
    const agent = agents.get(serial);
    if (agent) {
      await agent.keep();
      if (!agent.ready()) throw new Error(`the agent did not start: ${JSON.stringify(agent.report())}`);
    }
  });
}

let seq = 0;

/** A live purchase target with fresh task, attempt and authorization ids; `over` sets the rest. */
export function purchaseTarget(goodsId: string, over: Partial<PurchaseTarget> = {}): PurchaseTarget {
  seq += 1;
  return {
    taskId: `T${seq}`,
    attemptId: `A${seq}`,
    authorizationId: `auth-${seq}-${Date.now()}`,
    goodsId,
    goodsUrl: `https://mobile.yangkeduo.com/goods.html?goods_id=${goodsId}`,
    options: { 颜色分类: '黑色', 尺码: 'M' },
    quantity: 1,
    maxTotalPriceCent: 5000,
    mode: 'live',
    ...over,
  };
}

/**
 * One purchase on the rig's phone as the device worker builds it: the tap guard for `t` over ADB
 * and its sessions (`session(true)`: interruptions read, never closed), one step log for them all.
 * `memory` carries the last dump across sessions, as the worker does; without it each session
 * has its own.
 */
export function purchasePhone(
  rig: Pick<PurchaseRig, 'sim' | 'ledger'>,
  serial: string,
  t: PurchaseTarget,
  opts: { timing?: SessionTiming; adb?: AdbDevice; memory?: DumpMemory } = {},
) {
  const profile = profileForVersion('8.17.0');
  const guard = new TapGuard({
    authorizationId: t.authorizationId,
    irreversible: (a) => rig.ledger.irreversible(a),
    pkg: profile.pkg,
    submitLabel: PURCHASE_8_17_0.text.submitLabel,
    readOnlyUrl: PURCHASE_8_17_0.pendingOrdersUrl,
  });
  const adb = onChannel(opts.adb ?? new AdbDevice({ host: '127.0.0.1', port: rig.sim.adbPort, serial }));
  const steps = new StepLog();
  const session = (readOnly = false): PurchaseSession => {
    const s = new PurchaseSession(
      guard.wrap(adb),
      profile,
      new CounterClock(),
      steps,
      opts.timing ?? FAST_TIMING,
      opts.memory,
    );
    s.setPurchaseProfile(PURCHASE_8_17_0);
    if (readOnly) s.readOnlyInterruptions();
    return s;
  };
  return { profile, guard, adb, steps, session };
}
