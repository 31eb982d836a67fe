import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mayRaisePriority } from './children';

describe('mayRaisePriority (whether the admin can start at nice -10)', () => {
  const statusWith = (capEff: string) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cmautobuy-caps-')), 'status');
    fs.writeFileSync(file, `Name:\tnode\nCapInh:\t0000000000000000\nCapEff:\t${capEff}\nCapBnd:\t000001ffffffffff\n`);
    return file;
  };

  it('reads CAP_SYS_NICE (bit 23) from the effective set alone', () => {
    expect(mayRaisePriority(statusWith('000001ffffffffff'))).toBe(true); // root
    expect(mayRaisePriority(statusWith('0000000000800000'))).toBe(true); // CAP_SYS_NICE only
    expect(mayRaisePriority(statusWith('00000000a80425fb'))).toBe(false); // Docker's default set
    expect(mayRaisePriority(statusWith('0000000000000000'))).toBe(false); // an ordinary user
  });

  it('says no where it cannot tell', () => {
    expect(mayRaisePriority('/nonexistent/status')).toBe(false);
    expect(mayRaisePriority(statusWith('not hex'))).toBe(false);
  });
});
