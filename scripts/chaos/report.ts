import type { PairResult } from './pair';

/**
 * The chaos report as a page (docs/chaos.md keeps the last full run): steps down, processes
 * across; each cell the outcome, the orders the phone holds and the seconds to recover, ✗ where a
 * promise broke (with what broke listed under the table).
 */
export function markdownTable(
  report: { points: PairResult[]; steps: string[]; processes: string[] },
  run: { cluster: boolean; seed: string | null },
): string {
  const cell = (step: string, process: string) => {
    const r = report.points.find((p) => p.step === step && p.process === process);
    if (!r) return '';
    if (r.outcome === 'NOT_REACHED') return 'not reached';
    const short = {
      WAITING_PAYMENT: '待付款',
      STOPPED: 'stop',
      RECONCILIATION_REQUIRED: '待核对',
      DRY_RUN_PASSED: 'dry',
      NOT_SETTLED: 'stuck',
    }[r.outcome];
    const seconds = r.recovered_s === null ? '-' : `${Math.round(r.recovered_s * 10) / 10} s`;
    return `${r.ok ? '' : '✗ '}${short} · ${r.orders} · ${seconds}`;
  };
  const steps = report.steps.filter((s) => report.points.some((p) => p.step === s));
  const lines = [
    `Chaos run on ${run.cluster ? 'the Temporal cluster' : 'the embedded dev server'}: ${report.points.length} pairs` +
      `${run.seed ? ` (sample, seed ${run.seed.slice(0, 12)})` : ''}, ` +
      `${report.points.filter((p) => p.ok).length} ok, ${report.points.filter((p) => p.outcome === 'NOT_REACHED').length} not reached.`,
    'Each cell: where the purchase came to rest · the orders the app holds · seconds from the kill to that state.',
    '',
    `| step \\ process | ${report.processes.join(' | ')} |`,
    `| --- | ${report.processes.map(() => '---').join(' | ')} |`,
    ...steps.map((s) => `| ${s} | ${report.processes.map((p) => cell(s, p)).join(' | ')} |`),
    '',
  ];
  const broken = report.points.filter((p) => !p.ok);
  if (broken.length > 0) {
    lines.push('Broken:', '');
    for (const b of broken)
      lines.push(`- ${b.step} × ${b.process}: ${b.broken.join('; ')} (trail: ${b.trail.join(' → ')})`);
    lines.push('');
  }
  return lines.join('\n');
}
