import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../temporal/binaries';
import { benchDevice } from './device';
import { deviceGoalRows, deviceSection } from './device-doc';
import { benchImport } from './import';
import { benchLoad } from './load';
import { benchMoneyOverview, moneyOverviewJson } from './money-overview';
import { benchMoneyExport } from './money-export';
import { moneyExportGoalRows, moneyExportSection } from './money-export-doc';
import { moneyOverviewGoalRows, moneyOverviewSection } from './money-overview-doc';
import { benchOrchestration } from './orchestration';
import { renderDoc } from './performance-doc';
import { benchResponsiveness } from './responsiveness';
import { responsivenessSection } from './responsiveness-doc';
import { benchScreen } from './screen';
import { screenGoalRows, screenSection } from './screen-doc';
import { round, spread } from './stats';
import { benchTasksList } from './tasks-list';
import { startBenchTemporal, type BenchTemporal } from './temporal';

/**
 * `npm run bench [-- --quick] [-- --json FILE] [-- --only PARTS]`: what the system spends at
 * scale, measured — never asserted in tests. Writes docs/PERFORMANCE.md (medians of the runs with
 * their range, the machine, the date); `--json FILE` writes the same figures under fixed keys;
 * `--quick` runs each part once with smaller sizes and leaves docs/PERFORMANCE.md alone unless
 * `--write-doc` is given too; `--only tasks-list,load` runs just those parts (of orchestration,
 * tasks-list, load, device, import, responsiveness, screen, money-overview, money-export) and prints their JSON, never writing the doc. Parts run one after another, so none measures another's load.
 */
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const jsonIdx = argv.indexOf('--json');
const jsonFile = jsonIdx >= 0 ? argv[jsonIdx + 1] : undefined;
if (jsonIdx >= 0 && !jsonFile) throw new Error('--json needs a file name');
const PARTS = [
  'orchestration',
  'tasks-list',
  'load',
  'device',
  'import',
  'responsiveness',
  'screen',
  'money-overview',
  'money-export',
] as const;
type Part = (typeof PARTS)[number];
const onlyIdx = argv.indexOf('--only');
/** `--only tasks-list,load`: measure some parts alone, e.g. before and after a change to them */
const only: ReadonlySet<Part> | undefined = onlyIdx >= 0 ? new Set(parseParts(argv[onlyIdx + 1])) : undefined;
const runs = (part: Part) => only === undefined || only.has(part);
// docs/PERFORMANCE.md needs every part; a partial run prints its figures (and --json) only
const writeDoc = only === undefined && (!quick || argv.includes('--write-doc'));

function parseParts(list: string | undefined): Part[] {
  const parts = (list ?? '').split(',').filter(Boolean);
  const unknown = parts.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (parts.length === 0 || unknown.length > 0)
    throw new Error(
      `--only takes a comma-separated list of ${PARTS.join(', ')}${unknown.length ? `; not a part: ${unknown.join(', ')}` : ''}`,
    );
  return parts as Part[];
}

const SIZE = quick
  ? { runs: 1, perPhone: 2, tasks: 100_000, loadSeconds: 10, loadRounds: 1, importRuns: 1, bigImportRuns: 1 }
  : { runs: 5, perPhone: 3, tasks: 1_000_000, loadSeconds: 30, loadRounds: 3, importRuns: 5, bigImportRuns: 3 };
/**
 * The responsiveness part (bench/responsiveness.ts): what the admin works on while it is asked
 * for /healthz and the task list, and how long each round may take before it is reported as
 * not finished (the hostile workbook's cap is short: the round measures a freeze, not its end).
 */
const RESPONSIVENESS = {
  importRows: quick ? 20_000 : 100_000,
  sybShipments: quick ? 10 : 20,
  sybLinesPerShipment: quick ? 500 : 1_000,
  hostileTags: 200_000,
  idleSeconds: quick ? 5 : 10,
  capSeconds: { import: 180, sync: 180, hostile: quick ? 30 : 60 },
};
/** The live-screen part (bench/screen.ts): how long each stream is watched, and how many inputs are timed. */
const SCREEN = { seconds: quick ? 3 : 10, inputs: quick ? 5 : 20 };
const PHONES = [1, 2, 4, 8];
/** collect on the realistic profile costs about a minute per goods: one per pricing kind */
const COLLECT_GOODS = ['937122477375', '600000000101', '600000000104'];
/** `--device-no-collect`: the device part measures the purchases only (quicker, for a before/after of the purchase flow) */
const DEVICE_COLLECT_GOODS = argv.includes('--device-no-collect') ? [] : COLLECT_GOODS;

