import { METADATA_ENCODING_KEY, ValueError } from '@temporalio/common';
import { ENCRYPTED_ENCODING, METADATA_KEY_ID } from './encryption-codec';
import { payloadCodec } from './index';

/**
 * A secret the admin keeps in its database (the SYB password), sealed by this process's payload
 * codec: the same AES-256-GCM and key ring as every Temporal payload (docs/security.md "Temporal
 * payloads"), so it needs no key of its own, is as safe at rest as a workflow's input, and a key
 * rotation that keeps the old key in the ring still opens it.
 */
export interface SealedValue {
  /** the ring's key that sealed it */
  keyId: string;
  /** iv, ciphertext and tag, as the codec writes a payload's data */
  sealed: Buffer;
}

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

export async function sealJson(value: unknown): Promise<SealedValue> {
  const [payload] = await payloadCodec().encode([
    { metadata: { [METADATA_ENCODING_KEY]: utf8('json/plain') }, data: utf8(JSON.stringify(value)) },
  ]);
  const keyId = payload?.metadata?.[METADATA_KEY_ID];
  if (!payload?.data || !keyId) throw new Error('the payload codec returned no sealed data');
  return { keyId: Buffer.from(keyId).toString('utf8'), sealed: Buffer.from(payload.data) };
}

/** Throws ValueError when the key is not in the ring or the bytes do not authenticate. */
export async function openJson(value: SealedValue): Promise<unknown> {
  const [payload] = await payloadCodec().decode([
    {
      // always labelled encrypted: decode passes anything else through, and a row must never be read in clear
      metadata: { [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING), [METADATA_KEY_ID]: utf8(value.keyId) },
      data: new Uint8Array(value.sealed),
    },
  ]);
  if (!payload?.data) throw new ValueError('a sealed value without data');
  return JSON.parse(Buffer.from(payload.data).toString('utf8')) as unknown;
}
