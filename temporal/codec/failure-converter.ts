import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Failure messages and stack traces go into the history as an encoded payload, which the payload
 * codec then encrypts like any other (docs/security.md "Temporal payloads"): an activity's error
 * text can name an order number or a price. Loaded by path — the SDK requires the converter of
 * clients and workers, and the workflow bundle includes it (workers/workflow-bundle.ts).
 * Failures written in clear before this still read: the converter decodes either form.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
