import type { Logger } from '../../platform/logger';
import type { Security } from '../auth/security';
import type { AdminDb } from '../db/database';
import type { SybService } from '../syb/account';
import type { TemporalGateway } from '../temporal/gateway';
import type { HostChannels } from '../hosts/channel';
import type { PhoneScreens } from '../hosts/phone-screen';
import type { ScreenNodeReads } from '../devices/screen-nodes';

/** What every router is built from; its own module so routes and the app do not import each other. */
export interface AppDeps {
  db: AdminDb;
  /** the read-only connection for the reads operators wait on most (admin/db/database.ts `openAdminReads`) */
  reads: AdminDb;
  temporal: TemporalGateway;
  log: Logger;
  uiDist: string;
  security: Security;
  syb: SybService;
  /** the phones' live screens: the hosts' channels and what browsers watch (admin/http/sockets.ts) */
  live: {
    channels: HostChannels;
    screens: PhoneScreens;
    closeSession(idSha256: Buffer): void;
    /** what held phones' workers last read, for 教弹窗 (memory only) */
    screenNodes: ScreenNodeReads;
  };
}
