import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec } from './encryption-codec';
import type { PayloadKeyRing } from './keys';

/**
 * The one data converter of every Temporal client and worker of this process (admin, device
 * workers, tests, bench): installed once at start, like the SDK runtime (temporal/runtime.ts).
 * A process that forgot to install keys fails at its first client instead of writing payloads
 * in clear.
 */
let installed: { ring: PayloadKeyRing; codec: EncryptionCodec } | undefined;

export function installPayloadKeys(ring: PayloadKeyRing): void {
  installed = { ring, codec: new EncryptionCodec(ring) };
}

/** The ring installed at start: the admin hands it to its phone hosts (admin/hosts/channel.ts). */
export function installedPayloadKeys(): PayloadKeyRing {
  if (!installed) throw new Error('no Temporal payload keys installed (installPayloadKeys at process start)');
  return installed.ring;
}

export function payloadCodec(): EncryptionCodec {
  if (!installed) throw new Error('no Temporal payload keys installed (installPayloadKeys at process start)');
  return installed.codec;
}

/** Resolved, not spelled out: `.ts` under tsx, `.js` in a compiled build. */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

export function temporalDataConverter(): DataConverter {
  return { payloadCodecs: [payloadCodec()], failureConverterPath: FAILURE_CONVERTER_PATH };
}
