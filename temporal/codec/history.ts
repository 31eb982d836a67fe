import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { ENCRYPTED_ENCODING } from './encryption-codec';
import { payloadCodec } from './index';

/**
 * A history with every encrypted payload decrypted in place (any depth: inputs, results,
 * headers, memos, failures' details). For what must outlive the run's key — the recorded
 * histories of test/histories stay plain, so they replay under any key (docs/versioning.md).
 */
export async function decryptHistoryPayloads<T extends object>(history: T): Promise<T> {
  const codec = payloadCodec();
  const visit = async (node: unknown): Promise<void> => {
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (isEncrypted(node[i])) node[i] = (await codec.decode([node[i] as Payload]))[0];
        else await visit(node[i]);
      }
      return;
    }
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (isEncrypted(value)) record[key] = (await codec.decode([value as Payload]))[0];
      else await visit(value);
    }
  };
  await visit(history);
  return history;
}

function isEncrypted(value: unknown): boolean {
  const encoding = (value as { metadata?: Record<string, Uint8Array | null> } | null)?.metadata?.[
    METADATA_ENCODING_KEY
  ];
  return encoding instanceof Uint8Array && Buffer.from(encoding).toString('utf8') === ENCRYPTED_ENCODING;
}
