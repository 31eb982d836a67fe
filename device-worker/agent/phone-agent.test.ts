import type { Readable } from 'node:stream';
import type { PhoneSim } from '../../sim/phone';
import { putPhone, useTestSim } from '../../sim/phone/testkit';
import { createLogger } from '../../platform/logger';
import { AdbDevice } from '../adb/adb-device';
import { AgentClient } from './client';
import { PhoneAgent, type PhoneAgentOptions } from './phone-agent';
import { AGENT_PACKAGE, AGENT_TEST_PACKAGE, agentApks } from './package';

/**
 * The on-device agent on the simulator, which speaks its install, start and HTTP protocol: it is
 * installed from the npm package's APKs, started, read through, found dead and started again; a
 * phone that cannot have it keeps reading by `uiautomator dump`.
 */
const SERIAL = 'sim-phone-1';
const GOODS_URL = 'https://mobile.yangkeduo.com/goods.html?goods_id=937122477375';
const log = createLogger({ name: 'agent-test', level: 'silent' });

let sim: PhoneSim;
let control: string;
useTestSim((rig) => ({ sim, control } = rig));

/** An ADB connection that counts its pushes. */
class CountingAdb extends AdbDevice {
  pushes: string[] = [];
  override async push(contents: Readable, remotePath: string, timeoutMs: number): Promise<void> {
    this.pushes.push(remotePath);
    await super.push(contents, remotePath, timeoutMs);
  }
}

function phoneAgent(over: Partial<PhoneAgentOptions> = {}): { agent: PhoneAgent; adb: CountingAdb } {
  const adb = new CountingAdb({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
  return { agent: new PhoneAgent({ adb, log, startWaitMs: 5_000, retryMs: 60_000, ...over }), adb };
}

/** The worker's own connection for a purchase, reading through `agent` while it runs. */
function readingAdb(agent: PhoneAgent): AdbDevice {
  const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
  adb.readHierarchyFrom(agent);
  return adb;
}

const agents: PhoneAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.stop();
});

test('installs both APKs of the npm package, starts the agent, and reads a never-idle screen through it', async () => {
  const { agent, adb } = phoneAgent();
  agents.push(agent);
  expect(agent.report().state).toBe('starting');
  await agent.keep();
  expect(agent.report()).toEqual({ state: 'running', reason: null });
  expect(adb.pushes).toHaveLength(2);
  const phone = sim.phone(SERIAL);
  expect(phone.agent.versions.get(AGENT_PACKAGE)).toBe(agentApks().version);
  expect(phone.agent.installed.has(AGENT_TEST_PACKAGE)).toBe(true);
  expect(phone.agent.running).toBe(true);

  const reader = readingAdb(agent);
  await reader.startView(GOODS_URL);
  await putPhone(control, SERIAL, 'faults', { never_idle: true });
  // the agent answers with the tree as it is; a dump meanwhile is refused (one UiAutomation at a time)
  const plain = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
  expect(await plain.dumpUi()).toMatchObject({ kind: 'error', message: expect.stringMatching(/already registered/) });
  expect(reader.hierarchyChannel).toBe('agent');
  const read = await reader.dumpUi();
  expect(read.kind).toBe('xml');
  expect(read.kind === 'xml' && read.xml).toContain('package="com.xunmeng.pinduoduo"');
});

test('a phone that already has this version is not installed again; a dead agent is started again', async () => {
  const first = phoneAgent();
  agents.push(first.agent);
  await first.agent.keep();
  await first.agent.stop();
  agents.splice(0);

  const { agent, adb } = phoneAgent();
  agents.push(agent);
  await agent.keep();
  expect(agent.report().state).toBe('running');
  expect(adb.pushes).toEqual([]);

  // the process dies (as `am force-stop` kills it): the next read falls back to a dump
  sim.phone(SERIAL).agent.stop();
  const reader = readingAdb(agent);
  expect((await reader.dumpUi()).kind).toBe('xml');
  expect(agent.report().state).toBe('starting');
  expect(reader.hierarchyChannel).toBe('dump');
  await agent.keep();
  expect(agent.report()).toEqual({ state: 'running', reason: null });
  expect(reader.hierarchyChannel).toBe('agent');
});