const say = (line: string) => console.log(`[bench] ${line}`);
const deviceOptions = () => ({
  latency: 'realistic' as const,
  collectGoodsIds: DEVICE_COLLECT_GOODS,
  runs: SIZE.runs,
  say,
});

/** Each part with this run's sizes, in the order a full run measures them. */
function parts(root: string, temporal: BenchTemporal | undefined) {
  const server = () => {
    if (!temporal) throw new Error('this part needs the Temporal server');
    return temporal;
  };
  const load = { phones: 8, rate: 200, seconds: SIZE.loadSeconds, rounds: SIZE.loadRounds, say };
  return {
    orchestration: () =>
      benchOrchestration({
        temporal: server(),
        root,
        phoneCounts: PHONES,
        perPhone: SIZE.perPhone,
        runs: SIZE.runs,
        say,
      }),
    tasksList: () =>
      benchTasksList({ temporal: server(), root, tasks: SIZE.tasks, rounds: Math.max(SIZE.runs, 1), say }),
    load: () => benchLoad({ temporal: server(), root, ...load }),
    device: () => benchDevice(deviceOptions()),
    imports: () => benchImport({ temporal: server(), root, rows: 11_287, runs: SIZE.importRuns, say }),
    /** a 100,000-row export on an admin of its own, so its peak RSS is this import's alone */
    bigImports: () => benchImport({ temporal: server(), root, rows: 100_000, runs: SIZE.bigImportRuns, say }),
    responsiveness: () => benchResponsiveness({ temporal: server(), root, ...RESPONSIVENESS, say }),
    screen: () => benchScreen({ temporal: server(), root, ...SCREEN, say }),
    moneyOverview: () =>
      benchMoneyOverview({ temporal: server(), root, tasks: SIZE.tasks, rounds: Math.min(SIZE.runs, 3), say }),
    /** a year's 100,000 lines as xlsx, on an admin of its own, so its peak RSS is the export's */
    moneyExport: () =>
      benchMoneyExport({
        temporal: server(),
        root,
        lines: quick ? 20_000 : 100_000,
        runs: Math.min(SIZE.runs, 3),
        say,
      }),
  };
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-bench-'));
  const startedAt = new Date();
  const loadAverage = os.loadavg()[0] ?? NaN;
  const temporal = only?.size === 1 && only.has('device') ? undefined : await startBenchTemporal(root, say);
  try {
    if (only !== undefined) await partial(parts(root, temporal));
    else await full(parts(root, temporal), startedAt, loadAverage);
    fs.rmSync(root, { recursive: true, force: true });
  } catch (err) {
    say(`failed; logs kept in ${root}`);
    throw err;
  } finally {
    await temporal?.server.stop();
  }
}

/** Every part, then docs/PERFORMANCE.md (unless `--quick`) and `--json`. */
async function full(part: ReturnType<typeof parts>, startedAt: Date, loadAverage: number): Promise<void> {
  const orchestration = await part.orchestration();
  const tasks = await part.tasksList();
  const loadRounds = await part.load();
  const device = await part.device();
  const imports = await part.imports();
  const bigImports = await part.bigImports();
  const responsiveness = await part.responsiveness();
  const screen = await part.screen();
  const moneyOverview = await part.moneyOverview();
  const moneyExport = await part.moneyExport();
  const json = {
    orchestration: orchestration.json,
    tasks_list: tasksListJson(tasks),
    load: loadJson(loadRounds),
    device: device.json,
    import: importJson(imports, bigImports),
    responsiveness: responsiveness.json,
    screen: screen.json,
    money_overview: moneyOverviewJson(moneyOverview),
    money_export: moneyExport.json,
  };
  if (jsonFile) fs.writeFileSync(path.resolve(jsonFile), `${JSON.stringify(json, null, 2)}\n`);
  const md = renderDoc({
    startedAt,
    loadAverage,
    quick,
    orchestration,
    tasks,
    loadRounds,
    device,
    imports,
    bigImports,
    responsiveness,
    screen,
    moneyOverview,
    moneyExport,
    json,
  });
  if (writeDoc) fs.writeFileSync(path.join(PROJECT_ROOT, 'docs', 'PERFORMANCE.md'), md);
  console.log(md);
}

