import { Context } from '@temporalio/activity';
import { skusJsonSchema } from '../../domain/collect';
import { DeviceError } from '../../device-worker/errors';
import { collectGoods } from '../../device-worker/pdd/collect';
import { SUPPORTED_APP_VERSIONS } from '../../device-worker/pdd/profile';
import type { DeviceContext } from './context';
import { toFailure } from './failure';
import { onPhone } from './phone-activity';
import { toPddData } from './pdd-data';
import type {
  CollectSkusInput,
  CollectSkusResult,
  DeviceActivities,
  DeviceActivityInput,
  DeviceHealth,
} from '../../domain/contracts/device-activities';

export { createClaimActivities } from './claim';
export type { DeviceContext } from './context';

/** The activities of `device/<deviceId>`: each checks the claim, touches only this phone. */
export function createDeviceActivities(ctx: DeviceContext): DeviceActivities {
  return {
    /** Who the phone is and whether we can drive its PDD app; taps nothing. */
    async deviceHealth(input: DeviceActivityInput): Promise<DeviceHealth> {
      return onPhone(ctx, 'deviceHealth', input, async ({ appVersion, clock }) => {
        const model = (await ctx.adb.getprop('ro.product.model')) || 'unknown';
        const screen = await ctx.adb.screenSize();
        return {
          deviceId: ctx.deviceId,
          serial: ctx.adb.serial,
          model,
          appVersion,
          appSupported: appVersion !== null && SUPPORTED_APP_VERSIONS.includes(appVersion),
          screen,
          counters: clock.snapshot(),
        };
      });
    },

    /** Read-only: opens the goods and reads every option and price. */
    async collectSkus(input: CollectSkusInput): Promise<CollectSkusResult> {
      return onPhone(ctx, 'collectSkus', input, async ({ appVersion, clock, openSession }) => {
        if (!/^\d+$/.test(input.pddGoodsId ?? ''))
          throw new DeviceError('INVALID_INPUT', `pddGoodsId ${JSON.stringify(input.pddGoodsId)} is not digits`);
        const { session, profile } = openSession();
        const collected = await collectGoods(session, input.pddGoodsId);
        const skus_json = skusJsonSchema.parse(collected);
        const pdd_data = toPddData(skus_json, {
          url: profile.goodsUrl(input.pddGoodsId),
          deviceId: ctx.deviceId,
          deviceAddress: `${ctx.adb.target.host}:${ctx.adb.target.port}/${ctx.adb.serial}`,
          pkg: profile.pkg,
          appVersion: appVersion ?? '',
        });
        return { skus_json, pdd_data, counters: clock.snapshot() };
      });
    },

    /** Closes this workflow's claim; idempotent, so the release may be retried freely. */
    async releaseDevice(input: DeviceActivityInput): Promise<{ released: boolean }> {
      const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
      try {
        const released = ctx.ledger.release(input.claim.claim_id, workflowId, 'released by workflow');
        ctx.log.info({ workflowId, claimId: input.claim.claim_id, released }, 'device released');
        ctx.onReleased();
        return { released };
      } catch (err) {
        throw toFailure(err, null, null);
      }
    },
  };
}
