import fs from 'node:fs';
import path from 'node:path';

/** Enough for every test file of one run; a file that finds the pool empty fails loudly. */
export const TEST_NAMESPACE_POOL = Array.from({ length: 200 }, (_, i) => `test-${i + 1}`);

/** Takes the next unused namespace of this run (atomic across jest workers via O_EXCL). */
export function allocateNamespace(): string {
  const tmp = process.env.CMAUTOBUY_TEST_TMP;
  if (!tmp) throw new Error('CMAUTOBUY_TEST_TMP unset: run tests through jest (globalSetup)');
  for (const ns of TEST_NAMESPACE_POOL) {
    try {
      fs.closeSync(fs.openSync(path.join(tmp, `ns-${ns}.lock`), 'wx'));
      return ns;
    } catch {
      continue;
    }
  }
  throw new Error(
    `all ${TEST_NAMESPACE_POOL.length} test namespaces are taken: raise TEST_NAMESPACE_POOL in test/namespaces.ts`,
  );
}
