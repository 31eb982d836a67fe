import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { PDD_PACKAGE } from '../../domain/pdd-app';
import { interstitialSchema } from '../../domain/pdd-overlay';
import { DeviceError } from '../errors';
import {
  profileFileSchema,
  type InterstitialData,
  type NodeMatcher,
  type OrderField,
  type PageStopCode,
} from './profile-schema';

export type { NodeMatcher, PageStopCode };

/** A page that stops a purchase, recognised when every matcher finds a node. */
export interface PageSignature {
  name: string;
  code: PageStopCode;
  signature: readonly NodeMatcher[];
}

export interface Interstitial {
  name: string;
  signature: readonly NodeMatcher[];
  close: NodeMatcher;
  /** the stop when it cannot be closed */
  stopCode: PageStopCode | 'UNKNOWN_OVERLAY';
}

/**
 * What we know about one PDD app version, read from its data file (profiles/<version>.json,
 * validated by ./profile-schema.ts). Texts are matched by equality; no resource id is used.
 */
export interface PddProfile {
  appVersion: string;
  pkg: string;
  screen: { width: number; height: number };
  /** foreign windows we recognise by package only */
  launcherPkg: string;
  alipayPkg: string;
  cls: {
    textView: string;
    linearLayout: string;
    frameLayout: string;
    scrollView: string;
    progressBar: string;
    toast: string;
  };
  text: {
    loading: string;
    offline: string;
    entryLabel: string;
    entrySibling: string;
    mallEnter: string;
    salesPrefix: string;
    summaryPending: string;
    summaryDone: string;
    quantityLabel: string;
    ordersTitle: string;
    homeSearch: string;
  };
  pages: readonly PageSignature[];
  interstitials: readonly Interstitial[];
  /** how many interstitials one purchase may close before it stops */
  maxInterstitials: number;
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
  /** what a purchase needs beyond the collect: ./purchase/profile.ts */
  purchase: {
    text: {
      /** the final red control reads exactly `提交订单 ¥12.88` */
      submitLabel: string;
      cashierTitle: string;
      plus: string;
      minus: string;
      orderUnpaid: string;
      orderSnPrefix: string;
      orderTimePrefix: string;
      orderAmountPrefix: string;
      orderCountPrefix: string;
      orderSpecSeparator: string;
    };
    orderFields: readonly OrderField[];
    /** the orders list, 待付款 tab, opened by intent (no tap) */
    pendingOrdersUrl: string;
    /** the clock of `下单时间`, minutes east of UTC */
    orderTimeOffsetMinutes: number;
  };
}

/** A profile file that does not validate: the process refuses to start, naming file and field. */
export class ProfileError extends Error {
  override readonly name = 'ProfileError';
}

const DEFAULT_DIR = path.join(__dirname, 'profiles');

/** Reads and validates one profile file; any bad field is refused by name. */
export function loadProfileFile(file: string): PddProfile {
  return toProfile(readProfileFile(file));
}

type ProfileFile = z.infer<typeof profileFileSchema>;

/** The file as the schema (./profile-schema.ts) accepts it, named after its version, for the PDD app. */
function readProfileFile(file: string): ProfileFile {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ProfileError(`PDD profile ${file} is not readable JSON: ${(err as Error).message}`);
  }
  const parsed = profileFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : '(file)';
    throw new ProfileError(`PDD profile ${file}: field ${field}: ${issue?.message ?? 'invalid'}`);
  }
  const d = parsed.data;
  if (path.basename(file) !== `${d.app_version}.json`)
    throw new ProfileError(`PDD profile ${file}: field app_version: ${d.app_version} does not match the file name`);
  if (d.package !== PDD_PACKAGE)
    throw new ProfileError(`PDD profile ${file}: field package: ${d.package} is not ${PDD_PACKAGE}`);
  return d;
}

