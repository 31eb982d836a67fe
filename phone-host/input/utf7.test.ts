import { encodeModifiedUtf7 } from './utf7';

/** RFC 3501 section 5.1.3 decoding, written apart from the encoder so the round trip checks both. */
function decodeModifiedUtf7(s: string): string {
  return s.replace(/&([^-]*)-/g, (_m, b64: string) => {
    if (b64 === '') return '&';
    const bytes = Buffer.from(b64.replace(/,/g, '/'), 'base64');
    let text = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes.readUInt16BE(i));
    return text;
  });
}

describe('encodeModifiedUtf7', () => {
  it.each([
    ['中文', '&Ti1lhw-'],
    ['a&b', 'a&-b'],
    ['Hello', 'Hello'],
    ['&', '&-'],
    ['', ''],
    [' ~', ' ~'],
    ['中a文', '&Ti0-a&ZYc-'],
    // RFC 3501's own example: "~peter/mail/台北/日本語"
    ['~peter/mail/台北/日本語', '~peter/mail/&U,BTFw-/&ZeVnLIqe-'],
  ])('%j → %j', (text, encoded) => {
    expect(encodeModifiedUtf7(text)).toBe(encoded);
  });

  it('puts nothing but printable ASCII on the wire', () => {
    expect(encodeModifiedUtf7('😀 €x中文&\u00a0')).toMatch(/^[\x20-\x7e]*$/);
  });

  it.each(['😀', 'a😀b', '👍🏽 好的 & 谢谢', '𠀀𠀁', 'é/ü,ß', 'x'.repeat(3) + '中'.repeat(7)])(
    '%j comes back unchanged through a decoder',
    (text) => {
      expect(decodeModifiedUtf7(encodeModifiedUtf7(text))).toBe(text);
    },
  );
});
