import { DeviceError } from '../../errors';
import { profileForVersion, type PddProfile } from '../profile';

/**
 * What a purchase needs of one PDD version beyond the collect: the quantity stepper, the submit
 * control of the merged final panel, the cashier sheet and the orders list — the `purchase` part
 * of the version's profile file (../profiles/<version>.json).
 */
export type PurchaseProfile = PddProfile['purchase'] & { appVersion: string };

/** The purchase half of a profile: a version without one is refused before the first tap. */
export function purchaseProfileFor(p: PddProfile): PurchaseProfile {
  if (!p.purchase)
    throw new DeviceError(
      'APP_VERSION_UNSUPPORTED',
      `PDD ${p.appVersion} has no purchase profile; nothing was tapped`,
      {
        app_version: p.appVersion,
      },
    );
  return { appVersion: p.appVersion, ...p.purchase };
}

export const PURCHASE_8_17_0: PurchaseProfile = purchaseProfileFor(profileForVersion('8.17.0'));

/**
 * Texts of controls that move money. Matched by containment on purpose: for a deny-list the
 * loose match is the safe direction (a false hit stops a purchase, a miss could pay).
 */
export const PAYMENT_DENY_TEXTS: readonly string[] = ['立即支付', '免密支付', '先用后付', '确认付款', '支付', '付款'];

/** Any of these anywhere on screen and the screen gets no tap at all: a payment sheet is up. */
export const PAYMENT_SCREEN_TEXTS: readonly string[] = ['立即支付', '免密支付', '先用后付', '确认付款'];
