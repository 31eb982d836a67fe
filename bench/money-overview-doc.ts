import type { MoneyOverviewFigures } from './money-overview';
import { PHONES, TRANSITIONS } from './money-seed';
import { showSpread } from './stats';

/** The money overview's section of docs/PERFORMANCE.md and its goal rows (bench/money-overview.ts). */
const GOAL_MS = 50;

const TRANSITION_NAMES: Record<'insert' | (typeof TRANSITIONS)[number], string> = {
  insert: 'a purchase written: its 顺运宝 line, task, authorization, attempt, submission (`lines_in`)',
  tap: 'the tap on 提交订单 recorded (`live_purchases`, per phone)',
  attempt_end: "an attempt's end (the phone's busy seconds)",
  waiting_payment: '→ 待付款 (freeze the rates and the total; count, amount, margin)',
  paid: '待付款 → 已完成 (paid)',
  stop: '→ a stop (per reason)',
  dry_run_end: 'a dry run passed',
};

const us = (ms: number, rows: number) => (rows === 0 ? '—' : ((ms * 1000) / rows).toFixed(0));

export function moneyOverviewSection(f: MoneyOverviewFigures): string {
  const s = f.seed;
  const { with: w, without: wo } = s.overhead;
  const rows = (['insert', ...TRANSITIONS] as const).map(
    (t) =>
      `| ${TRANSITION_NAMES[t]} | ${s.phases[t].rows.toLocaleString('en')} | ${us(s.phases[t].ms, s.phases[t].rows)} | ${us(w[t].ms, w[t].rows)} | ${us(wo[t].ms, wo[t].rows)} | ${(Number(us(w[t].ms, w[t].rows)) - Number(us(wo[t].ms, wo[t].rows))).toFixed(0)} |`,
  );
  const scan = s.submissionScan;
  const caseName = {
    year: `${f.ranges.year.from} – ${f.ranges.year.to} (365 days)`,
    month: `${f.ranges.month.from} – ${f.ranges.month.to} (30 days)`,
  };
  return `### The money overview over a year (\`bench/money-overview.ts\`)

${s.tasks.toLocaleString('en')} purchases over ${s.days} Taipei days on ${PHONES} phones (\`bench/money-seed.ts\`: about 88 % paid, a third of
them the next day; 4 % stopped; 4 % dry runs; the last week's every fifth still 待付款), written into
a migrated admin DB as the admin's writes make them: the rows inserted as a purchase holds a
phone, then moved on by one-row \`UPDATE\`s, each kind over all the purchases in turn. The daily
figures (\`money_days\`, ${s.moneyDaysRows.toLocaleString('en')} rows) are the migration's triggers' work — nothing writes them
but the triggers. Seeding took ${(f.seedMs / 1000).toFixed(0)} s. A transition's cost is its share of its phase's time; what the
triggers add to it is measured on ${s.overhead.sample.toLocaleString('en')} more purchases written on the full file twice, with the
money triggers and without (both rolled back).

| write (the trigger's figure) | rows | µs each, seeding | µs each, sample with triggers | µs each, sample without | triggers' share, µs |
|---|---|---|---|---|---|
${rows.join('\n')}

${
  scan.indexMissing
    ? `The 待付款 trigger looks the task's submission up by \`task_id\`, which no index of
\`order_submissions\` starts with: at ${scan.submissions.toLocaleString('en')} submissions one such transition took **${scan.msPerTransition?.toFixed(0)} ms**
(20 timed, rolled back), growing with every submission kept. The bench adds
\`order_submissions(task_id, created_at)\` before that phase so that seeding ends; the figures above
and below are with it.`
    : `The 待付款 trigger finds the task's submission through an index of \`order_submissions\` on \`task_id\`.`
}

Then \`GET /api/money/overview\` through HTTP on an admin process, ${f.api.year.p50.runs} round(s) of 300 requests per
range, beside \`moneyOverview\` called in the bench's process on the same file (SQL and aggregation,
no HTTP).

| range | \`money_days\` rows read | answer | API p50 ms | API p99 ms | API max ms | in process p50 ms | in process p99 ms |
|---|---|---|---|---|---|---|---|
${(['year', 'month'] as const)
  .map(
    (c) =>
      `| ${caseName[c]} | ${f.moneyDaysRead[c].toLocaleString('en')} | ${f.responseKib[c].toFixed(0)} KiB | ${showSpread(f.api[c].p50)} | ${showSpread(f.api[c].p99)} | ${showSpread(f.api[c].max)} | ${showSpread(f.inProcess[c].p50)} | ${showSpread(f.inProcess[c].p99)} |`,
  )
  .join('\n')}

Query plans (the year): ${f.plans.map((p) => `\`${p}\``).join('; ')}.

The figures against the rows (\`bench/money-direct.ts\`: every day's and phone's figure worked out
again from the lines, tasks, submissions and attempts by plain \`GROUP BY\`s and
\`domain/margin.ts\`): ${f.difference.seeded === null ? '**equal**' : `**differ** — ${f.difference.seeded}`} after seeding; after ${f.changes} changes written while the admin ran
(100 purchases paid, 100 new ones through their whole course): ${f.difference.afterChanges === null ? '**equal**' : `**differ** — ${f.difference.afterChanges}`}.`;
}

export function moneyOverviewGoalRows(f: MoneyOverviewFigures): string[] {
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  const p99 = f.api.year.p99.median;
  const match = f.difference.seeded === null && f.difference.afterChanges === null;
  return [
    `| money overview p99 ≤ ${GOAL_MS} ms, 365 days, ${f.seed.tasks.toLocaleString('en')} purchases | ${p99.toFixed(1)} ms (30 days: ${f.api.month.p99.median.toFixed(1)} ms) | ${yes(p99 <= GOAL_MS)} |`,
    `| money overview equals the rows' own figures, after purchases move on | ${match ? 'equal' : 'differ'} | ${yes(match)} |`,
  ];
}
