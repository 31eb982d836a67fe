import type { Phone } from '../phone';

/** What a shell command hands back; adb's shell service merges the two streams. */
export interface CmdOutput {
  stdout: Buffer;
  stderr: Buffer;
  code: number;
}

export type Command = (phone: Phone, args: string[], stdin: Buffer) => Promise<CmdOutput>;

export const out = (s: string | Buffer, code = 0): CmdOutput => ({
  stdout: Buffer.isBuffer(s) ? s : Buffer.from(s),
  stderr: Buffer.alloc(0),
  code,
});

export const err = (s: string, code = 1): CmdOutput => ({ stdout: Buffer.alloc(0), stderr: Buffer.from(s), code });
