/**
 * IMAP's modified UTF-7 (RFC 3501 section 5.1.3) as Appium's Unicode IME (io.appium.settings
 * `.UnicodeIME`) reads the keys `input text` sends it: `&-` is `&`, `&` + base64 (`,` for `/`, no
 * padding) + `-` is a run of UTF-16BE code units, every other character is itself. A run that
 * does not decode (no closing `-`, a character outside the alphabet, half a code unit) is typed
 * as it came, so nothing a person sent is lost.
 */
export function decodeModifiedUtf7(s: string): string {
  let text = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c !== '&') {
      text += c;
      i += 1;
      continue;
    }
    const end = s.indexOf('-', i + 1);
    if (end < 0) return text + s.slice(i);
    const run = s.slice(i + 1, end);
    text += run === '' ? '&' : (decodeRun(run) ?? s.slice(i, end + 1));
    i = end + 1;
  }
  return text;
}

function decodeRun(run: string): string | null {
  if (!/^[A-Za-z0-9+,]+$/.test(run) || run.length % 4 === 1) return null;
  const bytes = Buffer.from(run.replace(/,/g, '/'), 'base64');
  if (bytes.length % 2 !== 0) return null;
  let units = '';
  for (let k = 0; k < bytes.length; k += 2) units += String.fromCharCode(bytes.readUInt16BE(k));
  return units;
}
