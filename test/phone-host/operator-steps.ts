import type { AdminDb } from '../../admin/db/database';
import type { TaskView } from '../../domain/purchase/views';
import { collectedInTestDb } from '../collected';
import { startReferencePurchase } from '../reference-purchase';
import type { OperatorClient } from '../harness';
import { BLACK_M } from '../purchase/setup';

/**
 * Asks `read` every 100 ms until `check` holds, at most `tries` times. A read that fails (a
 * keep-alive socket the admin closed between two polls) is asked again, not a failure; the
 * error names what never came and the last answer.
 */
export async function until<T>(
  read: () => Promise<T>,
  check: (v: T) => boolean,
  what: string,
  tries = 1_200,
): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    const got = await read().then(
      (v) => ({ v }),
      () => null,
    );
    if (got) last = got.v;
    if (got && check(got.v)) return got.v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never saw ${what}; last: ${JSON.stringify(last)}`);
}

/**
 * What the phone tests do as the operator, through the API: start a dry run of the simulator's
 * BLACK_M goods (collected first: a draft needs a collect) and wait for its task to reach a
 * state. `op` and `db` are read at each call, so a file may log in inside its beforeAll.
 */
export function operatorSteps(op: () => OperatorClient, db: () => AdminDb, tries?: number) {
  const task = async (id: string) => (await op().get(`/api/tasks/${id}`)).body as TaskView;
  const waitFor = (id: string, statuses: string[]) =>
    until(
      () => task(id),
      (t) => statuses.includes(t.status),
      `${id} in ${statuses.join('/')}`,
      tries,
    );
  async function dryRun(): Promise<string> {
    await collectedInTestDb(db(), BLACK_M.goodsId);
    return startReferencePurchase(op(), { mode: 'dry_run', quantity: 1, maxTotalPriceCent: 2000 });
  }
  return { task, waitFor, dryRun };
}
