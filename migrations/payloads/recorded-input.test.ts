import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { ensureWorkflowBundle, readWorkflowBundle } from '../../workers/workflow-bundle';
import '../../test/harness';
import { temporalDataConverter } from '../../temporal/codec';

/**
 * A purchase recorded before the cap took one name carries it as `capCent` in its input; the
 * workflow reads it through the payload migration (migrations/payloads/purchase-input.ts) and
 * gates with it exactly as before. The proof is every recorded purchase whose workflow judged
 * the final panel itself and went on to the fence: with its recorded cap under the old name it
 * replays; with a cap of one cent under either name the workflow stops at its own gate instead of
 * asking for the fence, and replay says so. Were `capCent` not read, the one-cent cap under the
 * old name would be ignored and the history would replay. The histories are the ones
 * test/histories/replay.test.ts replays.
 */
const HISTORIES = path.join(__dirname, '..', '..', 'test', 'histories');

interface HistoryFile {
  events: Array<{
    workflowExecutionStartedEventAttributes?: {
      workflowType: { name: string };
      input: { payloads: Array<{ data: string }> };
    };
    activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  }>;
}

const histories = fs
  .readdirSync(HISTORIES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({
    name: f.replace(/\.json$/, ''),
    file: JSON.parse(fs.readFileSync(path.join(HISTORIES, f), 'utf8')) as HistoryFile,
  }))
  .filter(({ file }) => file.events[0]?.workflowExecutionStartedEventAttributes?.workflowType.name === 'purchase')
  .filter(({ file }) =>
    file.events.some((e) => e.activityTaskScheduledEventAttributes?.activityType.name === 'createSubmissionFence'),
  );

type Cap = { capCent: number } | { maxTotalPriceCent: number };

function startInput(file: HistoryFile): { payload: { data: string }; input: Record<string, unknown> } {
  const payload = file.events[0]!.workflowExecutionStartedEventAttributes!.input.payloads[0]!;
  return { payload, input: JSON.parse(Buffer.from(payload.data, 'base64').toString()) as Record<string, unknown> };
}

/** The history with its start input's cap named and valued as given, every other field kept. */
function withCap(file: HistoryFile, cap: Cap) {
  const copy = structuredClone(file);
  const { payload, input } = startInput(copy);
  const { capCent: _old, maxTotalPriceCent: _new, ...rest } = input;
  payload.data = Buffer.from(JSON.stringify({ ...rest, ...cap })).toString('base64');
  return historyFromJSON(copy);
}

function recordedCap(file: HistoryFile): number {
  const { input } = startInput(file);
  return (input.maxTotalPriceCent ?? input.capCent) as number;
}

describe('a purchase input recorded with capCent replays as it ran', () => {
  let code: string;
  beforeAll(async () => {
    const built = process.env.CMAUTOBUY_TEST_WORKFLOW_BUNDLE;
    code = (built ? readWorkflowBundle(built) : await ensureWorkflowBundle({ info: () => {} })).code;
  });

  const replay = async (file: HistoryFile, name: string, cap: Cap): Promise<Error | null> => {
    const options = { workflowBundle: { code }, dataConverter: temporalDataConverter() };
    for await (const r of Worker.runReplayHistories(options, [{ workflowId: name, history: withCap(file, cap) }]))
      return r.error ?? null;
    throw new Error('nothing replayed');
  };

  it('recorded purchases that reached the fence carry a cap', () => {
    expect(histories.length).toBeGreaterThan(0);
    for (const { file } of histories) expect(recordedCap(file)).toBeGreaterThan(1);
  });

  it('with the recorded cap as capCent each replays; with one cent, under either name, each stops at its own gate', async () => {
    const replayed: string[] = [];
    for (const { name, file } of histories) {
      // a history that does not replay as recorded is the replay test's to report (replay.test.ts)
      if ((await replay(file, name, { maxTotalPriceCent: recordedCap(file) })) !== null) continue;
      expect({ name, error: await replay(file, name, { capCent: recordedCap(file) }) }).toEqual({ name, error: null });
      expect(await replay(file, name, { capCent: 1 })).toBeInstanceOf(DeterminismViolationError);
      expect(await replay(file, name, { maxTotalPriceCent: 1 })).toBeInstanceOf(DeterminismViolationError);
      replayed.push(name);
    }
    expect(replayed).not.toEqual([]);
  });
});
