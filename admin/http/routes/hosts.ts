import Router from '@koa/router';
import { z } from 'zod';
import { deviceDisplayNameSchema } from '../../../domain/devices';
import { markAudited } from '../../audit/audit';
import { DEVICE_ID_RE } from '../../auth/device-credentials';
import { issueHostCredential, listHostCredentials, revokeHostCredential } from '../../auth/host-credentials';
import { actorOf, hostOf, operatorOf, requireMetricsReader } from '../../auth/principal';
import {
  heartbeatSchema,
  hostHeartbeat,
  hostPhoneReportSchema,
  issueHostPhoneToken,
  listHostPhones,
  phoneHealthReportSchema,
  reportHostPhone,
  reportPhoneHealth,
} from '../../hosts/phones';
import { metricsTargets } from '../../hosts/metrics-target';
import { hostSetupFacts } from '../../hosts/setup';
import type { AppDeps } from '../deps';
import { parseBody, parseParams } from '../validate';

const hostParams = z.object({ hostId: z.string().regex(DEVICE_ID_RE, 'not a host id') });
const deviceParams = z.object({ deviceId: z.string().regex(DEVICE_ID_RE, 'not a device id') });

/**
 * Phone hosts (docs/phone-hosts.md). Operators: `/api/hosts` (发放主机凭据, list, revoke) and
 * `GET /api/metrics/targets`. A host, with its own Bearer token: `/api/host/…` — report its
 * phones, fetch an approved phone's token, report health and its metrics address. A host can
 * neither approve a phone nor reach an operator route (the gate, admin/auth/gate.ts).
 */
export function hostRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/api/hosts', async (ctx) => {
    operatorOf(ctx);
    ctx.body = await listHostCredentials(deps.db);
  });

  router.post('/api/hosts', async (ctx) => {
    const body = parseBody(ctx, z.object({ display_name: deviceDisplayNameSchema }).strict());
    const issued = await issueHostCredential(deps.db, actorOf(ctx), body.display_name);
    markAudited(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    // what the dialog builds the command from (domain/host-setup.ts); never the payload keys
    const setup = await hostSetupFacts(deps.db, deps.temporal.settings);
    ctx.body = { host_id: issued.hostId, display_name: body.display_name, token: issued.token, setup };
  });

  router.post('/api/hosts/:hostId/revoke', async (ctx) => {
    const { hostId } = parseParams(ctx, hostParams);
    const outcome = await revokeHostCredential(deps.db, actorOf(ctx), hostId);
    markAudited(ctx);
    ctx.body = { host_id: hostId, status: 'REVOKED', already_revoked: outcome === 'already-revoked' };
  });

  router.get('/api/metrics/targets', async (ctx) => {
    requireMetricsReader(ctx);
    ctx.body = await metricsTargets(deps.db);
  });

  // the host channel
  router.post('/api/host/heartbeat', async (ctx) => {
    const { hostId } = hostOf(ctx);
    const body = parseBody(ctx, heartbeatSchema);
    // ctx.ip: the peer, or behind a trusted proxy the address it forwarded (admin/http/app.ts)
    await hostHeartbeat(deps.db, hostId, body, ctx.ip);
    ctx.body = { phones: await listHostPhones(deps.db, hostId) };
  });

  router.post('/api/host/phones', async (ctx) => {
    const { hostId } = hostOf(ctx);
    ctx.body = await reportHostPhone(deps.db, hostId, parseBody(ctx, hostPhoneReportSchema));
  });

  router.post('/api/host/phones/:deviceId/token', async (ctx) => {
    const { hostId } = hostOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { device_id: deviceId, token: await issueHostPhoneToken(deps.db, hostId, deviceId) };
  });

  router.put('/api/host/phones/:deviceId/health', async (ctx) => {
    const { hostId } = hostOf(ctx);
    const { deviceId } = parseParams(ctx, deviceParams);
    ctx.body = await reportPhoneHealth(deps.db, hostId, deviceId, parseBody(ctx, phoneHealthReportSchema));
  });

  return router;
}
