import Router from '@koa/router';
import { z } from 'zod';
import {
  deviceDisplayNameSchema,
  devicePddAccountSchema,
  type DeviceAttention,
  type DeviceView,
  type IssuedDeviceView,
} from '../../../domain/devices';
import { markAudited } from '../../audit/audit';
import { DEVICE_ID_RE, issueDeviceCredential, revokeDeviceCredential } from '../../auth/device-credentials';
import { devicePresence, listDevices } from '../../auth/device-registry';
import { actorOf, operatorOf } from '../../auth/principal';
import { awaitResumeVerdict, pauseDevice, resumeDevice } from '../../devices/attention';
import { conflict } from '../../../domain/api-error';
import { holdersByDevice } from '../../devices/holds';
import { changeDevice } from '../../auth/device-pdd-account';
import { approveHostPhone, hostFieldsByDevice, rejectHostPhone } from '../../hosts/phones';
import { hostSetupFacts } from '../../hosts/setup';
import { temporalMissingCheck } from '../../hosts/worker-hints';
import type { AppDeps } from '../deps';
import { parseBody, parseParams } from '../validate';

const deviceParams = z.object({ deviceId: z.string().regex(DEVICE_ID_RE, 'not a device id') });
const nameBody = z.object({ display_name: deviceDisplayNameSchema }).strict();
const patchBody = z
  .object({ display_name: deviceDisplayNameSchema.optional(), pdd_account: devicePddAccountSchema.optional() })
  .strict()
  .refine((b) => b.display_name !== undefined || b.pdd_account !== undefined, 'send display_name or pdd_account');
/** A worker reads at its next status check (every 5 s by default) and the read takes a few more. */
const RESUME_WAIT_MS = 15_000;

/**
 * 设备 (operators): the active devices with whether their worker is polling, and issuing,
 * renaming and revoking device credentials — the same functions `npm run cli -- device …` uses.
 */
export function deviceRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/api/devices' });
  const presence = devicePresence(deps.temporal, deps.log);

  router.get('/', async (ctx) => {
    operatorOf(ctx);
    // Typed with the view the UI reads, so the registry's shape cannot drift from it.
    const devices: DeviceView[] = await listDevices(deps.db, presence);
    // phone hosts' fields (docs/phone-hosts.md): state, host, health and the reason it takes no claim
    const hosts = await hostFieldsByDevice(deps.db);
    const temporalMissing = await temporalMissingCheck(deps.db);
    const holders = await holdersByDevice(deps.db);
    ctx.body = devices.map((d) => {
      const h = hosts.get(d.device_id);
      return {
        ...d,
        serial: d.serial ?? h?.serial ?? null,
        model: d.model ?? h?.model ?? null,
        app_version: h?.app_version ?? d.app_version,
        state: h?.state ?? 'active',
        host_id: h?.host_id ?? null,
        health: h?.health ?? null,
        claim_block: h?.claim_block ?? null,
        temporal_missing: temporalMissing(d),
        held_by: holders.get(d.device_id)?.held_by ?? null,
      } satisfies DeviceView;
    });
  });

  router.post('/', async (ctx) => {
    const body = parseBody(ctx, nameBody);
    const issued = await issueDeviceCredential(deps.db, actorOf(ctx), body.display_name);
    markAudited(ctx); // written with the credential
    const answer: IssuedDeviceView = {
      device_id: issued.deviceId,
      display_name: body.display_name,
      token: issued.token,
      // the phone host's facts (设置's 管理服务对外地址, how the admin reaches Temporal): one builder for both dialogs
      setup: await hostSetupFacts(deps.db, deps.temporal.settings),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = answer;
  });

  router.patch('/:deviceId', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    ctx.body = await changeDevice(deps.db, actorOf(ctx), deviceId, parseBody(ctx, patchBody));
    markAudited(ctx);
  });

  router.post('/:deviceId/revoke', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    const outcome = await revokeDeviceCredential(deps.db, actorOf(ctx), deviceId);
    markAudited(ctx);
    ctx.body = { device_id: deviceId, status: 'REVOKED', already_revoked: outcome === 'already-revoked' };
  });

  // 暂停 / 恢复: the reversible stop (docs/api.md §12.1); 吊销 above is for good
  router.post('/:deviceId/pause', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    const attention = await pauseDevice(deps.db, actorOf(ctx), deviceId);
    markAudited(ctx);
    ctx.body = { device_id: deviceId, attention };
  });

  // 处理完毕，继续: the stop clears once a fresh read of the phone shows nothing only a person can
  // clear; the answer waits for that read a while (the worker reads at its next status check)
  router.post('/:deviceId/resume', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    const { checking } = await resumeDevice(deps.db, actorOf(ctx), deviceId);
    markAudited(ctx);
    const answer = checking ? await resumeAnswer(deps, deviceId, checking) : { status: 200, body: null };
    ctx.status = answer.status;
    ctx.body = answer.body ?? { device_id: deviceId, attention: null, cleared: null };
  });

  // phones of phone hosts: 批准 / 拒绝 a phone waiting as 待批准 (docs/phone-hosts.md)
  router.post('/:deviceId/approve', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    await approveHostPhone(deps.db, actorOf(ctx), deviceId);
    markAudited(ctx);
    ctx.body = { device_id: deviceId, state: 'active' };
  });

  router.post('/:deviceId/reject', async (ctx) => {
    const { deviceId } = parseParams(ctx, deviceParams);
    await rejectHostPhone(deps.db, actorOf(ctx), deviceId);
    markAudited(ctx);
    ctx.body = { device_id: deviceId, state: 'revoked' };
  });

  return router;
}

/** The answer to 处理完毕，继续 once the phone's worker read the screen, or after the wait. */
async function resumeAnswer(
  deps: AppDeps,
  deviceId: string,
  checking: DeviceAttention,
): Promise<{ status: 200 | 202; body: object }> {
  const verdict = await awaitResumeVerdict(deps.db, deviceId, RESUME_WAIT_MS);
  if (verdict.kind === 'blocked')
    throw conflict('PHONE_STILL_BLOCKED', `the phone still shows ${verdict.page}; clear it on the screen first`, {
      attention: verdict.attention,
      page: verdict.page,
    });
  if (verdict.kind === 'cleared')
    return { status: 200, body: { device_id: deviceId, attention: null, cleared: checking } };
  // no read yet (the phone is offline, or its worker is busy): it stays stopped until one
  return {
    status: 202,
    body: { device_id: deviceId, attention: { ...checking, check_requested: true }, cleared: null },
  };
}
