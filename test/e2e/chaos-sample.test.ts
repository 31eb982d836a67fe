import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chaosMatrix } from '../../scripts/chaos/matrix';
import { tempDataDir } from '../harness';

const ROOT = path.resolve(__dirname, '../..');
/** What fits CI's time: each pair is a purchase with a kill in it, on phones without their delays (docs/chaos.md). */
const CI_SAMPLE = 2;

/**
 * CI's share of the chaos matrix: `npm run chaos -- --sample 2` on the real `npm start` system, a
 * different pair each commit (chosen from the commit id), so the whole matrix is covered over
 * time; the full matrix is `npm run chaos` (its last result in docs/chaos.md).
 */
describe('npm run chaos (a sample of the matrix, as CI runs it)', () => {
  it('kills a process at two points the code names and every promise holds', async () => {
    const json = path.join(tempDataDir('chaos'), 'chaos.json');
    const out: string[] = [];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/chaos/main.ts',
          '--sample',
          String(CI_SAMPLE),
          '--latency',
          'zero',
          '--json',
          json,
        ],
        {
          cwd: ROOT,
          env: { ...process.env, CMAUTOBUY_TEMPORAL_ADDRESS: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout.on('data', (d: Buffer) => out.push(d.toString()));
      child.stderr.on('data', (d: Buffer) => out.push(d.toString()));
      child.on('exit', resolve);
    });
    if (code !== 0) console.error(out.join(''));
    expect(code).toBe(0);
    const report = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      points: {
        step: string;
        process: string;
        outcome: string;
        orders: number;
        payment_taps: number;
        over_cap: number;
        recovered_s: number | null;
        ok: boolean;
      }[];
      steps: string[];
      processes: string[];
    };
    const all = chaosMatrix(false);
    expect(report.steps.length * report.processes.length).toBe(all.length);
    expect(report.points).toHaveLength(CI_SAMPLE);
    for (const p of report.points) {
      expect(all).toContainEqual({ step: p.step, process: p.process });
      expect(p).toMatchObject({ ok: true, payment_taps: 0, over_cap: 0 });
      expect(p.orders).toBeLessThanOrEqual(1);
      expect(Object.keys(p).sort()).toEqual(
        [
          'broken',
          'ok',
          'orders',
          'outcome',
          'over_cap',
          'payment_taps',
          'process',
          'recovered_s',
          'step',
          'trail',
        ].sort(),
      );
    }
  }, 900_000);
});
