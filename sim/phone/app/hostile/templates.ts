import { node, type Rect, type UiNode } from '../node';
import type { OverlayAction, TemplateName } from './schema';

/**
 * The built-in interstitials, laid out as the real app draws them (sim/phone/SCREENS.md
 * "Overlay templates"): mostly id-less or `pdd` views, one control that closes each, the
 * tempting buttons next to it. The root's bounds are what the overlay covers for taps.
 */
interface Template {
  description: string;
  build(): UiNode;
}

const FULL: Rect = [0, 0, 1080, 2376];
const PDD = 'pdd';
const act = (a: OverlayAction): { clickable: true; overlayAction: OverlayAction } => ({
  clickable: true,
  overlayAction: a,
});

const TEMPLATES: Record<TemplateName, Template> = {
  update_prompt: {
    description: '更新提示「发现新版本」：立即升级（去更新页）/ 以后再说（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('Linear', [120, 620, 960, 1700], { id: PDD, fill: 'card' }, [
          node('Image', [120, 620, 960, 1000], { fill: 'image' }),
          node('Text', [180, 1040, 900, 1120], { text: '发现新版本' }),
          node('Text', [180, 1140, 900, 1400], { text: '拼多多 8.18.0 新版本上线啦，购物更流畅，快来体验吧' }),
          node('Button', [180, 1440, 900, 1560], { text: '立即升级', fill: 'red', ...act('navigate:app_update') }),
          node('Text', [180, 1580, 900, 1660], { text: '以后再说', ...act('dismiss') }),
        ]),
      ]),
  },
  red_packet: {
    description: '红包弹窗「专属现金红包」：领取（去首页）/ 右上角无 id 的 ImageView（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('ViewGroup', [150, 500, 930, 600], {}, [node('Image', [840, 500, 930, 590], act('dismiss'))]),
        node('ViewGroup', [150, 600, 930, 1700], { fill: 'red' }, [
          node('Image', [150, 600, 930, 900], { fill: 'image' }),
          node('Frame', [200, 950, 880, 1040], {}, [node('Text', [200, 950, 880, 1040], { text: '专属现金红包' })]),
          node('Text', [200, 1060, 880, 1240], { text: '¥8.88' }),
          node('Text', [200, 1260, 880, 1330], { text: '仅限今日使用' }),
          node('Button', [260, 1420, 820, 1560], { text: '领取', fill: 'chip', ...act('navigate:home') }),
        ]),
      ]),
  },
  cash_gift: {
    description: '现金弹窗「送你大额现金」：开心收下（去首页）/ 卡片下方圆形无 id 的 ImageView（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('ViewGroup', [480, 1760, 600, 1880], {}, [node('Image', [480, 1760, 600, 1880], act('dismiss'))]),
        node('ViewGroup', [120, 560, 960, 1700], { fill: 'red' }, [
          node('Text', [180, 620, 900, 720], { text: '送你大额现金' }),
          node('Text', [180, 760, 900, 960], { text: '¥100.00' }),
          node('Text', [180, 1000, 900, 1070], { text: '可提现到微信零钱' }),
          node('Button', [200, 1480, 880, 1620], { text: '开心收下', fill: 'chip', ...act('navigate:home') }),
        ]),
      ]),
  },
  subsidy_coupon: {
    description: '百亿补贴领券弹窗（网页）：立即领取（去首页）/ 右上角无文字无 id 的 View（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('View', [90, 400, 990, 1900], { text: '百亿补贴' }, [
          node('View', [90, 400, 990, 1900], {}, [
            node('View', [90, 400, 990, 1900], { fill: 'card' }, [
              node('View', [870, 420, 970, 520], act('dismiss')),
              node('Image', [90, 520, 990, 1000], { fill: 'image' }),
              node('Text', [150, 1060, 930, 1150], { text: '百亿补贴 官方补贴券' }),
              node('Text', [150, 1180, 930, 1360], { text: '¥20 无门槛券' }),
              node('Text', [200, 1700, 880, 1840], { text: '立即领取', fill: 'red', ...act('navigate:home') }),
            ]),
          ]),
        ]),
      ]),
  },
  free_order: {
    description: '活动弹窗「免单特权」：立即抽免单（去首页）/ 卡片下方包着无 id Image 的可点 View（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('View', [100, 500, 980, 1900], {}, [
          node('View', [100, 500, 980, 620], { fill: 'red' }, [
            node('Text', [140, 520, 940, 600], { text: '免单特权' }),
          ]),
          node('Text', [140, 660, 940, 740], { text: '恭喜获得 1 次抽免单机会' }),
          node('Image', [140, 780, 940, 1300], { fill: 'image' }),
          node('Text', [140, 1340, 940, 1420], { text: '最高免单 ¥200' }),
          node('View', [180, 1560, 900, 1700], { fill: 'red', ...act('navigate:home') }, [
            node('Text', [220, 1590, 860, 1670], { text: '立即抽免单' }),
          ]),
          node('View', [490, 1760, 590, 1860], act('dismiss'), [node('Image', [490, 1760, 590, 1860], {})]),
        ]),
      ]),
  },
  order_success: {
    description: '下单成功弹窗：追加订单（去首页）/ 邀请好友（无反应）/ 文字为「关闭弹窗」的 Button（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('Frame', [60, 700, 1020, 1800], { id: PDD, fill: 'card' }, [
          node('Button', [900, 720, 1000, 820], { text: '关闭弹窗', ...act('dismiss') }),
          node('Text', [120, 860, 960, 960], { text: '恭喜你，下单成功' }),
          node('Text', [120, 990, 960, 1060], { text: '赶快邀请好友来拼单吧' }),
          node('Image', [120, 1100, 960, 1440], { fill: 'image' }),
          node('Button', [120, 1560, 520, 1700], { text: '追加订单', fill: 'chip', ...act('navigate:home') }),
          node('Button', [560, 1560, 960, 1700], { text: '邀请好友', fill: 'red', ...act('none') }),
        ]),
      ]),
  },
  teen_mode: {
    description: '青少年模式提示：进入青少年模式（无反应）/ 我知道了（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('ViewGroup', [120, 700, 960, 1700], { fill: 'card' }, [
          node('Frame', [180, 740, 900, 820], {}, [node('Text', [180, 740, 900, 820], { text: '青少年模式' })]),
          node('Image', [420, 850, 660, 1090], { fill: 'image' }),
          node('Text', [180, 1120, 900, 1360], {
            text: '为呵护未成年人健康成长，拼多多特别推出青少年模式，该模式下部分功能无法正常使用',
          }),
          node('Text', [180, 1400, 900, 1480], { text: '进入青少年模式', ...act('none') }),
          node('ViewGroup', [180, 1540, 900, 1660], { fill: 'red' }, [
            node('Text', [180, 1540, 900, 1660], { text: '我知道了', ...act('dismiss') }),
          ]),
        ]),
      ]),
  },
  notification_prompt: {
    description: '开启消息通知底部弹层（盖住底栏）：开启通知（无反应）/ 右上角可点 ImageView（关闭）',
    build: () =>
      node('Frame', FULL, { fill: 'mask' }, [
        node('ViewGroup', [0, 1500, 1080, 2376], { id: PDD, fill: 'card' }, [
          node('ViewGroup', [0, 1500, 1080, 2100], {}, [
            node('ViewGroup', [0, 1500, 1080, 2100], {}, [
              node('Image', [960, 1530, 1050, 1620], act('dismiss')),
              node('Text', [120, 1640, 960, 1740], { text: '开启消息通知' }),
              node('Text', [120, 1770, 960, 1850], { text: '及时获取物流消息、降价提醒' }),
            ]),
          ]),
          node('Button', [120, 2160, 960, 2300], { text: '开启通知', fill: 'red', ...act('none') }),
        ]),
      ]),
  },
  float_video: {
    description: '商品页右侧悬浮视频讲解小窗（不盖底栏）：点视频无反应 / 右上角无 id 的 ImageView（关闭）',
    build: () =>
      node('Frame', [640, 1180, 1050, 1900], { id: 'fl_float_video', fill: 'image' }, [
        node('View', [640, 1180, 1050, 1900], act('none')),
        node('Text', [660, 1820, 900, 1880], { text: '商品讲解' }),
        node('Image', [970, 1190, 1040, 1260], act('dismiss')),
      ]),
  },
  limited_deal_mask: {
    description:
      '全屏透明蒙层，底栏位置盖着「立即领取 ¥0.01 抢购」（去首页），商品页仍在下面；卡片下方 content-desc 为「关闭」的 ImageView（关闭）',
    build: () =>
      node('Frame', FULL, { id: PDD }, [
        node('Image', [90, 700, 990, 1600], { fill: 'red' }),
        node('Text', [140, 760, 940, 860], { text: '新人专享 0.01元抢购' }),
        node('Text', [140, 900, 940, 980], { text: '限时 05:00 后失效' }),
        node('Image', [490, 1680, 590, 1780], { desc: '关闭', ...act('dismiss') }),
        node('Linear', [36, 2196, 1044, 2356], { fill: 'red', ...act('navigate:home') }, [
          node('Text', [200, 2236, 880, 2316], { text: '立即领取 ¥0.01 抢购' }),
        ]),
      ]),
  },
};

export function buildTemplate(name: TemplateName): UiNode {
  return TEMPLATES[name].build();
}

function findDismiss(n: UiNode): UiNode[] {
  return [...(n.overlayAction === 'dismiss' ? [n] : []), ...n.children.flatMap(findDismiss)];
}

export interface TemplateInfo {
  name: TemplateName;
  description: string;
  close: { resource_id: string; text: string; content_desc: string; class: string; bounds: Rect };
}

/** `GET /overlays/templates`: each template and the one control that closes it. */
export function templateInfos(): TemplateInfo[] {
  return (Object.keys(TEMPLATES) as TemplateName[]).map((name) => {
    const t = TEMPLATES[name];
    const closers = findDismiss(t.build());
    const c = closers[0];
    if (closers.length !== 1 || !c) throw new Error(`template ${name} must have exactly one closing control`);
    return {
      name,
      description: t.description,
      close: { resource_id: c.id, text: c.text, content_desc: c.desc, class: c.cls, bounds: c.bounds },
    };
  });
}
