import { z } from 'zod';

export const systemCheckResultSchema = z.object({
  workflow_id: z.string(),
  db: z.literal('ok'),
  tables: z.number().int().nonnegative(),
  checked_at: z.string(),
});
export type SystemCheckResult = z.infer<typeof systemCheckResultSchema>;
