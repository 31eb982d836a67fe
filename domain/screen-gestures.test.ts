import { phoneInputSchema } from './phone-input';
import { framesInLastSecond, gestureOf, screenPathZh, toPhonePoint } from './screen-gestures';

/** The live screen's pointer, mapped to the phone's pixels. */
const phone = { width: 1080, height: 2376 };
// the canvas as a 1366×900 page shows it: the phone's aspect, scaled down
const shown = { width: 300, height: 660 };
const mark = (x: number, y: number, at: number) => ({ x, y, at });

describe('the live screen’s input', () => {
  it('scales a canvas point to the phone pixel under it, and keeps it on the screen', () => {
    expect(toPhonePoint(0, 0, shown, phone)).toEqual({ x: 0, y: 0 });
    expect(toPhonePoint(150, 330, shown, phone)).toEqual({ x: 540, y: 1188 });
    // the sim's slider thumb centre, (200, 1120) on the phone
    expect(toPhonePoint((200 / 1080) * 300, (1120 / 2376) * 660, shown, phone)).toEqual({ x: 200, y: 1120 });
    // the far edge is the last column, and a pointer dragged off the canvas lands on its edge
    expect(toPhonePoint(300, 660, shown, phone)).toEqual({ x: 1079, y: 2375 });
    expect(toPhonePoint(-20, 900, shown, phone)).toEqual({ x: 0, y: 2375 });
    expect(toPhonePoint(10, 10, { width: 0, height: 0 }, phone)).toEqual({ x: 0, y: 0 });
  });

  it('a short press that stays put is a tap; a long one a long press with the time held', () => {
    expect(gestureOf(mark(150, 330, 1_000), mark(153, 334, 1_120), shown, phone)).toEqual({
      kind: 'tap',
      x: 540,
      y: 1188,
    });
    expect(gestureOf(mark(150, 330, 1_000), mark(150, 330, 2_200), shown, phone)).toEqual({
      kind: 'long_press',
      x: 540,
      y: 1188,
      ms: 1_200,
    });
    // held past what the phone plays: the longest it takes
    expect(gestureOf(mark(150, 330, 0), mark(150, 330, 9_000), shown, phone)).toMatchObject({ ms: 5_000 });
  });

  it('a drag is a swipe from where it was pressed to where it was let go, as slow as the hand', () => {
    expect(gestureOf(mark(30, 300, 0), mark(200, 300, 1_530), shown, phone)).toEqual({
      kind: 'swipe',
      x1: 108,
      y1: 1080,
      x2: 720,
      y2: 1080,
      ms: 1_530,
    });
    // a flick still takes the shortest swipe the phone plays; a very slow drag the longest
    expect(gestureOf(mark(30, 300, 0), mark(200, 300, 10), shown, phone)).toMatchObject({ ms: 50 });
    expect(gestureOf(mark(30, 300, 0), mark(200, 300, 60_000), shown, phone)).toMatchObject({ ms: 10_000 });
  });

  it('every gesture is an input the admin accepts', () => {
    const gestures = [
      gestureOf(mark(0, 0, 0), mark(0, 0, 10), shown, phone),
      gestureOf(mark(299, 659, 0), mark(299, 659, 700), shown, phone),
      gestureOf(mark(0, 0, 0), mark(400, 800, 1), shown, phone),
    ];
    for (const g of gestures) expect(phoneInputSchema.parse(g)).toEqual(g);
  });

  it('names the picture’s path in Chinese and counts the frames of the last second', () => {
    expect([screenPathZh('minicap'), screenPathZh('screencap'), screenPathZh('scrcpy')]).toEqual([
      '高速画面',
      '逐帧截图',
      '视频流',
    ]);
    expect(screenPathZh('other')).toBe('画面');
    const drawn = [100, 900, 1_200, 1_800, 1_950];
    expect(framesInLastSecond(drawn, 2_000)).toBe(3);
    expect(drawn).toEqual([1_200, 1_800, 1_950]);
    expect(framesInLastSecond(drawn, 5_000)).toBe(0);
  });
});
