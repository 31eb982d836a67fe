import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflows, WORKFLOWS_PATH } from '../../workers/workflow-bundle';

/**
 * A bundle of a copy of workflows/ in a temp dir with text replaced in its files (`from` must
 * occur; a global RegExp replaces every match); imports that leave workflows/ point back at the
 * repository, packages resolve from its node_modules. How the tests show a patch taken out either
 * way breaks replay, how a history of a patch's old branch is recorded, and how the code of a
 * retirement's next stage (the `deprecatePatch` calls deleted) is tried before it is written.
 */
export async function workflowsVariant(from: string | RegExp, to: string): Promise<{ code: string; codePath: string }> {
  const workflowsDir = path.dirname(WORKFLOWS_PATH);
  const root = path.dirname(workflowsDir);
  const tmp = fs.mkdtempSync(path.join(process.env.CMAUTOBUY_TEST_TMP ?? os.tmpdir(), 'variant-'));
  const copy = path.join(tmp, 'workflows');
  fs.mkdirSync(copy);
  let found = false;
  const files = fs
    .readdirSync(workflowsDir, { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'));
  for (const name of files) {
    // an import that climbs out of workflows/ (one `../` more than the file's depth in it)
    const out = '../'.repeat(name.split(path.sep).length);
    let text = fs.readFileSync(path.join(workflowsDir, name), 'utf8').split(`from '${out}`).join(`from '${root}/`);
    const replaced = typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
    if (replaced !== text) {
      found = true;
      text = replaced;
    }
    fs.mkdirSync(path.dirname(path.join(copy, name)), { recursive: true });
    fs.writeFileSync(path.join(copy, name), text);
  }
  if (!found) throw new Error(`no workflow file contains ${from}`);
  const bundle = await bundleWorkflows({
    workflowsPath: path.join(copy, 'index.ts'),
    outFile: path.join(tmp, 'workflow-bundle.js'),
    webpackConfigHook: (config) => ({
      ...config,
      resolve: { ...config.resolve, modules: [...(config.resolve?.modules ?? []), path.join(root, 'node_modules')] },
    }),
  });
  return { code: bundle.code, codePath: bundle.codePath };
}
