import fs from 'node:fs';
import path from 'node:path';

/**
 * Workflows are started typed by the workflow and named by its export (docs/architecture.md §4.9):
 * `client.workflow.start<typeof purchase>('purchase', …)`. The compiler checks the arguments
 * against the type; this checks what it cannot — that no start goes by a bare name, that the name
 * is the one the type names, and that it is a workflow workflows/index.ts exports.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const FOLDERS = [
  'activities',
  'admin',
  'bench',
  'device-worker',
  'phone-host',
  'platform',
  'scripts',
  'sim',
  'temporal',
  'test',
  'workers',
];

function sources(): Array<{ file: string; text: string }> {
  return FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && !name.split(path.sep).includes('node_modules'))
      .map((name) => path.join(folder, name))
      .filter((file) => file !== path.relative(ROOT, __filename))
      .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') })),
  );
}

const exported = [
  ...fs.readFileSync(path.join(ROOT, 'workflows', 'index.ts'), 'utf8').matchAll(/export \{ (\w+) \}/g),
].map((m) => m[1]!);

/** Every start of a workflow by a client: `.workflow.start…(` with what precedes its first argument. */
const START =
  /\.workflow\s*\.\s*(start|execute|signalWithStart|startUpdateWithStart|executeUpdateWithStart)\s*(<[^>(]*>)?\s*\(\s*([^,\s]+)/g;

describe('workflow starts are typed and named by the workflow', () => {
  const files = sources();

  it('finds the starts it checks (the scan itself works)', () => {
    const all = files.flatMap(({ text }) => [...text.matchAll(START)]);
    expect(all.length).toBeGreaterThan(10);
    expect(exported).toEqual(expect.arrayContaining(['purchase', 'collect', 'sybSync', 'systemCheck', 'deviceCheck']));
  });

  it('every start names the workflow type its `typeof` names, and that workflow is exported', () => {
    const wrong = files.flatMap(({ file, text }) =>
      [...text.matchAll(START)].flatMap((m) => {
        const [, call, generic, first] = m;
        const typed = /^<\s*typeof\s+(\w+)\s*>$/.exec(generic ?? '')?.[1];
        const name = /^['"](\w+)['"]$/.exec(first ?? '')?.[1];
        const ok = typed !== undefined && name === typed && exported.includes(name);
        return ok ? [] : [`${file}: .workflow.${call}${generic ?? ''}(${first}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('every Schedule action names an exported workflow and is typed by it', () => {
    const actions = files.flatMap(({ file, text }) =>
      [
        ...text.matchAll(
          /workflowType:\s*'(\w+)'[\s\S]*?\}\s*satisfies\s+ScheduleOptionsStartWorkflowAction<typeof (\w+)>/g,
        ),
      ].map((m) => ({ file, name: m[1], typed: m[2] })),
    );
    const untyped = files.filter(
      ({ text }) =>
        /type:\s*'startWorkflow'/.test(text) && !/satisfies\s+ScheduleOptionsStartWorkflowAction</.test(text),
    );
    expect(untyped.map((f) => f.file)).toEqual([]);
    expect(actions.length).toBeGreaterThan(0);
    for (const a of actions)
      expect({ ...a, exported: exported.includes(a.name!) }).toEqual({ ...a, typed: a.name, exported: true });
  });
});
