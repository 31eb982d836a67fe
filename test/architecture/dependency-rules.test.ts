import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/**
 * The rules of .dependency-cruiser.cjs, run by the real depcruise on a small tree of files laid
 * out like the repository: every forbidden import below must be reported under its rule, and
 * the allowed ones not at all. (`npm run depcruise` checks the repository itself.)
 */
const FILES: Record<string, string> = {
  'domain/money.ts': `export const cents = 1;`,
  'domain/impure.ts': `import { log } from '../platform/log';\nexport const x = log;`,
  'platform/log.ts': `import { cents } from '../domain/money';\nexport const log = cents;`,
  'platform/cycle-a.ts': `import { b } from './cycle-b';\nexport const a = b;`,
  'platform/cycle-b.ts': `import { a } from './cycle-a';\nexport const b = () => a;`,
  'temporal/conn.ts': `import { log } from '../platform/log';\nexport const conn = log;`,
  'admin/server.ts': `import { conn } from '../temporal/conn';\nimport type { ok } from '../workflows/ok';\nimport { app } from './http/app';\nexport const server = (w: typeof ok) => [conn, w, app];`,
  'admin/http/errors.ts': `import { cents } from '../../domain/money';\nexport const statusOf = cents;`,
  'admin/http/app.ts': `import { statusOf } from './errors';\nexport const app = statusOf;`,
  'admin/refuses-by-status.ts': `import { statusOf } from './http/errors';\nexport const bad = statusOf;`,
  'activities/admin/answers-http.ts': `import { app } from '../../admin/http/app';\nexport const bad = app;`,
  'admin/actions.ts': `import { holds } from '../domain/contracts/messages';\nexport const actions = holds;`,
  'admin/registers.ts': `import { act } from '../activities/admin/act';\nexport const bad = act;`,
  'admin/loads-workflow.ts': `import { ok } from '../workflows/ok';\nexport const bad = ok;`,
  'admin/composes.ts': `import { startAdmin } from '../workers/admin';\nexport const bad = startAdmin;`,
  'domain/contracts/messages.ts': `import { defineQuery } from '@temporalio/workflow';\nexport const holds = defineQuery<boolean>('holds');`,
  'temporal/names-workflow.ts': `import { ok } from '../workflows/ok';\nexport const bad = ok;`,
  'activities/admin/reads-workflow.ts': `import type { ok } from '../../workflows/ok';\nexport const bad = (w: typeof ok) => w;`,
  'activities/admin/act.ts': `import { cents } from '../../domain/money';\nexport const act = cents;`,
  'activities/device/act.ts': `import { phone } from '../../device-worker/phone';\nexport const dact = phone;\nexport type DeviceAct = number;`,
  'device-worker/phone.ts': `export const phone = 1;`,
  'workers/device.ts': `import { dact } from '../activities/device/act';\nimport { conn } from '../temporal/conn';\nimport { phone } from '../device-worker/phone';\nexport const w = [dact, conn, phone];`,
  'workers/admin.ts': `import { server } from '../admin/server';\nimport { act } from '../activities/admin/act';\nimport { ok } from '../workflows/ok';\nexport const startAdmin = [server, act, ok];`,
  'workers/reaches-sim.ts': `import { simCents } from '../sim/values';\nexport const bad = simCents;`,
  'device-worker/reaches-admin.ts': `import { server } from '../admin/server';\nexport const bad = server;`,
  'device-worker/runtime/registers.ts': `import { dact } from '../../activities/device/act';\nexport const bad = dact;`,
  'device-worker/pdd/flow.ts': `import type { DeviceAct } from '../../activities/device/act';\nexport const flow = (x: DeviceAct) => x;`,
  'workflows/ok.ts': `import type { DeviceAct } from '../activities/device/act';\nimport { cents } from '../domain/money';\nexport const ok = (x: DeviceAct) => x + cents;`,
  'workflows/loads-activity.ts': `import { dact } from '../activities/device/act';\nexport const bad = dact;`,
  'sim/phone.ts': `import type { DeviceAct } from '../domain/types';\nimport { phone } from '../device-worker/phone';\nexport const sim = (x: DeviceAct) => x + phone;`,
  'sim/values.ts': `import { cents } from '../domain/money';\nexport const simCents = cents;`,
  'domain/types.ts': `export type DeviceAct = number;`,
  'ui/src/view.ts': `import { cents } from '../../domain/money';\nimport { server } from '../../admin/server';\nexport const view = [cents, server];`,
  'domain/catalog-search.ts': `export const fold = (s: string) => s;`,
  'domain/labels.ts': `import { fold } from './catalog-search';\nexport const label = fold('x');`,
  'ui/src/labels.ts': `import { label } from '../../domain/labels';\nexport const shown = label;`,
  'migrations/001.ts': `import { cents } from '../domain/money';\nexport const m = cents;`,
  'test/anything.ts': `import { server } from '../admin/server';\nimport { w } from '../workers/device';\nimport { scriptChild } from '../scripts/supervise/children';\nexport const t = [server, w, scriptChild];`,
  'platform/children.ts': `export const spawnChild = 1;`,
  'platform/leans-on-script.ts': `import { scriptChild } from '../scripts/supervise/children';\nexport const bad = scriptChild;`,
  'scripts/supervise/children.ts': `import { spawnChild } from '../../platform/children';\nexport const scriptChild = spawnChild;\nexport type ChildSpec = { name: string };`,
  'phone-host/workers.ts': `import { spawnChild } from '../platform/children';\nimport { conn } from '../temporal/conn';\nexport const workers = [spawnChild, conn];`,
  'phone-host/registers.ts': `import { dact } from '../activities/device/act';\nexport const bad = dact;`,
  'phone-host/leans-on-script.ts': `import { scriptChild } from '../scripts/supervise/children';\nexport const bad = scriptChild;`,
  'phone-host/types-from-script.ts': `import type { ChildSpec } from '../scripts/supervise/children';\nexport const bad = (s: ChildSpec) => s.name;`,
  'phone-host/host.test.ts': `import { scriptChild } from '../scripts/supervise/children';\nexport const t = scriptChild;`,
};

