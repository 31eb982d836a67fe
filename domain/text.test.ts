import { cleanText, unsafeTextChar } from './text';

describe('the outside-text rule', () => {
  const hostile = [
    'a\u0000b',
    'bell\u0007',
    'esc\u001b[31m',
    'del\u007f',
    'c1\u0085',
    'flip\u202eusd',
    'iso\u2066x',
    'rlm\u200f',
  ];

  it('refuses controls, direction controls and lone surrogates, naming the first', () => {
    for (const text of hostile) expect(unsafeTextChar(text)).toMatch(/^U\+[0-9A-F]{4}$/);
    expect(unsafeTextChar('flip\u202eusd')).toBe('U+202E');
    expect(unsafeTextChar('half\ud83d')).toBe('a lone surrogate');
    expect(unsafeTextChar('\ude00tail')).toBe('a lone surrogate');
  });

  it('lets ordinary text through: tab always, newlines only in a multi-line field, pairs whole', () => {
    expect(unsafeTextChar('黑色,M 碼\t😀 ok')).toBeNull();
    expect(unsafeTextChar('two\nlines')).toBe('U+000A');
    expect(unsafeTextChar('two\r\nlines', { multiLine: true })).toBeNull();
    expect(unsafeTextChar('vt\u000b', { multiLine: true })).toBe('U+000B');
  });

  it('removes exactly what it refuses', () => {
    expect(hostile.map((t) => cleanText(t))).toEqual(['ab', 'bell', 'esc[31m', 'del', 'c1', 'flipusd', 'isox', 'rlm']);
    expect(cleanText('a\ud83db\ude00c😀')).toBe('abc😀');
    expect(cleanText('keep\nthis', { multiLine: true })).toBe('keep\nthis');
    expect(cleanText('黑色\t😀')).toBe('黑色\t😀');
    for (const t of hostile) expect(unsafeTextChar(cleanText(t))).toBeNull();
  });
});
