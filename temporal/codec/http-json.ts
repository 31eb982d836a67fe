import type { Payload } from '@temporalio/common';
import { z } from 'zod';
import { payloadCodec } from './index';

/**
 * Temporal's codec-server protocol (what the Web UI and `temporal … --codec-endpoint` send):
 * `{"payloads": [...]}` in and out, each payload in protobuf JSON — metadata values and data in
 * base64.
 */
const base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'expected base64');

export const codecBodySchema = z.object({
  payloads: z
    .array(
      z.object({
        metadata: z.record(z.string(), base64).nullish(),
        data: base64.nullish(),
      }),
    )
    .max(10_000),
});

type JsonPayload = z.infer<typeof codecBodySchema>['payloads'][number];

function fromJson(p: JsonPayload): Payload {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
    ),
    data: new Uint8Array(Buffer.from(p.data ?? '', 'base64')),
  };
}

function toJson(p: Payload): { metadata: Record<string, string>; data: string } {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  };
}

/** Runs the process's codec over a request body; throws the codec's ValueError on a bad payload. */
export async function convertCodecPayloads(
  op: 'decode' | 'encode',
  payloads: JsonPayload[],
): Promise<{ payloads: Array<ReturnType<typeof toJson>> }> {
  const codec = payloadCodec();
  const input = payloads.map(fromJson);
  const output = op === 'decode' ? await codec.decode(input) : await codec.encode(input);
  return { payloads: output.map(toJson) };
}