const EXPECTED = [
  'admin-http-on-top: activities/admin/answers-http.ts → admin/http/app.ts',
  'admin-http-on-top: admin/refuses-by-status.ts → admin/http/errors.ts',
  'activities-admin: activities/admin/reads-workflow.ts → workflows/ok.ts',
  'activities-never-import-workflows: activities/admin/reads-workflow.ts → workflows/ok.ts',
  'admin: admin/composes.ts → workers/admin.ts',
  'admin: admin/registers.ts → activities/admin/act.ts',
  'device-worker: device-worker/pdd/flow.ts → activities/device/act.ts',
  'device-worker: device-worker/reaches-admin.ts → admin/server.ts',
  'device-worker: device-worker/runtime/registers.ts → activities/device/act.ts',
  'domain-is-pure: domain/impure.ts → platform/log.ts',
  'migrations: migrations/001.ts → domain/money.ts',
  'no-circular: platform/cycle-a.ts → platform/cycle-b.ts',
  'only-workers-register-activities: admin/registers.ts → activities/admin/act.ts',
  'only-workers-register-activities: device-worker/pdd/flow.ts → activities/device/act.ts',
  'only-workers-register-activities: device-worker/runtime/registers.ts → activities/device/act.ts',
  'only-workers-register-activities: phone-host/registers.ts → activities/device/act.ts',
  'phone-host: phone-host/leans-on-script.ts → scripts/supervise/children.ts',
  'phone-host: phone-host/registers.ts → activities/device/act.ts',
  'phone-host: phone-host/types-from-script.ts → scripts/supervise/children.ts',
  'platform: platform/leans-on-script.ts → scripts/supervise/children.ts',
  'production-never-imports-scripts: phone-host/leans-on-script.ts → scripts/supervise/children.ts',
  'production-never-imports-scripts: phone-host/types-from-script.ts → scripts/supervise/children.ts',
  'production-never-imports-scripts: platform/leans-on-script.ts → scripts/supervise/children.ts',
  'sim: sim/phone.ts → device-worker/phone.ts',
  'sim-domain-types-only: sim/values.ts → domain/money.ts',
  'temporal: temporal/names-workflow.ts → workflows/ok.ts',
  'ui: ui/src/view.ts → admin/server.ts',
  'ui-builds-no-dictionary: ui/src/labels.ts → domain/catalog-search.ts',
  'workers: workers/reaches-sim.ts → sim/values.ts',
  'workers-are-the-top: admin/composes.ts → workers/admin.ts',
  'workflows-named-by-type-only: admin/loads-workflow.ts → workflows/ok.ts',
  'workflows-named-by-type-only: temporal/names-workflow.ts → workflows/ok.ts',
  'workflows-type-only-activities: workflows/loads-activity.ts → activities/device/act.ts',
];

interface DepcruiseJson {
  summary: { violations: { from: string; to: string; rule: { name: string; severity: string } }[] };
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('reports every forbidden import under its rule, and nothing that is allowed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depcruise-'));
    try {
      for (const [file, text] of Object.entries(FILES)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), `${text}\n`);
      }
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true } }),
      );
      const args = [
        path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
        '--config',
        path.join(ROOT, '.dependency-cruiser.cjs'),
        '-T',
        'json',
      ];
      const folders = [
        'domain',
        'platform',
        'temporal',
        'admin',
        'activities',
        'device-worker',
        'workers',
        'phone-host',
        'workflows',
        'sim',
        'ui',
        'migrations',
        'scripts',
        'test',
      ];
      const out = await run(process.execPath, [...args, ...folders], { cwd: dir, maxBuffer: 32 * 1024 * 1024 }).then(
        (r) => r.stdout,
        // depcruise exits non-zero when it finds errors; the report is still on stdout
        (err: { stdout?: string }) => err.stdout ?? '',
      );
      const found = (JSON.parse(out) as DepcruiseJson).summary.violations
        .filter((v) => v.rule.severity === 'error')
        .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
        .sort();
      expect(found).toEqual([...EXPECTED].sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds the Chinese dictionary in one module only, the one the rule keeps out of the UI', () => {
    // the rule follows our modules only (node_modules is outside the graph): it holds as long
    // as no other module loads opencc-js itself
    const loaders = ['domain', 'admin', 'ui/src']
      .flatMap((folder) =>
        fs
          .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
          .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
          .map((name) => path.join(folder, name)),
      )
      .filter((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').includes("require('opencc-js"));
    expect(loaders).toEqual([path.join('domain', 'catalog-search.ts')]);
  });
});
