import { SLIDER_THUMB } from '../challenge';
import { node, type UiNode } from '../node';
import type { Challenge } from '../page';

export const SCREEN_W = 1080;
export const SCREEN_H = 2376;

export function loadingScreen(): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('Progress', [440, 1088, 640, 1288], { id: 'pdd_loading_view' }),
    node('Text', [340, 1310, 740, 1370], { id: 'tv_loading', text: '加载中...' }),
  ]);
}

export function backButton(): UiNode {
  return node('Image', [24, 96, 132, 204], { id: 'iv_back', desc: '返回', clickable: true, action: { kind: 'back' } });
}

export function toastNode(text: string, pkg: string): UiNode {
  return node('Toast', [140, 1900, 940, 2000], { text, pkg, fill: 'grey' });
}

export function launcherScreen(): UiNode {
  const pkg = 'com.android.launcher3';
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], { pkg }, [
    node('Text', [60, 1900, 300, 2140], {
      pkg,
      text: '拼多多',
      desc: '拼多多',
      clickable: true,
      action: { kind: 'open_home' },
      fill: 'red',
    }),
  ]);
}

export function homeScreen(): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    node('Text', [60, 150, 1020, 250], { id: 'tv_search_hint', text: '搜索商品', fill: 'chip' }),
  ]);
}

/** A slider's gap in its puzzle image: centred on the x the thumb must be dragged to. */
export function sliderGap(id: string, ch: Challenge | undefined, top: number): UiNode[] {
  const x = ch?.dragTo?.[0];
  return x === undefined ? [] : [node('Image', [x - 60, top, x + 60, top + 120], { id, desc: '缺口', fill: 'grey' })];
}

export function captchaScreen(ch?: Challenge): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], {}, [
    backButton(),
    node('Text', [380, 110, 700, 190], { id: 'tv_captcha_title', text: '安全验证' }),
    node('Text', [120, 400, 960, 480], { id: 'tv_captcha_tip', text: '请拖动滑块完成拼图验证' }),
    node('Image', [120, 520, 960, 1000], { id: 'iv_captcha_image', fill: 'image' }),
    ...sliderGap('iv_captcha_gap', ch, 700),
    node('Image', SLIDER_THUMB.captcha, {
      id: 'iv_captcha_slider',
      desc: '滑块',
      clickable: true,
      action: { kind: 'none' },
      fill: 'chip',
    }),
    node('Text', [780, 1200, 960, 1260], {
      id: 'tv_captcha_refresh',
      text: '换一张',
      clickable: true,
      action: { kind: 'none' },
    }),
  ]);
}
