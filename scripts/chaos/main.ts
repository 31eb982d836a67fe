import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { startChaosCluster } from './cluster';
import { ChaosController } from './controller';
import { chaosMatrix, chaosProcesses, chaosSteps, parseOnly, samplePairs, type ChaosPair } from './matrix';
import { PairRunner, type PairResult } from './pair';
import { markdownTable } from './report';
import { prepareSystem, systemKiller } from './setup';
import { startSystem } from './system';
import { PROJECT_ROOT } from '../../temporal/binaries';

/**
 * `npm run chaos [-- --json FILE] [--sample N] [--only STEP:PROCESS] [--process P …] [--cluster]
 * [--md FILE] [--latency zero|realistic] [--seed S] [--keep]`:
 * every kill point the code names × every process (docs/chaos.md), each on a fresh purchase of the
 * running system; the invariants judged from the simulator's own records after each; a table on
 * stdout, the rows as JSON; exit 1 when any promise broke.
 */
const say = (line: string) => console.log(`[chaos] ${line}`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      json: { type: 'string' },
      md: { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string' },
      only: { type: 'string', multiple: true },
      process: { type: 'string', multiple: true },
      cluster: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      latency: { type: 'string', default: 'realistic' },
    },
  });
  const cluster = values.cluster ?? false;
  const all = chaosMatrix(cluster);
  const pairs = choosePairs(all, values);
  say(`${pairs.length} of ${all.length} pairs${values.sample ? ` (sample, seed ${seedOf(values)})` : ''}`);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-chaos-'));
  const clusterRun = cluster ? await startChaosCluster(say) : null;
  let killer: ReturnType<typeof systemKiller> | null = null;
  const controller = new ChaosController({
    stepOf: (id) => killer!.stepOf(id),
    kill: (pair, report, deviceId) => killer!.kill(pair, report, deviceId),
  });
  const chaosUrl = await controller.listen();
  const latency = values.latency === 'zero' ? 'zero' : 'realistic';
  const system = await startSystem({ root, chaosUrl, temporal: clusterRun?.temporal, latency, say });
  const results: PairResult[] = [];
  // Ctrl-C stops the system it started, as `npm start` stops its children
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void system.close().finally(() => process.exit(130)));
  try {
    killer = systemKiller(system, clusterRun, say);
    controller.disarm(await prepareSystem(system, say));
    const runner = new PairRunner(system, controller, say);
    for (const pair of pairs) results.push(await runner.run(pair));
  } finally {
    await system.close();
    await clusterRun?.stop();
    await controller.close();
    if (!values.keep) fs.rmSync(root, { recursive: true, force: true });
    else say(`kept ${root}`);
  }
  const report = { points: results, steps: chaosSteps(), processes: chaosProcesses(cluster) };
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  const table = markdownTable(report, { cluster, seed: values.sample ? seedOf(values) : null });
  if (values.md) fs.writeFileSync(values.md, table);
  console.log(table);
  const broken = results.filter((r) => !r.ok);
  say(
    broken.length === 0
      ? `all ${results.length} pairs ok`
      : `${broken.length} of ${results.length} pairs BROKE a promise`,
  );
  return broken.length === 0 ? 0 : 1;
}

function seedOf(values: { seed?: string }): string {
  if (values.seed) return values.seed;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'no-git';
  }
}

function choosePairs(
  matrix: ChaosPair[],
  values: { sample?: string; only?: string[]; seed?: string; process?: string[] },
): ChaosPair[] {
  if (values.only?.length) return values.only.map((o) => parseOnly(o, matrix));
  const unknown = values.process?.find((p) => !matrix.some((x) => x.process === p));
  if (unknown) throw new Error(`--process ${unknown}: not a process of the matrix`);
  const all = values.process?.length ? matrix.filter((p) => values.process!.includes(p.process)) : matrix;
  if (values.sample === undefined) return all;
  const n = Number(values.sample);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--sample ${values.sample}: a whole number of pairs, 1 or more`);
  return samplePairs(all, n, seedOf(values));
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[chaos] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  },
);
