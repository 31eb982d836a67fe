import { SLIDER_THUMB } from '../challenge';
import { node, type NodeProps, type UiNode } from '../node';
import type { Challenge } from '../page';
import { backButton, SCREEN_H, SCREEN_W, sliderGap } from '../screens/common';
import type { BuiltinPage } from './schema';

/** Full-screen pages the app shows instead of the expected one (sim/phone/SCREENS.md "Built-in pages"). */
const none = { clickable: true, action: { kind: 'none' } } as const;

function titleBar(title: string): UiNode[] {
  return [backButton(), node('Text', [280, 110, 800, 190], { id: 'tv_title', text: title })];
}

function redButton(id: string, text: string, top: number, tap: Pick<NodeProps, 'clickable' | 'action'> = none): UiNode {
  return node('Linear', [90, top, 990, top + 140], { id, fill: 'red', ...tap }, [
    node('Text', [200, top + 30, 880, top + 110], { text }),
  ]);
}

const focus = { clickable: true, action: { kind: 'challenge', step: 'focus' } } as const;
const confirm = { clickable: true, action: { kind: 'challenge', step: 'confirm' } } as const;
const WRONG_CODE = '验证码错误，请重新输入';

function loginOptions(ch: Challenge | undefined): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('Image', [390, 400, 690, 680], { id: 'iv_login_logo', desc: '拼多多', fill: 'red' }),
    node('Text', [240, 720, 840, 800], { id: 'tv_login_slogan', text: '拼多多 多实惠 多乐趣' }),
    node('Linear', [90, 1500, 990, 1640], { id: 'll_login_wechat', fill: 'green', ...none }, [
      node('Text', [300, 1530, 780, 1610], { id: 'tv_login_wechat', text: '微信登录' }),
    ]),
    node(
      'Linear',
      [90, 1680, 990, 1820],
      {
        id: 'll_login_phone',
        fill: 'chip',
        clickable: true,
        action: ch ? { kind: 'challenge', step: 'phone_login' } : none.action,
      },
      [node('Text', [300, 1710, 780, 1790], { id: 'tv_login_phone', text: '手机登录' })],
    ),
    node('Text', [390, 1860, 690, 1920], { id: 'tv_login_other', text: '其他登录方式', ...none }),
    node('Linear', [90, 2180, 990, 2260], { id: 'll_login_agreement' }, [
      node('CheckBox', [90, 2190, 150, 2250], { id: 'cb_login_agree', ...none }),
      node('Text', [160, 2190, 990, 2250], { text: '已阅读并同意《拼多多服务协议》和《隐私政策》' }),
    ]),
  ]);
}

/** After 手机登录: the account's number, the code field, 登录; 微信登录 stays below as the other way in. */
function phoneLogin(ch: Challenge): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    ...titleBar('手机登录'),
    node('Text', [90, 260, 990, 320], { id: 'tv_login_phone_tip', text: '未注册的手机号验证后自动创建拼多多账户' }),
    node('Edit', [90, 400, 990, 520], { id: 'et_login_phone', text: '138 **** 6688' }),
    node('Edit', [90, 560, 700, 680], { id: 'et_login_code', text: ch.typed, ...focus }),
    node('Text', [720, 560, 990, 680], { id: 'tv_login_send_code', text: '获取验证码', fill: 'chip', ...none }),
    ...(ch.wrong ? [node('Text', [90, 700, 990, 760], { id: 'tv_login_error', text: WRONG_CODE })] : []),
    redButton('ll_login_submit', '登录', 820, confirm),
    node('Text', [390, 1860, 690, 1920], { id: 'tv_login_other', text: '其他登录方式' }),
    node('Linear', [390, 1960, 690, 2060], { id: 'll_login_wechat', ...none }, [
      node('Text', [420, 1980, 660, 2040], { id: 'tv_login_wechat', text: '微信登录' }),
    ]),
  ]);
}

