import type { MoneyExportFigures } from './money-export';
import { showSpread, spread, type Spread } from './stats';

/**
 * The books' export in docs/PERFORMANCE.md (bench/performance-doc.ts): its goal row and its
 * section. The goal: a year's export of 100,000 lines within 10 s, the admin process never above
 * 300 MiB resident while it writes.
 */
const GOAL = { wallS: 10, peakRssMib: 300 };

const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
const seconds = (ms: Spread) =>
  showSpread({ ...ms, median: ms.median / 1000, min: ms.min / 1000, max: ms.max / 1000 }, 2);

export function moneyExportGoalRows(f: MoneyExportFigures): string[] {
  const j = f.json;
  return [
    `| ${f.lines.toLocaleString('en')}-line xlsx export ≤ ${GOAL.wallS} s, admin peak RSS ≤ ${GOAL.peakRssMib} MiB | ${(j.wall_ms / 1000).toFixed(1)} s, ${j.peak_rss_mib} MiB | ${yes(j.wall_ms <= GOAL.wallS * 1000 && j.peak_rss_mib <= GOAL.peakRssMib)} |`,
  ];
}

export function moneyExportSection(f: MoneyExportFigures): string {
  return `### The books' export (\`bench/money-export.ts\`)

${f.lines.toLocaleString('en')} 顺运宝 order lines over a year with their purchases (six in ten paid, one waiting for
payment, one a draft, one failed, one never bought; one in twenty tried before), written into a
migrated admin DB in one transaction (${(f.seedMs / 1000).toFixed(0)} s), then \`GET /api/money/export.xlsx\` for the year through HTTP
from an admin process of its own, the client counting the bytes as fast as loopback brings them.
${f.runs.length} run(s); the last file is read back with exceljs (every row there, the day a date, the money
numbers).

| figure | value |
|---|---|
| request → last byte | ${seconds(spread(f.runs.map((r) => r.ms)))} s (goal ≤ ${GOAL.wallS} s) |
| the same lines read bare (\`streamMoneyLines\`, in the bench's process) | ${seconds(f.sqlMs)} s |
| file | ${(f.runs[0]!.bytes / 2 ** 20).toFixed(1)} MiB |
| admin process peak RSS (VmHWM) | ${f.peakRssMib.toFixed(0)} MiB (${f.idleRssMib.toFixed(0)} MiB idle; goal ≤ ${GOAL.peakRssMib} MiB) |

The sheet is exceljs's streaming writer: rows are committed as they are made, strings inline (a
shared-string table would be held to the end), one style object per column (exceljs remembers the
id of a style object it has seen; a style made per cell cost about a sixth of the time), zlib at level
1 (level 6 took half as long again, the deflate being the slowest stage), and the writer waits
whenever the zip's input holds more than its share: exceljs hands the sheet's XML over without
waiting, and the deflate takes one 64 KiB chunk per turn of the event loop, so without the wait
half the sheet's XML piled up ahead of it. The lines are read 250 at a time
(\`admin/money/lines.ts\`) from the admin's read-only connection: at 2,000 a chunk's rows outlived
their writing and were promoted in V8's heap (the admin's peak: 343 MiB after one export,
441 after three); each chunk seeks to its cursor in \`idx_syb_orders_list\` (it used to walk
down from the range's end every time), and a line's task is found through \`idx_tasks_syb_line\`
(migration 0160), without which each line scanned every task (10,000 lines took 25 s).

The peak grows with exports back to back on one admin, about 20 MiB each (measured once, this
machine, 6 and 8 in a row: 335 MiB after six; 306 MiB where eight levelled off), and that is
garbage V8 leaves in its old space until a full collection, not memory kept: a heap snapshot of
the admin after three exports (it collects first) found 62 MB live of the 146 MB in use, against
50 MB after start-up. The goal row is this run's: ${f.runs.length} export(s) on a fresh admin.`;
}
