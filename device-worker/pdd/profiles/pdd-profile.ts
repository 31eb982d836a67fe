/**
 * What we know about one PDD app version, as data: resource ids, exact texts and geometry that
 * real-phone evidence proved for it. Nothing here is a pattern to search with; a screen is
 * recognised only when these exact values occur exactly once where expected.
 */
export interface PddProfile {
  appVersion: string;
  pkg: string;
  screen: { width: number; height: number };
  /** foreign windows we recognise by package only */
  launcherPkg: string;
  alipayPkg: string;
  id: {
    loadingView: string;
    loadingText: string;
    goodsList: string;
    goodsTitle: string;
    /** the goods' sales figure ("已拼10万+件"); read as shown, optional */
    goodsSales: string;
    mallName: string;
    bottomBar: string;
    bottomBuy: string;
    bottomBuyPrice: string;
    bottomBuyDesc: string;
    goodsOffline: string;
    bottomOffline: string;
    skuPanel: string;
    skuPrice: string;
    skuListPrice: string;
    skuSelected: string;
    skuClose: string;
    skuScroll: string;
    skuContent: string;
    skuDimTitle: string;
    skuOptions: string;
    skuCard: string;
    skuOption: string;
    skuQuantity: string;
    skuCount: string;
    skuConfirm: string;
    captchaTitle: string;
    cashierPanel: string;
    orderTabs: string;
    searchHint: string;
  };
  cls: { textView: string; linearLayout: string; frameLayout: string; scrollView: string };
  text: {
    loading: string;
    offline: string;
    entryLabel: string;
    entrySibling: string;
    summaryPending: string;
    summaryDone: string;
    captchaTitle: string;
  };
  /** the one URL form we open goods with */
  goodsUrl(goodsId: string): string;
  keyBack: number;
  reveal: {
    /** x of the gaps between the option-card columns: a swipe there cannot start on an option */
    laneXs: readonly number[];
    /** start this far above the scroll container's bottom edge, move up by `distance` */
    startAboveBottom: number;
    distance: number;
    durationMs: number;
  };
}
