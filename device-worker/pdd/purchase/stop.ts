import type { ReasonCode } from '../../../domain/purchase/reasons';

/**
 * A purchase stop before the fence: the page is not what the task authorised, so a person must
 * look. Not a phone failure — it becomes `ok: false` with this reason, never a retry.
 */
export class PurchaseStop extends Error {
  override readonly name = 'PurchaseStop';
  constructor(
    readonly reason: ReasonCode,
    message: string,
  ) {
    super(message);
  }
}

export function isPurchaseStop(err: unknown): err is PurchaseStop {
  return err instanceof PurchaseStop;
}
