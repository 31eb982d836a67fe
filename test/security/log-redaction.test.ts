import { Writable } from 'node:stream';
import { createLogger } from '../../platform/logger';

/**
 * Secrets are cut from every log line by pattern as well as by field (docs/security.md "Secrets"):
 * the device worker's Temporal SDK lines carry task tokens at depths no field list names.
 */
describe('log redaction by pattern', () => {
  it('cuts task tokens, Bearer credentials and 64-hex tokens wherever they sit, and keeps the rest', async () => {
    const chunks: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk.toString('utf8'));
        cb();
      },
    });
    const log = createLogger({ name: 'redact', level: 'trace', stdout });
    const hex = 'ab'.repeat(32);
    const taskToken = 'CiQ5ZjQ3YzJkZS1hYmNkLTQ1NjctODkwMS1zZWNyZXQtdGFzay10b2tlbg==';
    log.warn(
      {
        activity: { taskToken, activityId: '1', attempt: 2 },
        deep: { a: { b: { c: { base64TaskToken: taskToken, task_token: [1, 2, 3] } } } },
        header: `Bearer 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9.${hex}`,
      },
      `activity failed for token ${hex} with authorization Bearer secret.value-123 (kept: goods 937122477375)`,
    );
    log.error({ err: new Error(`upstream said Authorization: bearer ${hex}`) }, 'call failed');
    await new Promise((r) => setImmediate(r));
    const text = chunks.join('');
    expect(text).not.toContain(taskToken);
    expect(text).not.toContain(hex);
    expect(text).not.toContain('secret.value-123');
    expect(text).not.toContain('[1,2,3]');
    expect(text).not.toContain('0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9');
    expect(text).toContain('[redacted]');
    // what is not a secret stays readable
    expect(text).toContain('937122477375');
    expect(text).toContain('"activityId":"1"');
    expect(text).toContain('activity failed for token');
    for (const line of text.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
