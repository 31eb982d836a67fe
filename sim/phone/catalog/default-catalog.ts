import type { Catalog, Goods, Sku } from './schema';

/** Every combination of the dimension values, in catalog order. */
function combos(values: string[][]): string[][] {
  return values.reduce<string[][]>((acc, vs) => acc.flatMap((prefix) => vs.map((v) => [...prefix, v])), [[]]);
}

function goods(base: Omit<Goods, 'skus'>, sku: (options: string[]) => Omit<Sku, 'options'> | null): Goods {
  const skus: Sku[] = [];
  for (const options of combos(base.dimensions.map((d) => d.values))) {
    const s = sku(options);
    if (s) skus.push({ options, ...s });
  }
  return { ...base, skus };
}

/**
 * The reference goods: black shares one coupon price over its sizes, white's sizes
 * differ, white/L is sold out, and two pieces cost 32.76 (not 2 × 12.88).
 */
const referenceJacket = (): Goods =>
  goods(
    {
      goods_id: '937122477375',
      title: '【现货】春秋款西装外套男士休闲单西',
      shop_name: '优衣仓男装旗舰店',
      status: 'on_sale',
      dimensions: [
        { name: '颜色分类', values: ['黑色', '白色'] },
        { name: '尺码', values: ['S', 'M', 'L'] },
      ],
    },
    ([c, s]) =>
      c === '黑色'
        ? {
            price_cent: 1288,
            list_price_cent: 1990,
            coupon: true,
            stock: 5,
            tier_totals_cent: { '2': 3276, '3': 4599 },
          }
        : {
            price_cent: s === 'S' ? 1256 : s === 'M' ? 1390 : 1990,
            list_price_cent: 2590,
            stock: s === 'L' ? 0 : 8,
          },
  );

/** Three dimensions. */
const threeDimensionSuit = (): Goods =>
  goods(
    {
      goods_id: '737116531267',
      title: '【现货】西装外套三件套',
      shop_name: 'XX旗舰店',
      status: 'on_sale',
      dimensions: [
        { name: '颜色分类', values: ['黑色', '藏青'] },
        { name: '尺码', values: ['M', 'L', 'XL'] },
        { name: '款式', values: ['两件套', '三件套'] },
      ],
    },
    ([c, s, k]) => ({
      price_cent: (k === '三件套' ? 15900 : 11900) + (s === 'XL' ? 1000 : 0),
      list_price_cent: 29900,
      coupon: c === '黑色',
      stock: c === '藏青' && s === 'XL' ? 0 : 20,
    }),
  );

/** Prefix collisions 红 / 粉红 / 红色系 must be matched exactly. */
const prefixColours = (): Goods =>
  goods(
    {
      goods_id: '600000000101',
      title: '纯棉短袖T恤女宽松百搭',
      shop_name: '棉棉家居',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['粉红', '红', '红色系'] },
        { name: '尺码', values: ['S', 'M'] },
      ],
    },
    ([c]) => ({ price_cent: c === '红' ? 990 : c === '粉红' ? 1090 : 1190, stock: 50 }),
  );

/** Numeric prefix collision 1 / 10 (pairs per pack). */
const numericPrefixSocks = (): Goods =>
  goods(
    {
      goods_id: '600000000102',
      title: '男士中筒袜子纯棉防臭',
      shop_name: '袜业工厂店',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['白色', '黑色'] },
        { name: '双数', values: ['10', '1'] },
      ],
    },
    ([, n]) => ({
      price_cent: n === '10' ? 1990 : 350,
      list_price_cent: n === '10' ? 3990 : 590,
      coupon: true,
      stock: 100,
    }),
  );

/** One dimension only: everything fits in the panel without a swipe. */
const oneDimensionCable = (): Goods =>
  goods(
    {
      goods_id: '600000000103',
      title: '快充数据线Type-C 6A',
      shop_name: '极速数码',
      status: 'on_sale',
      dimensions: [{ name: '长度', values: ['1m', '2m', '3m'] }],
    },
    ([l]) => ({
      price_cent: l === '1m' ? 590 : l === '2m' ? 790 : 990,
      stock: l === '3m' ? 0 : 30,
      tier_totals_cent: { '2': 1099 },
    }),
  );

