import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, ValueError, type Payload, type PayloadCodec } from '@temporalio/common';
import type { PayloadKeyRing } from './keys';

/**
 * AES-256-GCM over the whole payload (its metadata too: `json/plain` or a message type says
 * what is inside), after temporalio/samples-typescript `encryption/`. The key id travels in the
 * metadata, so any key of the ring decrypts what it once encrypted (rotation). A payload
 * without our encoding passes decode untouched: histories recorded, and workflows started,
 * before encryption keep replaying.
 */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const METADATA_KEY_ID = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly ring: PayloadKeyRing) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.ring.encryptKeyId;
    const key = this.ring.keys.get(keyId) as Buffer;
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      // the key id is bound to the ciphertext: a payload relabelled with another id fails to decrypt
      cipher.setAAD(Buffer.from(keyId, 'utf8'));
      const sealed = Buffer.concat([cipher.update(serialize(payload)), cipher.final()]);
      return {
        metadata: { [METADATA_ENCODING_KEY]: utf8(ENCRYPTED_ENCODING), [METADATA_KEY_ID]: utf8(keyId) },
        data: new Uint8Array(Buffer.concat([iv, sealed, cipher.getAuthTag()])),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (text(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCRYPTED_ENCODING) return payload;
      const keyId = text(payload.metadata?.[METADATA_KEY_ID]);
      if (!keyId) throw new ValueError('encrypted payload without a key id');
      const key = this.ring.keys.get(keyId);
      if (!key) throw new ValueError(`encrypted payload under key ${keyId}, which is not in the key ring`);
      const data = Buffer.from(payload.data ?? new Uint8Array());
      if (data.length < IV_BYTES + TAG_BYTES) throw new ValueError('encrypted payload is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new ValueError(`encrypted payload under key ${keyId} does not authenticate (wrong key or altered)`);
      }
      return deserialize(plain);
    });
  }
}

/**
 * The inner payload as JSON (metadata values and data in base64): our own format, so the codec
 * needs no protobuf runtime of its own; only this codec ever reads it.
 */
function serialize(p: Payload): Buffer {
  const metadata = Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
  );
  return Buffer.from(JSON.stringify({ metadata, data: Buffer.from(p.data ?? new Uint8Array()).toString('base64') }));
}

function deserialize(bytes: Buffer): Payload {
  const inner = JSON.parse(bytes.toString('utf8')) as { metadata: Record<string, string>; data: string };
  return {
    metadata: Object.fromEntries(
      Object.entries(inner.metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
    ),
    data: new Uint8Array(Buffer.from(inner.data, 'base64')),
  };
}
