import type { Selectable } from 'kysely';
import type { AdminDb } from '../db/database';
import type { AdminDatabase } from '../db/schema';
import { notFound } from '../../domain/api-error';

/** A purchase task's row, or 404 `TASK_NOT_FOUND` (a collect task is not one). */
export async function purchaseTaskRow(db: AdminDb, taskId: string): Promise<Selectable<AdminDatabase['tasks']>> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('task_type', '=', 'purchase')
    .executeTakeFirst();
  if (!task) throw notFound('TASK_NOT_FOUND', `no purchase task ${taskId}`);
  return task;
}
