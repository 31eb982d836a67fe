import { defineSignal } from '@temporalio/workflow';
import type { PurchaseTarget } from './device-activities';

/**
 * The payment check's messages and payloads (workflows/payment-check.ts): one workflow per phone,
 * started or told again by the admin after 标记已付款 (admin/purchase/payment-checks.ts).
 */

/** Another task of the phone was marked paid: look again before closing. */
export const paymentCheckRequested = defineSignal('paymentCheckRequested');

export function paymentCheckWorkflowId(deviceId: string): string {
  return `payment-check/${deviceId}`;
}

export interface PaymentCheckInput {
  deviceId: string;
}

/** The phone's checks waiting for a look, and a purchase of the phone to read its list for. */
export interface PaymentChecksDue {
  /** each as requested: a task asked again after this look is looked at again, not settled by it */
  checks: PaymentCheckRequest[];
  /** what readPendingOrders is given (the list it reads is the phone's whole 待付款 tab); null: none to read for */
  target: PurchaseTarget | null;
}

interface PaymentCheckRequest {
  taskId: string;
  requestedAt: string;
}

export interface PaymentCheckReading {
  deviceId: string;
  checks: PaymentCheckRequest[];
  /** the order numbers the phone listed as 待付款; null when the list could not be read */
  listed: string[] | null;
  /** why there is no list (zh-CN), when there is none */
  why?: string;
}
