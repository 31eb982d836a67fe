import { PDD_PACKAGE } from '../../domain/pdd-app';
import { describeError } from '../../platform/errors';
import type { AdbDevice } from '../adb/adb-device';
import { profileForVersion } from '../pdd/profile';
import { classify } from '../pdd/screens';
import { parseUiDump } from '../pdd/ui-xml';

/** What a fresh read of the phone says about clearing its stop. */
export type ResumeVerdict = { ok: true; page: string } | { ok: false; reason_code: string; page: string };

/**
 * The read behind 处理完毕，继续 (docs/api.md §12.1): before a stopped phone claims again, one
 * fresh read of its screen must show no page only a person can clear — a login, slider or SMS page,
 * an unknown overlay, a popup without a close control. Anything else (the PDD app on any page, the
 * launcher, another app) is fine: a purchase opens its goods by link. A phone that cannot be read
 * keeps its stop.
 */
export async function readForResume(adb: AdbDevice): Promise<ResumeVerdict> {
  let version: string | null;
  let out;
  try {
    version = await adb.versionName(PDD_PACKAGE);
    out = await adb.dumpUi();
  } catch (err) {
    return { ok: false, reason_code: 'DEVICE_ERROR', page: `unreadable: ${describeError(err)}`.slice(0, 200) };
  }
  if (out.kind === 'error') return { ok: false, reason_code: 'HIERARCHY_UNAVAILABLE', page: out.message.slice(0, 200) };
  let screen;
  try {
    screen = classify(parseUiDump(out.xml), profileForVersion(version));
  } catch (err) {
    return { ok: false, reason_code: 'PAGE_UNRECOGNIZED', page: describeError(err).slice(0, 200) };
  }
  switch (screen.kind) {
    case 'stop_page':
      return { ok: false, reason_code: screen.code, page: screen.page };
    case 'overlay':
      return { ok: false, reason_code: 'UNKNOWN_OVERLAY', page: screen.reason.slice(0, 200) };
    case 'interstitial':
      return screen.close
        ? { ok: true, page: screen.name }
        : { ok: false, reason_code: screen.stopCode, page: screen.name };
    default:
      return { ok: true, page: screen.kind };
  }
}