/** The parts `--only` names, each part's figures printed as the JSON keys they fill. */
async function partial(part: ReturnType<typeof parts>): Promise<void> {
  const json: Record<string, unknown> = {};
  if (runs('orchestration')) json.orchestration = (await part.orchestration()).json;
  if (runs('tasks-list')) json.tasks_list = tasksListJson(await part.tasksList());
  if (runs('load')) json.load = loadJson(await part.load());
  if (runs('device')) {
    const figures = await part.device();
    json.device = figures.json;
    // its section and goal rows of docs/PERFORMANCE.md, to read (or paste) without a full run
    console.log(`${deviceSection(figures)}\n\n${deviceGoalRows(figures).join('\n')}\n`);
  }
  if (runs('import')) json.import = importJson(await part.imports(), await part.bigImports());
  if (runs('responsiveness')) {
    const figures = await part.responsiveness();
    json.responsiveness = figures.json;
    // its section of docs/PERFORMANCE.md, to read (or paste) without a full run
    console.log(`${responsivenessSection(figures)}\n`);
  }
  if (runs('screen')) {
    const figures = await part.screen();
    json.screen = figures.json;
    // its section and goal rows of docs/PERFORMANCE.md, to read (or paste) without a full run
    console.log(`${screenSection(figures)}\n\n${screenGoalRows(figures).join('\n')}\n`);
  }
  if (runs('money-overview')) {
    const figures = await part.moneyOverview();
    json.money_overview = moneyOverviewJson(figures);
    // its section and goal rows of docs/PERFORMANCE.md, to read (or paste) without a full run
    console.log(`${moneyOverviewSection(figures)}\n\n${moneyOverviewGoalRows(figures).join('\n')}\n`);
  }
  if (runs('money-export')) {
    const figures = await part.moneyExport();
    json.money_export = figures.json;
    // its section and goal rows of docs/PERFORMANCE.md, to read (or paste) without a full run
    console.log(`${moneyExportSection(figures)}\n\n${moneyExportGoalRows(figures).join('\n')}\n`);
  }
  if (jsonFile) fs.writeFileSync(path.resolve(jsonFile), `${JSON.stringify(json, null, 2)}\n`);
  console.log(JSON.stringify(json, null, 2));
}

// The figures under their fixed `--json` keys.

function tasksListJson(tasks: Awaited<ReturnType<typeof benchTasksList>>) {
  return {
    p99_ms: {
      first: round(tasks.api.first.p99.median),
      deep: round(tasks.api.deep.p99.median),
      filter: round(tasks.api.filter.p99.median),
      search: round(tasks.api.search.p99.median),
    },
    sql_p99_ms: { first: round(tasks.sql.first.p99.median, 3), deep: round(tasks.sql.deep.p99.median, 3) },
  };
}

function loadJson(load: Awaited<ReturnType<typeof benchLoad>>) {
  return {
    p99_ms: round(spread(load.map((l) => l.p99Ms)).median),
    errors: load.reduce((n, l) => n + l.errors, 0),
    start_500_ms: Math.round(spread(load.map((l) => l.start500Ms)).median),
  };
}

function importJson(imports: Awaited<ReturnType<typeof benchImport>>, big: Awaited<ReturnType<typeof benchImport>>) {
  return {
    ratio_vs_exceljs: round(spread(imports.runs.map((r) => r.ratio)).median),
    peak_rss_mib: Math.round(imports.peakRssMib),
    rows_100k_ratio_vs_exceljs: round(spread(big.runs.map((r) => r.ratio)).median),
    rows_100k_peak_rss_mib: Math.round(big.peakRssMib),
  };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
