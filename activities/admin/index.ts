import type { AdminDb } from '../../admin/db/database';
import { catalogActivities } from './catalog';
import { purchaseActivities } from './purchase';
import { systemCheckActivities } from './system-check';

/** Every activity the admin worker runs; each one touches only the admin DB. */
export function createAdminActivities(db: AdminDb) {
  return {
    ...systemCheckActivities(db),
    ...catalogActivities(db),
    ...purchaseActivities(db),
  };
}

export type AdminActivities = ReturnType<typeof createAdminActivities>;
