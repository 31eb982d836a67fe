import {
  api,
  byId,
  center,
  fillPanel,
  one,
  openGoods,
  ordersOf,
  putPhone,
  rid,
  screenOf,
  settledDump,
  sh,
  tap,
  textOf,
  useTestSim,
  type DeviceClient,
  type XNode,
} from './testkit';

let control: string;
let dev: DeviceClient;
const SERIAL = 'sim-phone-1';
const GOODS = '937122477375';

useTestSim((rig) => ({ control, dev } = rig));

type Challenge = { page: string; drag_to?: [number, number]; code?: string } | null;

const faults = (f: object) => putPhone(control, SERIAL, 'faults', f);
const screen = () => screenOf(control, SERIAL);
const challenge = async (): Promise<Challenge> =>
  (await api<Challenge>(control, 'GET', `/devices/${SERIAL}/challenge`)).body;
const hasText = (all: XNode[], text: string): boolean => all.some((n) => n.attrs.text === text);
const node = (all: XNode[], id: string): XNode => one(all, (n) => n.attrs['resource-id'] === rid(id), id);
const swipe = (x1: number, y1: number, x2: number, y2: number) => sh(dev, `input swipe ${x1} ${y1} ${x2} ${y2} 500`);

async function dragTo(): Promise<[number, number]> {
  const c = await challenge();
  if (!c?.drag_to) throw new Error(`no slider challenge: ${JSON.stringify(c)}`);
  return c.drag_to;
}

async function code(): Promise<string> {
  const c = await challenge();
  if (!c?.code) throw new Error(`no code challenge: ${JSON.stringify(c)}`);
  return c.code;
}

/** Taps the code field, types `digits`, taps the confirming control. */
async function enter(all: XNode[], field: string, digits: string, confirm: string): Promise<XNode[]> {
  await tap(dev, node(all, field));
  await sh(dev, `input text ${digits}`);
  await tap(dev, node(all, confirm));
  return (await settledDump(dev)).all;
}

const wrongCode = (right: string): string => (right === '000000' ? '111111' : '000000');

describe('captcha', () => {
  test('open: a drag of the thumb to the gap solves it and the goods page shows', async () => {
    expect(await challenge()).toBeNull();
    await faults({ captcha_on: 'open' });
    const { all } = await openGoods(dev, GOODS);
    const [x, y] = await dragTo();
    expect(await challenge()).toEqual({ page: 'captcha', drag_to: [x, y] });
    // The gap is drawn where the answer says, the thumb on the drag's row.
    expect(center(node(all, 'iv_captcha_gap'))[0]).toBe(x);
    const [tx, ty] = center(node(all, 'iv_captcha_slider'));
    expect(ty).toBe(y);

    await swipe(tx, ty, tx + 100, ty);
    await swipe(tx, ty, x - 40, y);
    await swipe(x, 1500, x, y);
    const kept = await settledDump(dev);
    expect(byId(kept.all, 'tv_captcha_title')).toHaveLength(1);
    expect(await challenge()).toEqual({ page: 'captcha', drag_to: [x, y] });

    await swipe(tx, ty, x + 20, y + 10);
    const after = await settledDump(dev);
    expect(byId(after.all, 'll_bottom_buy')).toHaveLength(1);
    expect(await screen()).toBe('goods_detail');
    expect(await challenge()).toBeNull();
  });

  test('submit: solved, the submission goes through (one order, the cashier)', async () => {
    await faults({ captcha_on: 'submit' });
    const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
    await tap(dev, node(d.all, 'll_sku_confirm'));
    const page = await settledDump(dev);
    expect(byId(page.all, 'tv_captcha_title')).toHaveLength(1);
    expect(await ordersOf(control, SERIAL)).toEqual([]);
    const [x, y] = await dragTo();
    const [tx, ty] = center(node(page.all, 'iv_captcha_slider'));
    await swipe(tx, ty, x, y);
    expect(hasText((await settledDump(dev)).all, '订单已提交，请尽快支付')).toBe(true);
    expect(await ordersOf(control, SERIAL)).toHaveLength(1);
  });
});

