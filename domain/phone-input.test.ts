import { describeInput, inputOutsideScreen, PHONE_KEYS, phoneInputSchema, type PhoneInput } from './phone-input';

const parse = (raw: unknown) => phoneInputSchema.safeParse(raw);
const SCREEN = { width: 1080, height: 2376 };

describe('phoneInputSchema', () => {
  it('takes each kind of input', () => {
    expect(parse({ kind: 'tap', x: 0, y: 10 }).data).toEqual({ kind: 'tap', x: 0, y: 10 });
    expect(parse({ kind: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4, ms: 4000 }).success).toBe(true);
    expect(parse({ kind: 'key', key: 'recents' }).success).toBe(true);
    expect(parse({ kind: 'text', text: '中文 a&b 😀' }).success).toBe(true);
  });

  it('gives a long press its default duration, and bounds it', () => {
    expect(parse({ kind: 'long_press', x: 5, y: 6 }).data).toEqual({ kind: 'long_press', x: 5, y: 6, ms: 800 });
    expect(parse({ kind: 'long_press', x: 5, y: 6, ms: 300 }).success).toBe(true);
    expect(parse({ kind: 'long_press', x: 5, y: 6, ms: 299 }).success).toBe(false);
    expect(parse({ kind: 'long_press', x: 5, y: 6, ms: 5001 }).success).toBe(false);
  });

  it.each([
    ['a fractional coordinate', { kind: 'tap', x: 1.5, y: 2 }],
    ['a negative coordinate', { kind: 'tap', x: -1, y: 2 }],
    ['a coordinate as text', { kind: 'tap', x: '1', y: 2 }],
    ['an unknown field', { kind: 'tap', x: 1, y: 2, z: 3 }],
    ['an unknown kind', { kind: 'pinch', x: 1, y: 2 }],
    ['a swipe without its duration', { kind: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4 }],
    ['a too quick swipe', { kind: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4, ms: 49 }],
    ['a too slow swipe', { kind: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4, ms: 10_001 }],
    ['an unknown key', { kind: 'key', key: 'power' }],
    ['a key code', { kind: 'key', key: 26 }],
    ['empty text', { kind: 'text', text: '' }],
    ['too long text', { kind: 'text', text: 'a'.repeat(501) }],
    ['a newline', { kind: 'text', text: 'a\nb' }],
    ['a tab', { kind: 'text', text: 'a\tb' }],
    ['a NUL', { kind: 'text', text: 'a\u0000' }],
    ['DEL', { kind: 'text', text: 'a\u007f' }],
    ['a C1 control', { kind: 'text', text: '\u009fa' }],
  ])('refuses %s', (_why, raw) => {
    expect(parse(raw).success).toBe(false);
  });

  it('takes text of exactly the longest length, and the character after the C1 block', () => {
    expect(parse({ kind: 'text', text: 'a'.repeat(500) }).success).toBe(true);
    expect(parse({ kind: 'text', text: '\u00a0' }).success).toBe(true);
  });

  it('names the Android key codes', () => {
    expect(PHONE_KEYS).toEqual({ back: 4, home: 3, recents: 187 });
  });
});

describe('inputOutsideScreen', () => {
  const tap = (x: number, y: number): PhoneInput => ({ kind: 'tap', x, y });
  const swipe = (x1: number, y1: number, x2: number, y2: number): PhoneInput => ({
    kind: 'swipe',
    x1,
    y1,
    x2,
    y2,
    ms: 300,
  });

  it('lets every point on the screen by, its edges included', () => {
    expect(inputOutsideScreen(tap(0, 0), SCREEN)).toBeNull();
    expect(inputOutsideScreen(tap(1079, 2375), SCREEN)).toBeNull();
    expect(inputOutsideScreen({ kind: 'long_press', x: 10, y: 10, ms: 800 }, SCREEN)).toBeNull();
    expect(inputOutsideScreen(swipe(0, 2375, 1079, 0), SCREEN)).toBeNull();
  });

  it('names the first coordinate off the screen', () => {
    expect(inputOutsideScreen(tap(1080, 5), SCREEN)).toBe('x');
    expect(inputOutsideScreen(tap(5, 2376), SCREEN)).toBe('y');
    expect(inputOutsideScreen({ kind: 'long_press', x: 1, y: 9999, ms: 800 }, SCREEN)).toBe('y');
    expect(inputOutsideScreen(swipe(0, 0, 0, 2376), SCREEN)).toBe('y2');
    expect(inputOutsideScreen(swipe(2000, 0, 0, 2376), SCREEN)).toBe('x1');
  });

  it('has nothing to say about keys and text', () => {
    expect(inputOutsideScreen({ kind: 'key', key: 'back' }, SCREEN)).toBeNull();
    expect(inputOutsideScreen({ kind: 'text', text: 'x' }, SCREEN)).toBeNull();
  });
});

describe('describeInput', () => {
  it('keeps where a touch went, and of text only its length', () => {
    expect(describeInput({ kind: 'tap', x: 1, y: 2 })).toEqual({ kind: 'tap', x: 1, y: 2 });
    expect(describeInput({ kind: 'text', text: 'secret 中文' })).toEqual({ kind: 'text', length: 9 });
  });
});