test('an agent the phone refuses to run is unavailable with the reason, and reads stay on uiautomator dump', async () => {
  await putPhone(control, SERIAL, 'faults', { no_agent: true });
  const { agent } = phoneAgent();
  agents.push(agent);
  await agent.keep();
  const report = agent.report();
  expect(report.state).toBe('unavailable');
  expect(report.reason).toMatch(/did not start: .*Process crashed/);
  const reader = readingAdb(agent);
  expect(reader.hierarchyChannel).toBe('dump');
  expect((await reader.dumpUi()).kind).toBe('xml');
  // retried only after retryMs: no start loop on a phone that refuses it
  await agent.keep();
  expect(agent.report()).toEqual(report);
});

test('Android below 8.0 never gets the agent: nothing is pushed, the reason names the version', async () => {
  await putPhone(control, SERIAL, 'faults', { android_sdk: 25 });
  const { agent, adb } = phoneAgent({ retryMs: 0 });
  agents.push(agent);
  await agent.keep();
  await agent.keep();
  expect(agent.report()).toEqual({ state: 'unavailable', reason: 'Android API 25 is older than 8.0 (API 26)' });
  expect(adb.pushes).toEqual([]);
  expect(sim.phone(SERIAL).agent.installed.size).toBe(0);
});

test('an ADB server on another machine cannot forward to this one: unavailable, no command sent', async () => {
  const adb = new CountingAdb({ host: '10.0.0.9', port: sim.adbPort, serial: SERIAL });
  const agent = new PhoneAgent({ adb, log });
  await agent.keep();
  expect(agent.report().state).toBe('unavailable');
  expect(agent.report().reason).toMatch(/ADB server runs on 10\.0\.0\.9/);
  expect(adb.pushes).toEqual([]);
});

test('a stop while a check finds the agent dead starts no new one', async () => {
  const { agent, adb } = phoneAgent();
  await agent.keep();
  const starts = jest.spyOn(adb, 'holdShell');
  // the check is still asking when the stop comes, and then hears no answer
  const status = jest
    .spyOn(AgentClient.prototype, 'status')
    .mockImplementationOnce(() => new Promise((r) => setTimeout(() => r(false), 50)));
  const checking = agent.keep();
  await agent.stop();
  await checking;
  status.mockRestore();
  expect(starts).not.toHaveBeenCalled();
  expect(agent.ready()).toBe(false);
  expect(sim.phone(SERIAL).agent.running).toBe(false);
});

test('a read that fails while the agent still runs stops it first, so the dump in its place is made', async () => {
  const { agent } = phoneAgent({ client: { sourceMs: 1 } });
  agents.push(agent);
  await agent.keep();
  expect(agent.ready()).toBe(true);
  // every source now outlasts the client's 1 ms: the read fails with the agent alive
  await putPhone(control, SERIAL, 'faults', { latency: 'realistic' });
  const reader = readingAdb(agent);
  const read = await reader.dumpUi();
  expect(read.kind).toBe('xml');
  expect(sim.phone(SERIAL).agent.running).toBe(false);
  expect(agent.report().state).toBe('starting');
});

test('while the phone holds a claim a dead agent is not started again; once it is free, it is', async () => {
  const { agent } = phoneAgent();
  agents.push(agent);
  await agent.keep();
  sim.phone(SERIAL).agent.stop();
  await agent.keep({ mayStart: false });
  expect(agent.report().state).toBe('starting');
  expect(sim.phone(SERIAL).agent.running).toBe(false);
  await agent.keep({ mayStart: true });
  expect(agent.report().state).toBe('running');
});
