import fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  await globalThis.__cmautobuyTemporal?.stop();
  if (globalThis.__cmautobuyTmp && process.env.CMAUTOBUY_TEST_KEEP_TMP !== '1') {
    fs.rmSync(globalThis.__cmautobuyTmp, { recursive: true, force: true });
  }
}
