import type { ResponsivenessFigures, ResponsivenessRound } from './responsiveness';

/** The goal docs/security.md sets: the admin answers probes and operators within this p99 while it works. */
export const RESPONSIVE_P99_MS = 100;

/** docs/PERFORMANCE.md's section for bench/responsiveness.ts (a full run, or `--only responsiveness` prints it). */
export function responsivenessSection(f: ResponsivenessFigures): string {
  const e = (x: ResponsivenessRound['healthz']) =>
    `${x.p50Ms.toFixed(1)} / **${x.p99Ms.toFixed(1)}** / ${x.maxMs.toFixed(0)}${x.timeouts ? ` (${x.timeouts} of ${x.requests} unanswered in 10 s)` : ''}${x.errors ? ` (errors: ${x.errorKinds})` : ''}`;
  const rows = f.rounds.map(
    (r) =>
      `| ${r.what} | ${workTook(r)} | ${r.outcome} | ${e(r.healthz)} | ${e(r.tasks)} | ${Number.isNaN(r.eventLoopMaxMs) ? 'no answer' : r.eventLoopMaxMs.toFixed(0)} |`,
  );
  return `### The admin while it works (\`bench/responsiveness.ts\`)

An admin process and its worker process with a 顺运宝 account (the 顺运宝 simulator in a process of its
own); \`GET /healthz\` and \`GET /api/tasks\` (first page, logged in) alternately at 20 requests/s in all,
open-loop on loopback (a latency counts from when the request was due), while the admin works on one thing
per row until it is done or its cap passes. The hostile workbook, if one import of it ends sooner, is sent
again back to back for 15 s. An answer not back in 10 s counts as 10 s. Goal: p99 ≤ ${RESPONSIVE_P99_MS} ms in every
row but the first.

| the admin works on | work took | how it ended | \`/healthz\` p50 / p99 / max ms | \`/api/tasks\` p50 / p99 / max ms | admin event-loop delay max ms |
|---|---|---|---|---|---|
${rows.join('\n')}`;
}

function workTook(r: ResponsivenessRound): string {
  if (r.workMs === null) return `did not finish in ${Math.round(r.capMs / 1000)} s`;
  const each = `${(r.workMs / 1000).toFixed(1)} s`;
  return r.runs > 1 ? `${each} each, ${r.runs} back to back` : each;
}

/** The goal's row for docs/PERFORMANCE.md's table of goals. */
export function responsivenessGoalRow(f: ResponsivenessFigures): string {
  const busy = f.rounds.filter((r) => r.name !== 'idle');
  const worst = Math.max(...busy.flatMap((r) => [r.healthz.p99Ms, r.tasks.p99Ms]));
  return `| \`/healthz\` and \`/api/tasks\` p99 ≤ ${RESPONSIVE_P99_MS} ms during an import, a hostile import and a 顺运宝 sync | worst ${worst.toFixed(1)} ms | ${worst <= RESPONSIVE_P99_MS ? 'yes' : '**no**'} |`;
}
