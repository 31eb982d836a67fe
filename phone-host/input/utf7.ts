/**
 * IMAP's modified UTF-7 (RFC 3501 section 5.1.3), the text Appium's Unicode IME (io.appium.settings
 * `.UnicodeIME`) turns back into Unicode: `input text` only carries ASCII, so a Chinese word is
 * sent as its UTF-16 code units in base64. Printable ASCII stays itself, `&` is written `&-`, and
 * every other run becomes `&` + base64 of UTF-16BE (no padding, `,` for `/`) + `-`.
 */
export function encodeModifiedUtf7(s: string): string {
  let out = '';
  let run = '';
  const flush = (): void => {
    if (!run) return;
    const units = Buffer.alloc(run.length * 2);
    for (let i = 0; i < run.length; i++) units.writeUInt16BE(run.charCodeAt(i), i * 2);
    out += `&${units.toString('base64').replace(/=+$/, '').replace(/\//g, ',')}-`;
    run = '';
  };
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e) {
      flush();
      out += code === 0x26 ? '&-' : s[i];
    } else {
      // by UTF-16 unit, so a surrogate pair stays together in its run
      run += s[i];
    }
  }
  flush();
  return out;
}
