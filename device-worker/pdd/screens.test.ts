import { DeviceError } from '../errors';
import { splitUiDump, isInjectEventsDenied, parseVersionName, parseWmSize } from '../adb/output';
import { profileForVersion } from './profile';
import { TapGuard } from './purchase/guard';
import { classify } from './screens';
import { parseUiDump } from './ui-xml';
import { readPanelState } from './panel-state';
import { readPanelPrice } from './price';

// XML written by hand from the field notes (SCREENS.md), not produced by the simulator.
const P = 'com.xunmeng.pinduoduo';
type N = {
  id?: string;
  cls?: string;
  text?: string;
  click?: boolean;
  enabled?: boolean;
  selected?: boolean;
  scroll?: boolean;
  b: [number, number, number, number];
  kids?: N[];
};
function xml(root: N, pkg = P): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const render = (n: N, i: number): string => {
    const attrs = `index="${i}" text="${esc(n.text ?? '')}" resource-id="${n.id ? `${P}:id/${n.id}` : ''}" class="${n.cls ?? 'android.widget.TextView'}" package="${pkg}" content-desc="" checkable="false" checked="false" clickable="${!!n.click}" enabled="${n.enabled ?? true}" focusable="false" focused="false" scrollable="${!!n.scroll}" long-clickable="false" password="false" selected="${!!n.selected}" bounds="[${n.b[0]},${n.b[1]}][${n.b[2]},${n.b[3]}]"`;
    return n.kids?.length ? `<node ${attrs}>${n.kids.map(render).join('')}</node>` : `<node ${attrs} />`;
  };
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${render(root, 0)}</hierarchy>`;
}
const LL = 'android.widget.LinearLayout';
/** The same dump as the real app names its nodes: `…:id/pdd` or no id at all. */
const generic = (x: string) =>
  x.replace(/resource-id="[^"]*"/g, (_, i: number) => (i % 2 ? 'resource-id=""' : `resource-id="${P}:id/pdd"`));
const frame = (kids: N[]): N => ({ cls: 'android.widget.FrameLayout', b: [0, 0, 1080, 2376], kids });

function goodsPage(over: { firstRow?: Partial<N>; sibling?: Partial<N>; extra?: N[]; inList?: N[] } = {}): string {
  return xml(
    frame([
      {
        id: 'goods_detail_list',
        cls: 'androidx.recyclerview.widget.RecyclerView',
        scroll: true,
        b: [0, 0, 1080, 2196],
        kids: [
          {
            id: 'll_goods_price_area',
            cls: LL,
            b: [0, 1080, 1080, 1230],
            kids: [
              { id: 'tv_goods_price', text: '¥12.56-19.90', b: [36, 1100, 560, 1200] },
              { id: 'tv_goods_promo', text: '快要抢光', b: [580, 1120, 760, 1180] },
              { id: 'tv_goods_sales', text: '已拼10万+件', b: [780, 1120, 1044, 1180] },
            ],
          },
          { id: 'tv_goods_title', text: '【现货】西装 & "外套"', b: [36, 1240, 1044, 1360] },
          {
            id: 'll_mall_entry',
            cls: LL,
            click: true,
            b: [0, 1400, 1080, 1560],
            kids: [
              { id: 'tv_mall_name', text: '优衣仓男装旗舰店', b: [180, 1440, 800, 1500] },
              { id: 'tv_mall_enter', text: '进店逛逛', b: [860, 1440, 1044, 1500] },
            ],
          },
          ...(over.inList ?? []),
        ],
      },
      {
        id: 'll_bottom_bar',
        cls: LL,
        b: [0, 2196, 1080, 2376],
        kids: [
          {
            id: 'll_bottom_mall',
            cls: LL,
            click: true,
            b: [0, 2196, 180, 2376],
            kids: [{ text: '店铺', b: [0, 2200, 180, 2370] }],
          },
          {
            id: 'll_bottom_buy',
            cls: LL,
            click: true,
            b: [540, 2196, 1080, 2376],
            kids: [
              { id: 'tv_bottom_buy_price', text: '快要抢光 ¥12.56', b: [560, 2212, 1060, 2292], ...over.firstRow },
              { id: 'tv_bottom_buy_desc', text: '免拼购买', b: [560, 2300, 1060, 2360], ...over.sibling },
            ],
          },
        ],
      },
      ...(over.extra ?? []),
    ]),
  );
}

const p = profileForVersion('8.17.0');
const shown = (x: string) => classify(parseUiDump(x), p);

describe('PDD 8.17.0 page profile', () => {
  it('refuses any other app version before anything happens', () => {
    expect(() => profileForVersion('8.18.0')).toThrow(
      expect.objectContaining({ code: 'APP_VERSION_UNSUPPORTED', retryable: false }),
    );
    expect(() => profileForVersion(null)).toThrow(expect.objectContaining({ code: 'APP_NOT_INSTALLED' }));
  });

  it('reads the goods page and the entry: the first row of the bottom buy area, not the promo text', () => {
    const s = shown(goodsPage());
    const goods = {
      kind: 'goods_detail',
      goods: {
        title: '【现货】西装 & "外套"',
        shopName: '优衣仓男装旗舰店',
        salesText: '已拼10万+件',
        entry: { x: 810, y: 2252 },
      },
    };
    expect(s).toMatchObject(goods);
    // the real app's ids: `…:id/pdd` or none — the same reading
    expect(shown(generic(goodsPage()))).toMatchObject(goods);
    // a first row with another label is no entry: not the goods page (nothing to tap)
    expect(shown(goodsPage({ firstRow: { text: '立即购买 ¥12.56' } }))).toMatchObject({ kind: 'unknown' });
  });

  it('a dialog drawn over the page is never the page: covered signature or anything after the bottom bar', () => {
    const mask: N = {
      cls: 'android.widget.FrameLayout',
      b: [0, 0, 1080, 2376],
      kids: [{ text: '立即领取 ¥0.01 抢购', click: true, b: [140, 2180, 940, 2300] }],
    };
    expect(shown(goodsPage({ extra: [mask] }))).toMatchObject({ kind: 'overlay', over: 'goods_detail' });
    // a small badge after the bar that covers nothing is still something drawn over the page
    const badge: N = { cls: 'android.widget.ImageView', b: [10, 10, 20, 20] };
    expect(shown(goodsPage({ extra: [badge] }))).toMatchObject({ kind: 'overlay' });
    // a toast is not a dialog
    const toast: N = { cls: 'android.widget.Toast', text: '网络不给力', b: [140, 1900, 940, 2000] };
    expect(shown(goodsPage({ extra: [toast] }))).toMatchObject({ kind: 'goods_detail' });
  });

  it.each([
    ['a clickable first row', { firstRow: { click: true } }],
    ['a clickable 免拼购买', { sibling: { click: true } }],
    ['a sibling with another text', { sibling: { text: '单独购买' } }],
    ['the entry text twice', { inList: [{ text: '快要抢光 ¥12.56', b: [0, 300, 100, 400] }] }],
    ['a second scrollable list', { inList: [{ cls: LL, scroll: true, b: [0, 300, 100, 400] }] }],
  ])('refuses structure drift: %s', (_, over) => {
    expect(() => shown(goodsPage(over as Parameters<typeof goodsPage>[0]))).toThrow(
      expect.objectContaining({ code: 'PAGE_STRUCTURE_CHANGED' }),
    );
  });

  it('a tap passes the guard only when the topmost node at its point is the node it means', () => {
    const guard = new TapGuard({
      authorizationId: 'a',
      irreversible: () => false,
      pkg: P,
      submitLabel: '提交订单',
      readOnlyUrl: 'pinduoduo://x',
    });
    const clear = shown(goodsPage());
    if (clear.kind !== 'goods_detail') throw new Error(clear.kind);
    const { x, y, node } = clear.goods.entry;
    const meant = { order: node.order, className: node.className, bounds: node.bounds, label: 'entry' };
    guard.remember(goodsPage());
    expect(() => guard.checkTap(x, y, meant)).not.toThrow();
    // a shallow, non-clickable mask drawn after the page wins over the page's deeper entry
    const masked = goodsPage({ extra: [{ cls: 'android.widget.FrameLayout', b: [0, 0, 1080, 2376] }] });
    guard.remember(masked);
    expect(() => guard.checkTap(x, y, meant)).toThrow(/would land on android\.widget\.FrameLayout/);
    // a dialog's button exactly over the entry: the tap would be the dialog's
    const button = goodsPage({ extra: [{ text: '立即领取 ¥0.01 抢购', click: true, b: [540, 2196, 1080, 2376] }] });
    guard.remember(button);
    expect(() => guard.checkTap(x, y, meant)).toThrow(/立即领取/);
    // and a node the dump does not have at that place is no target at all
    guard.remember(goodsPage());
    expect(() => guard.checkTap(x, y, { ...meant, order: meant.order + 1 })).toThrow(/not in the last dump/);
  });

  it('recognises loading, delisted, captcha and foreign screens', () => {
    expect(
      shown(
        xml(
          frame([
            { id: 'pdd_loading_view', cls: 'android.widget.ProgressBar', b: [440, 1088, 640, 1288] },
            { id: 'tv_loading', text: '加载中...', b: [340, 1310, 740, 1370] },
          ]),
        ),
      ),
    ).toEqual({ kind: 'loading' });
    expect(
      shown(
        xml(
          frame([
            { id: 'tv_goods_title', text: '商品不存在', b: [36, 1240, 1044, 1360] },
            { id: 'tv_goods_offline', text: '商品已下架', b: [36, 1100, 1044, 1200] },
          ]),
        ),
      ),
    ).toMatchObject({ kind: 'goods_delisted' });
    expect(shown(xml(frame([{ id: 'tv_captcha_title', text: '安全验证', b: [380, 110, 700, 190] }])))).toEqual({
      kind: 'stop_page',
      code: 'CAPTCHA_REQUIRED',
      page: 'risk_slider',
    });
    expect(
      shown(xml(frame([{ text: '拼多多', click: true, b: [60, 1900, 300, 2140] }]), 'com.android.launcher3')),
    ).toEqual({ kind: 'launcher' });
    expect(shown(xml(frame([{ text: '随便', b: [0, 0, 10, 10] }])))).toMatchObject({ kind: 'unknown' });
  });

  const chip = (text: string, x: number, selected = false, enabled = true): N => ({
    id: 'tv_sku_option',
    text,
    click: true,
    selected,
    enabled,
    b: [x, 1270, x + 160, 1380],
  });
  function panel(summary: string, price: string, sizes: N[], colours: N[]): string {
    return xml(
      frame([
        { id: 'v_sku_mask', cls: 'android.view.View', click: true, b: [0, 0, 1080, 640] },
        {
          id: 'll_sku_panel',
          cls: LL,
          b: [0, 640, 1080, 2376],
          kids: [
            { id: 'tv_sku_price', text: price, b: [350, 700, 900, 800] },
            { id: 'tv_sku_selected', text: summary, b: [350, 880, 1044, 940] },
            {
              id: 'sv_sku_content',
              cls: 'android.widget.ScrollView',
              scroll: true,
              b: [0, 980, 1080, 2176],
              kids: [
                {
                  id: 'll_sku_content',
                  cls: LL,
                  b: [0, 980, 1080, 2176],
                  kids: [
                    { id: 'tv_sku_dim_title', text: '颜色', b: [36, 992, 1044, 1052] },
                    { id: 'll_sku_options', cls: LL, b: [36, 1064, 1044, 1200], kids: colours },
                    { id: 'tv_sku_dim_title', text: '尺码', b: [36, 1206, 1044, 1266] },
                    { id: 'll_sku_options', cls: LL, b: [36, 1270, 1044, 1380], kids: sizes },
                  ],
                },
              ],
            },
            {
              id: 'll_sku_confirm',
              cls: LL,
              click: true,
              b: [36, 2196, 1044, 2356],
              kids: [{ id: 'tv_sku_confirm', text: '提交订单', b: [200, 2236, 880, 2316] }],
            },
          ],
        },
      ]),
    );
  }
  const colours = (sel?: string) =>
    ['红', '粉红'].map((c, i) => ({
      ...chip(c, 36 + i * 200, c === sel),
      b: [36 + i * 200, 1070, 196 + i * 200, 1180] as [number, number, number, number],
    }));

  it('reads the panel: options by exact text per dimension, selection agreeing with the summary', () => {
    const x = panel('请选择：尺码', '¥9.90', [chip('1', 36), chip('10', 220, false, false)], colours('红'));
    expect(shown(generic(x))).toMatchObject({ kind: 'sku_panel' });
    const s = shown(x);
    if (s.kind !== 'sku_panel') throw new Error(s.kind);
    const st = readPanelState(s.panel, ['颜色', '尺码'], p);
    expect(st.selection).toEqual(['红', null]);
    expect(st.sections[1]!.options.map((o) => [o.text, o.enabled])).toEqual([
      ['1', true],
      ['10', false],
    ]);
  });

  it('refuses a summary that disagrees with the selected nodes, and a duplicated option', () => {
    const wrong = shown(panel('请选择：颜色 尺码', '¥9.90', [chip('1', 36)], colours('红')));
    if (wrong.kind !== 'sku_panel') throw new Error(wrong.kind);
    expect(() => readPanelState(wrong.panel, ['颜色', '尺码'], p)).toThrow(DeviceError);
    const twice = shown(panel('请选择：尺码', '¥9.90', [chip('1', 36), chip('1', 220)], colours('红')));
    if (twice.kind !== 'sku_panel') throw new Error(twice.kind);
    expect(() => readPanelState(twice.panel, ['颜色', '尺码'], p)).toThrow(
      expect.objectContaining({ code: 'PAGE_STRUCTURE_CHANGED' }),
    );
  });
});

describe('prices and ADB output', () => {
  it('reads prices by string; unreadable and zero are unknown, never 0', () => {
    expect(readPanelPrice('券后¥12.56')).toMatchObject({ kind: 'single', cent: 1256, coupon: true });
    expect(readPanelPrice('¥12.56-19.90')).toMatchObject({ kind: 'range', minCent: 1256, maxCent: 1990 });
    expect(readPanelPrice('¥0.00').kind).toBe('unreadable');
    expect(readPanelPrice('').kind).toBe('unreadable');
  });

  it('splits a /dev/tty dump and recognises uiautomator errors', () => {
    expect(
      splitUiDump(`<?xml version='1.0' ?><hierarchy rotation="0"></hierarchy>UI hierchary dumped to: /dev/tty\n`),
    ).toEqual({ kind: 'xml', xml: `<?xml version='1.0' ?><hierarchy rotation="0"></hierarchy>` });
    expect(splitUiDump('ERROR: could not get idle state.\n')).toEqual({
      kind: 'error',
      message: 'ERROR: could not get idle state.',
    });
  });

  it('parses dumpsys, wm size and the INJECT_EVENTS refusal', () => {
    expect(
      parseVersionName(
        'Packages:\n  Package [com.xunmeng.pinduoduo] (abc):\n    versionCode=1\n    versionName=8.17.0\n',
        P,
      ),
    ).toBe('8.17.0');
    expect(parseVersionName('', P)).toBeNull();
    expect(parseWmSize('Physical size: 1080x2376\nOverride size: 720x1584\n')).toEqual({ width: 720, height: 1584 });
    expect(
      isInjectEventsDenied(
        'java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n\tat …',
      ),
    ).toBe(true);
    expect(isInjectEventsDenied('')).toBe(false);
  });
});
