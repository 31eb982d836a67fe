import { optionKey, sameOptions } from './option-key';

describe('optionKey', () => {
  it('does not depend on key order', () => {
    expect(optionKey({ color: '黑色', size: 'M' })).toBe(optionKey({ size: 'M', color: '黑色' }));
  });

  it('never confuses values that contain separators or quotes', () => {
    const a = optionKey({ color: 'a,size=b', size: 'c' });
    const b = optionKey({ color: 'a', size: 'b,size=c' });
    expect(a).not.toBe(b);
    expect(optionKey({ color: '"红"' })).not.toBe(optionKey({ color: '红' }));
    expect(optionKey({ a: 'x|y', b: 'z' })).not.toBe(optionKey({ a: 'x', b: 'y|z' }));
  });

  it('tells 红 from 粉红 and 1 from 10', () => {
    expect(sameOptions({ color: '红' }, { color: '粉红' })).toBe(false);
    expect(sameOptions({ n: '1' }, { n: '10' })).toBe(false);
    expect(sameOptions({ color: '红', size: '1' }, { size: '1', color: '红' })).toBe(true);
  });
});
