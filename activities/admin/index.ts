import type { AdminDb } from '../../admin/db/database';
import type { SybService } from '../../admin/syb/account';
import { catalogActivities } from './catalog';
import { paymentCheckActivities } from './payment-check';
import { purchaseActivities } from './purchase';
import { sybActivities } from './syb';
import { systemCheckActivities } from './system-check';

/** Every activity the admin worker runs; each one touches only the admin DB (and SYB's API, read-only). */
export function createAdminActivities(db: AdminDb, syb: SybService) {
  return {
    ...systemCheckActivities(db),
    ...catalogActivities(db),
    ...purchaseActivities(db),
    ...paymentCheckActivities(db),
    ...sybActivities(syb),
  };
}

export type AdminActivities = ReturnType<typeof createAdminActivities>;
