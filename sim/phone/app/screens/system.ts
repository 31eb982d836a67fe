import { node, type UiNode } from '../node';
import { SCREEN_H, SCREEN_W } from './common';

const SYSTEMUI = 'com.android.systemui';

/** The lock screen SystemUI draws over every app while the keyguard shows (China time, as the phone is set). */
export function keyguardScreen(now: number): UiNode {
  const hhmm = new Date(now + 8 * 3600_000).toISOString().slice(11, 16);
  const pkg = SYSTEMUI;
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], { pkg, id: `${pkg}:id/notification_panel`, fill: 'mask' }, [
    node('Text', [240, 300, 840, 520], { pkg, id: `${pkg}:id/clock`, text: hhmm }),
    node('Text', [240, 540, 840, 600], { pkg, id: `${pkg}:id/date_view`, text: '' }),
    node('Text', [140, 2140, 940, 2200], {
      pkg,
      id: `${pkg}:id/keyguard_indication_text`,
      text: '上滑解锁',
    }),
  ]);
}

/** What screencap shows with the screen off: black. */
export function screenOffScreen(): UiNode {
  return node('Frame', [0, 0, SCREEN_W, SCREEN_H], { pkg: SYSTEMUI, fill: 'black' });
}
