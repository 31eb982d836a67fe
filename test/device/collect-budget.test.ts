import { AdbDevice } from '../../device-worker/adb/adb-device';
import { CounterClock } from '../../device-worker/counters';
import { collectGoods } from '../../device-worker/pdd/collect';
import { profileForVersion } from '../../device-worker/pdd/profile';
import { PddSession } from '../../device-worker/pdd/session';
import { StepLog } from '../../device-worker/step-log';
import { isInferredPrice, isMeasuredPrice } from '../../domain/collect';
import { defaultCatalog, startPhoneSim, type PhoneSim } from '../../sim/phone/index';
import { collectOf } from '../collected';
import { FAST_TIMING } from '../../device-worker/pdd/purchase/testkit';

/**
 * A collect measures each row by selecting it, as far as its budget of rows goes; past it a
 * colour's single price is carried over and marked inferred (推测价格), never left out. Here the
 * budget is three rows on a goods of three colours by two sizes, over real adbkit.
 */
describe('a collect past its budget of measured rows', () => {
  const SERIAL = 'budget-phone';
  let sim: PhoneSim;
  beforeAll(async () => {
    sim = await startPhoneSim({ adbPort: 0, controlPort: 0, phones: [SERIAL] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('measures whole colours while they fit, carries the rest over marked inferred, and says the same as the tests’ stand-in', async () => {
    const goods = defaultCatalog().goods.find((g) => g.goods_id === '600000000101')!;
    const adb = new AdbDevice({ host: '127.0.0.1', port: sim.adbPort, serial: SERIAL });
    const profile = profileForVersion(await adb.versionName(profileForVersion('8.17.0').pkg));
    const session = new PddSession(adb, profile, new CounterClock(), new StepLog(), FAST_TIMING);
    const got = await collectGoods(session, goods.goods_id, 3);
    // the first colour's two rows fit the three; the second colour's two would not, nor the third's
    expect(got.skus.map((r) => [Object.values(r.options).join('/'), isMeasuredPrice(r), isInferredPrice(r)])).toEqual([
      ['粉红/S', true, false],
      ['粉红/M', true, false],
      ['红/S', false, true],
      ['红/M', false, true],
      ['红色系/S', false, true],
      ['红色系/M', false, true],
    ]);
    expect(got.skus.map((r) => r.price_inferred)).toEqual([false, false, true, true, true, true]);
    expect(got.skus.map((r) => r.price_cent)).toEqual(goods.skus.map((s) => s.price_cent));
    expect({ ...got, captured_at: '' }).toEqual({ ...collectOf(goods, '', 3), captured_at: '' });
  });
});
