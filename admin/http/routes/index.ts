import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { attentionRoutes } from './attention';
import { deviceEvidenceRoutes } from './device-evidence';
import { deviceRegisterRoutes } from './device-register';
import { deviceRoutes } from './devices';
import { deviceScreenRoutes } from './device-screen';
import { evidenceRoutes } from './evidence';
import { healthRoutes } from './health';
import { mappingRoutes } from './mappings';
import { metricsRoutes } from './metrics';
import { pddRoutes } from './pdd';
import { sessionRoutes } from './session';
import { settingsRoutes } from './settings';
import { shopeeRoutes } from './shopee';
import { sybRoutes } from './syb';
import { systemRoutes } from './system';
import { taskRoutes } from './tasks';
import { appVersionRoutes } from './app-versions';
import { hostRoutes } from './hosts';
import { codecRoutes } from './codec';
import { taskActionRoutes } from './task-actions';
import { holdRecordingRoutes } from './hold-recordings';
import { moneyRoutes } from './money';
import { auditRoutes } from './audit';

/**
 * Every router of the admin, in one list, so the route-table test can enumerate them all.
 * Add a router here; never `app.use` one elsewhere.
 */
export function allRouters(deps: AppDeps): Router[] {
  return [
    healthRoutes(deps),
    systemRoutes(deps),
    taskRoutes(deps),
    sessionRoutes(deps),
    deviceRoutes(deps),
    deviceScreenRoutes(deps),
    evidenceRoutes(deps),
    deviceRegisterRoutes(deps),
    deviceEvidenceRoutes(deps),
    shopeeRoutes(deps),
    pddRoutes(deps),
    mappingRoutes(deps),
    sybRoutes(deps),
    settingsRoutes(deps),
    metricsRoutes(deps),
    appVersionRoutes(deps),
    hostRoutes(deps),
    codecRoutes(deps),
    taskActionRoutes(deps),
    attentionRoutes(deps),
    holdRecordingRoutes(deps),
    moneyRoutes(deps),
    auditRoutes(deps),
  ];
}