describe('risk_slider', () => {
  test('a sticky page goes once solved: the goods page is back and no longer blocked', async () => {
    await faults({ page_on: { open: 'risk_slider' } });
    expect(await challenge()).toBeNull();
    const { all } = await openGoods(dev, GOODS);
    expect(await screen()).toBe('risk_slider');
    const [x, y] = await dragTo();
    expect(center(node(all, 'iv_slider_gap'))[0]).toBe(x);
    const [tx, ty] = center(node(all, 'iv_slider_thumb'));
    expect(ty).toBe(y);

    await swipe(tx, ty, x + 31, y);
    expect(hasText((await settledDump(dev)).all, '拖动滑块完成验证')).toBe(true);
    await swipe(tx, ty, x - 25, y - 10);
    const after = await settledDump(dev);
    expect(hasText(after.all, '拖动滑块完成验证')).toBe(false);
    expect(byId(after.all, 'll_bottom_buy')).toHaveLength(1);
    expect(await challenge()).toBeNull();
    await sh(dev, 'am force-stop com.xunmeng.pinduoduo');
    expect(byId((await openGoods(dev, GOODS)).all, 'll_bottom_buy')).toHaveLength(1);
  });

  test('the answer is fixed per showing and follows the seed', async () => {
    await faults({ page_on: { open: 'risk_slider' }, seed: 42 });
    await openGoods(dev, GOODS);
    const first = await dragTo();
    await settledDump(dev);
    expect(await dragTo()).toEqual(first);
    await api(control, 'POST', `/devices/${SERIAL}/reset`);
    await faults({ page_on: { open: 'risk_slider' }, seed: 42 });
    await openGoods(dev, GOODS);
    expect(await dragTo()).toEqual(first);
  });
});

describe('risk_sms', () => {
  test('the right code and 确定 solve it; a wrong one says so and keeps the page', async () => {
    await faults({ page_on: { after_submit: 'risk_sms' } });
    const d = await fillPanel(dev, GOODS, ['黑色', 'M']);
    await tap(dev, node(d.all, 'll_sku_confirm'));
    const page = await settledDump(dev);
    expect(await screen()).toBe('risk_sms');
    const right = await code();
    expect(right).toMatch(/^[0-9]{6}$/);

    const wrong = await enter(page.all, 'et_sms_code', wrongCode(right), 'll_sms_confirm');
    expect(textOf(wrong, 'tv_sms_error')).toBe('验证码错误，请重新输入');
    expect(hasText(wrong, '短信验证')).toBe(true);
    expect(await challenge()).toEqual({ page: 'risk_sms', code: right });

    const solved = await enter(wrong, 'et_sms_code', right, 'll_sms_confirm');
    // The page hid the cashier of the order the tap made; it is back.
    expect(hasText(solved, '订单已提交，请尽快支付')).toBe(true);
    expect(await ordersOf(control, SERIAL)).toHaveLength(1);
    expect(await challenge()).toBeNull();
  });

  test('typing without tapping the field first reaches nothing', async () => {
    await faults({ page_on: { open: 'risk_sms' } });
    const { all } = await openGoods(dev, GOODS);
    await sh(dev, `input text ${await code()}`);
    await tap(dev, node(all, 'll_sms_confirm'));
    const d = await settledDump(dev);
    expect(textOf(d.all, 'et_sms_code')).toBe('');
    expect(hasText(d.all, '验证码错误，请重新输入')).toBe(true);
  });
});

describe('login', () => {
  test('手机登录, the code, 登录: the page goes; a wrong code says so', async () => {
    await faults({ page_on: { open: 'login' } });
    const { all } = await openGoods(dev, GOODS);
    const right = await code();
    expect(await challenge()).toEqual({ page: 'login', code: right });
    await tap(dev, node(all, 'll_login_phone'));
    const form = (await settledDump(dev)).all;
    // Still the login page by what tells it apart.
    expect(hasText(form, '手机登录') && hasText(form, '微信登录')).toBe(true);
    expect(await screen()).toBe('login');

    const wrong = await enter(form, 'et_login_code', wrongCode(right), 'll_login_submit');
    expect(textOf(wrong, 'tv_login_error')).toBe('验证码错误，请重新输入');
    expect(await screen()).toBe('login');

    const solved = await enter(wrong, 'et_login_code', right, 'll_login_submit');
    expect(byId(solved, 'll_bottom_buy')).toHaveLength(1);
    expect(await challenge()).toBeNull();
  });
});

test('risk_face cannot be answered from the phone: no challenge, nothing solves it', async () => {
  await faults({ page_on: { open: 'risk_face' } });
  const { all } = await openGoods(dev, GOODS);
  expect(await screen()).toBe('risk_face');
  expect(await challenge()).toBeNull();
  await tap(dev, node(all, 'll_face_start'));
  await swipe(190, 1160, 700, 1160);
  await sh(dev, 'input text 123456');
  expect(hasText((await settledDump(dev)).all, '开始验证')).toBe(true);
  expect(await screen()).toBe('risk_face');
});

test('an unknown phone: 404', async () => {
  expect((await api(control, 'GET', '/devices/nope/challenge')).status).toBe(404);
});