const PAGES: Record<BuiltinPage, (title: string, ch?: Challenge) => UiNode> = {
  login: (_title, ch) => (ch?.phoneForm ? phoneLogin(ch) : loginOptions(ch)),
  risk_slider: (_title, ch) =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      ...titleBar('安全验证'),
      node('Image', [120, 260, 960, 860], { id: 'iv_slider_image', fill: 'image' }),
      ...sliderGap('iv_slider_gap', ch, 500),
      node('Text', [120, 900, 960, 980], { id: 'tv_risk_tip', text: '为保障您的账户安全，请完成验证' }),
      node('View', [120, 1100, 960, 1220], { id: 'v_slider_track', fill: 'chip' }, [
        node('Image', SLIDER_THUMB.risk_slider, { id: 'iv_slider_thumb', desc: '滑块', fill: 'grey', ...none }),
        node('Text', [300, 1130, 940, 1190], { id: 'tv_slider_hint', text: '拖动滑块完成验证' }),
      ]),
    ]),
  risk_face: () =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      ...titleBar('身份验证'),
      node('Image', [290, 400, 790, 900], { id: 'iv_face_frame', fill: 'image' }),
      node('Text', [120, 960, 960, 1040], { id: 'tv_risk_tip', text: '为保障账户安全，请进行人脸识别验证' }),
      node('Text', [120, 1060, 960, 1120], { text: '请确保是账户本人操作' }),
      redButton('ll_face_start', '开始验证', 1900),
    ]),
  risk_sms: (_title, ch) =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      ...titleBar('短信验证'),
      node('Text', [120, 600, 960, 760], {
        id: 'tv_risk_tip',
        text: '为了您的账户安全，请输入手机 138****6688 收到的短信验证码',
      }),
      node('Edit', [120, 900, 700, 1020], { id: 'et_sms_code', text: ch?.typed ?? '', ...(ch ? focus : none) }),
      node('Text', [720, 900, 960, 1020], { id: 'tv_sms_send', text: '获取验证码', fill: 'chip', ...none }),
      ...(ch?.wrong ? [node('Text', [120, 1040, 960, 1100], { id: 'tv_sms_error', text: WRONG_CODE })] : []),
      redButton('ll_sms_confirm', '确定', 1200, ch ? confirm : none),
    ]),
  network_error: () =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      backButton(),
      node('Image', [390, 700, 690, 1000], { id: 'iv_network_error', fill: 'grey' }),
      node('Text', [140, 1040, 940, 1110], { id: 'tv_network_error', text: '网络不给力，请检查网络设置' }),
      node('Text', [140, 1130, 940, 1190], { text: '请检查网络连接后重试' }),
      node('Text', [390, 1240, 690, 1340], { id: 'tv_reload', text: '重新加载', fill: 'chip', ...none }),
    ]),
  app_update: () =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      node('Image', [0, 0, 1080, 900], { id: 'iv_update_banner', fill: 'image' }),
      node('Text', [120, 960, 960, 1060], { id: 'tv_update_title', text: '版本更新' }),
      node('Text', [120, 1100, 960, 1260], {
        id: 'tv_update_desc',
        text: '当前版本过低，部分功能无法正常使用，请升级到最新版本',
      }),
      node('Text', [120, 1280, 960, 1340], { id: 'tv_update_version', text: '新版本 8.18.0' }),
      redButton('ll_update_now', '立即更新', 2000),
    ]),
  sold_out: (title) =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      node('Recycler', [0, 0, SCREEN_W, 2196], { id: 'goods_detail_list', scrollable: true }, [
        node('Image', [0, 0, 1080, 1080], { id: 'iv_goods_banner', desc: '商品图片', fill: 'grey' }),
        node('Text', [36, 1100, 1044, 1200], { id: 'tv_goods_sold_out', text: '该商品已售罄' }),
        node('Text', [36, 1240, 1044, 1360], { id: 'tv_goods_title', text: title }),
      ]),
      node('Linear', [0, 84, SCREEN_W, 216], { id: 'll_top_bar' }, [backButton()]),
      node('Linear', [0, 2196, SCREEN_W, 2376], { id: 'll_bottom_sold_out', fill: 'grey' }, [
        node('Text', [36, 2240, 700, 2330], { id: 'tv_bottom_sold_out', text: '已售罄', enabled: false }),
        node('Text', [760, 2220, 1060, 2350], { id: 'tv_find_similar', text: '看相似', ...none }),
      ]),
    ]),
  address_missing: () =>
    node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
      ...titleBar('新建收货地址'),
      node('Text', [36, 230, 1044, 300], { id: 'tv_address_tip', text: '请先添加收货地址' }),
      ...['收货人', '手机号码', '所在地区', '详细地址'].map((label, i) =>
        node('Linear', [0, 340 + i * 140, 1080, 460 + i * 140], { id: 'll_address_row' }, [
          node('Text', [36, 370 + i * 140, 300, 430 + i * 140], { text: label }),
          node('Edit', [320, 360 + i * 140, 1044, 440 + i * 140], { id: 'et_address_field', ...none }),
        ]),
      ),
      redButton('ll_address_save', '保存并使用', 2196),
    ]),
};

/** `title` is the goods title for pages shown in place of a goods page (sold_out); `ch` a page's challenge, if it has one. */
export function builtinPageTree(name: BuiltinPage, title = '', ch?: Challenge): UiNode {
  return PAGES[name](title, ch);
}
