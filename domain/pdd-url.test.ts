import { canonicalPddGoodsUrl, parsePddGoodsId } from './pdd-url';

describe('parsePddGoodsId: every form an operator pastes', () => {
  it.each([
    ['https://mobile.yangkeduo.com/goods.html?goods_id=737116531267', '737116531267'],
    ['mobile.yangkeduo.com/goods.html?goods_id=737116531267', '737116531267'],
    ['https://mobile.yangkeduo.com/goods2.html?goods_id=737116531267', '737116531267'],
    [
      'https://mobile.yangkeduo.com/goods1.html?_wv=1&goods_id=737116531267&page_from=23&share_uid=999&_oak_share_time=1',
      '737116531267',
    ],
    ['https://mobile.yangkeduo.com/goods.html?ps=abc&goods_id=737116531267#top', '737116531267'],
    ['pinduoduo://com.xunmeng.pinduoduo/goods.html?goods_id=737116531267', '737116531267'],
    [
      '【拼多多】西装外套三件套 ¥59 https://mobile.yangkeduo.com/goods2.html?goods_id=737116531267&share_uid=1 点击链接直接打开',
      '737116531267',
    ],
    [
      'https://mobile.yangkeduo.com/transfer.html?url=goods.html%3Fgoods_id%3D737116531267%26refer%3Dshare',
      '737116531267',
    ],
    ['https://mobile.yangkeduo.com/goods.html?goods_id=737116531267&amp;share_uid=1', '737116531267'],
    ['  https://mobile.yangkeduo.com/goods.html?goods_id=737116531267\n', '737116531267'],
  ])('%s → %s', (input, id) => {
    expect(parsePddGoodsId(input)).toEqual({ ok: true, goodsId: id });
  });

  it.each([
    ['https://mobile.yangkeduo.com/goods.html'],
    ['https://mobile.yangkeduo.com/goods.html?goods_id='],
    ['https://mobile.yangkeduo.com/goods.html?goods_id=abc'],
    ['https://mobile.yangkeduo.com/goods.html?xgoods_id=737116531267'],
    ['737116531267'],
    ['西装外套'],
    [''],
  ])('no goods_id in %j', (input) => {
    expect(parsePddGoodsId(input)).toEqual({ ok: false, reason: 'NO_GOODS_ID' });
  });

  it('refuses text naming two different goods', () => {
    expect(parsePddGoodsId('goods.html?goods_id=111111 and goods.html?goods_id=222222')).toEqual({
      ok: false,
      reason: 'AMBIGUOUS_GOODS_ID',
    });
  });

  it('the canonical URL parses back to the same goods', () => {
    expect(parsePddGoodsId(canonicalPddGoodsUrl('123456'))).toEqual({ ok: true, goodsId: '123456' });
  });
});