/** A whole colour sold out (its card is disabled) and a tiny stock that caps "+". */
const soldOutColourPyjamas = (): Goods =>
  goods(
    {
      goods_id: '600000000104',
      title: '加厚珊瑚绒睡衣套装',
      shop_name: '暖冬家纺',
      status: 'on_sale',
      dimensions: [
        { name: '颜色分类', values: ['灰色', '蓝色', '粉色'] },
        { name: '尺码', values: ['M', 'L'] },
      ],
    },
    ([c, s]) => ({
      price_cent: 4990,
      list_price_cent: 8990,
      stock: c === '蓝色' ? 0 : c === '粉色' && s === 'L' ? 2 : 9,
    }),
  );

/** Delisted goods. */
const delistedHoodie = (): Goods =>
  goods(
    {
      goods_id: '600000000105',
      title: '已下架的旧款卫衣',
      shop_name: '过季仓',
      status: 'delisted',
      dimensions: [
        { name: '颜色分类', values: ['黑色'] },
        { name: '尺码', values: ['M'] },
      ],
    },
    () => ({ price_cent: 3990, stock: 0 }),
  );

/** Coupon prices on some SKUs only: the range shows no 券后 until one coupon SKU is fixed. */
const partialCouponCup = (): Goods =>
  goods(
    {
      goods_id: '600000000106',
      title: '不锈钢保温杯500ml',
      shop_name: '杯具专营店',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['银色', '黑色', '白色'] },
        { name: '容量', values: ['350ml', '500ml'] },
      ],
    },
    ([c, v]) => ({
      price_cent: v === '500ml' ? 2890 : 2390,
      list_price_cent: 4900,
      coupon: c !== '银色',
      stock: 40,
    }),
  );

/** Many colours: two rows of cards in the first section; tiered totals for 2 and 3 pieces. */
const manyColoursUmbrella = (): Goods =>
  goods(
    {
      goods_id: '600000000107',
      title: '儿童卡通雨伞折叠',
      shop_name: '晴雨屋',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['黄色', '蓝色', '粉色', '绿色', '紫色'] },
        { name: '款式', values: ['直柄', '折叠'] },
      ],
    },
    ([, k]) => ({
      price_cent: k === '折叠' ? 2590 : 1990,
      stock: 12,
      tier_totals_cent: k === '折叠' ? { '2': 4980, '3': 6990 } : ({ '2': 3780 } as Record<string, number>),
    }),
  );

/** Sparse SKU table: not every combination exists (such options are disabled, not missing). */
const sparseShoes = (): Goods =>
  goods(
    {
      goods_id: '600000000108',
      title: '运动跑步鞋男透气',
      shop_name: '飞跑体育',
      status: 'on_sale',
      dimensions: [
        { name: '颜色', values: ['黑白', '全黑'] },
        { name: '尺码', values: ['40', '41', '42', '43'] },
      ],
    },
    ([c, s]) =>
      c === '全黑' && s === '43'
        ? null
        : { price_cent: c === '全黑' ? 8900 : 7900, list_price_cent: 15900, coupon: true, stock: 6 },
  );

/** Free-text-ish values with spaces and symbols. */
const freeTextPhoneCase = (): Goods =>
  goods(
    {
      goods_id: '600000000109',
      title: '手机壳适用iPhone 15 Pro',
      shop_name: '壳壳数码',
      status: 'on_sale',
      dimensions: [
        { name: '型号', values: ['iPhone 15', 'iPhone 15 Pro'] },
        { name: '颜色', values: ['透明', '磨砂黑'] },
      ],
    },
    ([m]) => ({ price_cent: m === 'iPhone 15 Pro' ? 1590 : 1490, stock: 99 }),
  );

/**
 * The default goods are chosen for the traps, not for realism of the assortment: each one
 * exercises something the device worker must get right (see SCREENS.md); each is named above by its trap.
 */
export function defaultCatalog(): Catalog {
  return {
    schema_version: 1,
    goods: [
      referenceJacket(),
      threeDimensionSuit(),
      prefixColours(),
      numericPrefixSocks(),
      oneDimensionCable(),
      soldOutColourPyjamas(),
      delistedHoodie(),
      partialCouponCup(),
      manyColoursUmbrella(),
      sparseShoes(),
      freeTextPhoneCase(),
    ],
  };
}
