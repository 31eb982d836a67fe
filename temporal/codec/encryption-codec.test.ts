import type { Payload } from '@temporalio/common';
import { EncryptionCodec } from './encryption-codec';
import { newPayloadKeyEntry, parsePayloadKeys } from './keys';

const json = (v: unknown): Payload => ({
  metadata: { encoding: new Uint8Array(Buffer.from('json/plain')) },
  data: new Uint8Array(Buffer.from(JSON.stringify(v))),
});
const text = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('utf8');

describe('payload encryption codec (AES-256-GCM, key id in the metadata)', () => {
  const oldKey = newPayloadKeyEntry(new Date('2026-01-01'));
  const newKey = newPayloadKeyEntry(new Date('2026-06-01'));

  it('encrypts the whole payload under the first key and decrypts it back', async () => {
    const codec = new EncryptionCodec(parsePayloadKeys(`${newKey},${oldKey}`));
    const [sealed] = await codec.encode([json({ order_no: '260807-123', total_cent: 3276 })]);
    expect(text(sealed!.metadata!.encoding)).toBe('binary/encrypted');
    expect(text(sealed!.metadata!['encryption-key-id'])).toBe(newKey.split(':')[0]);
    expect(text(sealed!.data)).not.toContain('260807-123');
    expect(text(sealed!.data)).not.toContain('json/plain');
    const [back] = await codec.decode([sealed!]);
    expect(text(back!.metadata!.encoding)).toBe('json/plain');
    expect(JSON.parse(text(back!.data))).toEqual({ order_no: '260807-123', total_cent: 3276 });
  });

  it('rotation: what the old key encrypted still decrypts once a new key leads the ring', async () => {
    const before = new EncryptionCodec(parsePayloadKeys(oldKey));
    const after = new EncryptionCodec(parsePayloadKeys(`${newKey},${oldKey}`));
    const [sealed] = await before.encode([json('before the rotation')]);
    expect(JSON.parse(text((await after.decode([sealed!]))[0]!.data))).toBe('before the rotation');
    // and once the old key is dropped, it no longer does — the runbook's reason to keep it
    await expect(new EncryptionCodec(parsePayloadKeys(newKey)).decode([sealed!])).rejects.toThrow(
      /not in the key ring/,
    );
  });

  it('refuses an altered ciphertext and a payload relabelled with another key id', async () => {
    const codec = new EncryptionCodec(parsePayloadKeys(`${newKey},${oldKey}`));
    const [sealed] = await codec.encode([json('x')]);
    const flipped = Buffer.from(sealed!.data!);
    flipped[20] = flipped[20]! ^ 1;
    await expect(codec.decode([{ ...sealed!, data: flipped }])).rejects.toThrow(/does not authenticate/);
    const relabelled = {
      ...sealed!,
      metadata: { ...sealed!.metadata, 'encryption-key-id': new Uint8Array(Buffer.from(oldKey.split(':')[0]!)) },
    };
    await expect(codec.decode([relabelled])).rejects.toThrow(/does not authenticate/);
  });

  it('passes a payload that was never encrypted (older histories) through decode untouched', async () => {
    const codec = new EncryptionCodec(parsePayloadKeys(newKey));
    const p = json({ a: 1 });
    expect(await codec.decode([p])).toEqual([p]);
  });

  it('refuses a malformed key ring naming the entry, never echoing a key', () => {
    expect(() => parsePayloadKeys('')).toThrow(/no key/);
    expect(() => parsePayloadKeys('k1:c2hvcnQ=')).toThrow(/k1 is not 32 bytes/);
    expect(() => parsePayloadKeys(`${newKey},${newKey}`)).toThrow(/appears twice/);
    expect(() => parsePayloadKeys(':abc')).toThrow(/entry 1 has no valid key id/);
  });
});
