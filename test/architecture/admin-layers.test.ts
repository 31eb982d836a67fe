import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

interface Module {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[] }[];
}

const PRODUCTION_ONLY = /\.test\.ts$|\/testkit\.ts$/;

/** The sub-folder of admin/ a file is in ("(root)" for admin/*.ts), or null outside admin/. */
function roomOf(file: string): string | null {
  if (!file.startsWith('admin/')) return null;
  const m = /^admin\/([^/]+)\//.exec(file);
  return m ? m[1]! : '(root)';
}

/**
 * Pairs of admin/ sub-folders that import each other (runtime imports of production files; a
 * type-only import loads nothing). A two-way pair means neither folder is the layer below the
 * other, which docs/architecture.md §2.5 says never happens inside the admin.
 */
function twoWayRooms(modules: Module[]): string[] {
  const arrows = new Set<string>();
  for (const m of modules) {
    const from = roomOf(m.source);
    if (!from || PRODUCTION_ONLY.test(m.source)) continue;
    for (const d of m.dependencies) {
      const to = roomOf(d.resolved);
      if (to && to !== from && !d.dependencyTypes.includes('type-only')) arrows.add(`${from} → ${to}`);
    }
  }
  return [...arrows].filter((a) => {
    const [from, to] = a.split(' → ');
    return from! < to! && arrows.has(`${to} → ${from}`);
  });
}

describe('the layers inside admin/', () => {
  it('no two sub-folders of admin/ import each other', async () => {
    const { stdout } = await run(
      path.join(ROOT, 'node_modules/.bin/depcruise'),
      ['--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'admin'],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
    );
    const { modules } = JSON.parse(stdout) as { modules: Module[] };
    expect(modules.filter((m) => m.source.startsWith('admin/http/')).length).toBeGreaterThan(10);
    expect(twoWayRooms(modules)).toEqual([]);
  }, 120_000);

  it('the check bites: a service reaching back into the folder that calls it is named', () => {
    const dep = (resolved: string, type = 'local') => ({ resolved, dependencyTypes: [type] });
    const modules: Module[] = [
      { source: 'admin/http/routes/tasks.ts', dependencies: [dep('admin/purchase/start.ts')] },
      { source: 'admin/purchase/start.ts', dependencies: [dep('admin/http/errors.ts'), dep('admin/db/database.ts')] },
      { source: 'admin/db/database.ts', dependencies: [] },
      // allowed: a type-only import back, and a test reaching anywhere
      { source: 'admin/hosts/phones.ts', dependencies: [dep('admin/devices/health.ts')] },
      { source: 'admin/devices/health.ts', dependencies: [dep('admin/hosts/phones.ts', 'type-only')] },
      { source: 'admin/devices/health.test.ts', dependencies: [dep('admin/hosts/phones.ts')] },
    ];
    expect(twoWayRooms(modules)).toEqual(['http → purchase']);
  });
});