/** The file's snake_case fields under the names the code reads them by. */
function toProfile(d: ProfileFile): PddProfile {
  const t = d.texts;
  return {
    appVersion: d.app_version,
    pkg: d.package,
    screen: d.screen,
    launcherPkg: d.launcher_package,
    alipayPkg: d.alipay_package,
    cls: {
      textView: d.classes.text_view,
      linearLayout: d.classes.linear_layout,
      frameLayout: d.classes.frame_layout,
      scrollView: d.classes.scroll_view,
      progressBar: d.classes.progress_bar,
      toast: d.classes.toast,
    },
    text: {
      loading: t.loading,
      offline: t.offline,
      entryLabel: t.entry_label,
      entrySibling: t.entry_sibling,
      mallEnter: t.mall_enter,
      salesPrefix: t.sales_prefix,
      summaryPending: t.summary_pending,
      summaryDone: t.summary_done,
      quantityLabel: t.quantity_label,
      ordersTitle: t.orders_title,
      homeSearch: t.home_search,
    },
    pages: d.pages,
    interstitials: d.interstitials.map(toInterstitial),
    maxInterstitials: d.max_interstitials_per_purchase,
    goodsUrl: (goodsId) => d.urls.goods.replace('{goods_id}', goodsId),
    keyBack: d.key_back,
    reveal: {
      laneXs: d.reveal.lane_xs,
      startAboveBottom: d.reveal.start_above_bottom,
      distance: d.reveal.distance,
      durationMs: d.reveal.duration_ms,
    },
    purchase: toPurchase(d),
  };
}

function toPurchase(d: ProfileFile): PddProfile['purchase'] {
  const t = d.texts;
  return {
    text: {
      submitLabel: t.submit_label,
      cashierTitle: t.cashier_title,
      plus: t.plus,
      minus: t.minus,
      orderUnpaid: t.order_unpaid,
      orderSnPrefix: t.order_sn_prefix,
      orderTimePrefix: t.order_time_prefix,
      orderAmountPrefix: t.order_amount_prefix,
      orderCountPrefix: t.order_count_prefix,
      orderSpecSeparator: t.order_spec_separator,
    },
    orderFields: d.order_fields,
    pendingOrdersUrl: d.urls.pending_orders,
    orderTimeOffsetMinutes: d.order_time_offset_minutes,
  };
}

function toInterstitial(i: InterstitialData): Interstitial {
  return { name: i.name, signature: i.signature, close: i.close, stopCode: i.stop_code ?? 'UNKNOWN_OVERLAY' };
}

/**
 * The profile with the popups a person taught from the admin and an operator reviewed
 * (admin/devices/taught-overlays.ts): each entry is checked again by the profile's own rules, and
 * one that fails them, or carries a stop code, is left out — the admin is not trusted to have
 * checked. A taught entry never replaces a profiled one of the same name.
 */
export function withTaughtOverlays(p: PddProfile, taught: readonly unknown[]): PddProfile {
  const known = new Set(p.interstitials.map((i) => i.name));
  const added: Interstitial[] = [];
  for (const raw of taught.slice(0, 32)) {
    const entry = interstitialSchema.safeParse(raw);
    if (!entry.success || entry.data.stop_code !== undefined || known.has(entry.data.name)) continue;
    known.add(entry.data.name);
    added.push(toInterstitial(entry.data));
  }
  return added.length === 0 ? p : { ...p, interstitials: [...p.interstitials, ...added] };
}

/** Every `<version>.json` of a folder, validated; one bad file and none is used. */
export function loadProfiles(dir = DEFAULT_DIR): PddProfile[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new ProfileError(`no PDD profile in ${dir}`);
  return files.map((f) => loadProfileFile(path.join(dir, f)));
}

let loaded: PddProfile[] | null = null;

/** The shipped profiles, loaded and validated once; a bad file throws ProfileError on first use. */
function profiles(): readonly PddProfile[] {
  loaded ??= loadProfiles();
  return loaded;
}

function supportedAppVersions(): string[] {
  return profiles().map((p) => p.appVersion);
}

/** Loaded at start on purpose: a worker with a bad profile file refuses to start. */
export const SUPPORTED_APP_VERSIONS: readonly string[] = supportedAppVersions();

/** The profile of exactly this version; any other version is refused before the first tap. */
export function profileForVersion(version: string | null): PddProfile {
  if (version === null)
    throw new DeviceError('APP_NOT_INSTALLED', `the PDD app (${PDD_PACKAGE}) is not installed on this phone`);
  const profile = profiles().find((p) => p.appVersion === version);
  if (!profile) {
    throw new DeviceError(
      'APP_VERSION_UNSUPPORTED',
      `PDD app version ${version} has no page profile (supported: ${supportedAppVersions().join(', ')}); nothing was tapped`,
      { app_version: version },
    );
  }
  return profile;
}
