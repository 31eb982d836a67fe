import { createSignal, type Accessor } from 'solid-js';
import type { DeviceView } from '../../../../domain/devices';
import type { PhoneInput } from '../../../../domain/phone-input';
import { ApiError } from '../../api/client';
import {
  getMe,
  holdDevice,
  listDevices,
  releaseDevice,
  resumeDevice,
  sendPhoneInput,
  type ResumeAnswer,
} from '../../api/endpoints';
import { errorText } from '../../errors';
import { createAction, type Action } from '../../lib/action';
import { createPoll } from '../../lib/poll';

/** Often enough that another operator's 接管 or 释放 shows within a few seconds. */
const DEVICE_POLL_MS = 3_000;

export interface PhoneControl {
  /** the phone as 设备 lists it (name, attention, who holds it); null until read or when gone */
  device: Accessor<DeviceView | null>;
  loaded: Accessor<boolean>;
  loadError: Accessor<string | null>;
  /** this operator holds the phone: inputs go to it */
  mine: Accessor<boolean>;
  /** when the hold ends by itself if nothing is sent; null when unknown */
  idleReleaseAt: Accessor<string | null>;
  take: Action<[], unknown>;
  release: Action<[], unknown>;
  input: Action<[PhoneInput], unknown>;
  resume: Action<[], ResumeAnswer>;
  /** `error.details.page` of the last PHONE_STILL_BLOCKED: what the phone still showed */
  blockedPage: Accessor<string | null>;
}

function detailsOf(err: unknown): Record<string, unknown> {
  return err instanceof ApiError && typeof err.details === 'object' && err.details !== null
    ? (err.details as Record<string, unknown>)
    : {};
}

/**
 * One phone seen from its screen page: who holds it (read again every few seconds, so another
 * operator's 接管 or logout shows here), and 接管 / 释放 / the input / 处理完毕，继续.
 */
export function createPhoneControl(deviceId: string): PhoneControl {
  const [device, setDevice] = createSignal<DeviceView | null>(null);
  const [loaded, setLoaded] = createSignal(false);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [me, setMe] = createSignal<string | null>(null);
  const [idleReleaseAt, setIdleReleaseAt] = createSignal<string | null>(null);
  const [blockedPage, setBlockedPage] = createSignal<string | null>(null);
  // the idle limit as the last 接管 answered it: each input restarts it
  let idleMs: number | null = null;

  const load = async (): Promise<void> => {
    try {
      if (me() === null) setMe((await getMe()).username);
      setDevice((await listDevices()).find((d) => d.device_id === deviceId) ?? null);
      setLoaded(true);
      setLoadError(null);
    } catch (err) {
      setLoadError(errorText(err));
    }
  };
  createPoll(load, DEVICE_POLL_MS, { immediate: true });

  const setHeldBy = (heldBy: string | null): void => {
    setDevice((d) => (d ? { ...d, held_by: heldBy } : d));
    if (heldBy !== me()) setIdleReleaseAt(null);
  };
  const mine = (): boolean => me() !== null && device()?.held_by === me();

  const take = createAction(
    async () => {
      const hold = await holdDevice(deviceId);
      idleMs = Math.max(0, Date.parse(hold.idle_release_at) - Date.now());
      setIdleReleaseAt(hold.idle_release_at);
      setHeldBy(hold.held_by);
    },
    {
      failure: (err, text) => {
        const holder = detailsOf(err).held_by;
        if (typeof holder === 'string') setHeldBy(holder);
        return text;
      },
    },
  );
  const release = createAction(async () => {
    await releaseDevice(deviceId);
    setHeldBy(null);
  });
  const input = createAction(
    async (what: PhoneInput) => {
      await sendPhoneInput(deviceId, what);
      if (idleMs !== null) setIdleReleaseAt(new Date(Date.now() + idleMs).toISOString());
    },
    {
      failure: (err, text) => {
        // the hold ended meanwhile (idle, another page's 释放): say so where 接管 is
        if (err instanceof ApiError && err.code === 'DEVICE_NOT_HELD') void load();
        return text;
      },
    },
  );
  const resume = createAction(
    async () => {
      setBlockedPage(null);
      const answer = await resumeDevice(deviceId);
      await load();
      return answer;
    },
    {
      success: (a) => (a.attention === null ? '已恢复：手机将继续领取任务' : '等待手机核对：手机读一次屏幕后自动恢复'),
      failure: (err, text) => {
        const page = detailsOf(err).page;
        if (typeof page === 'string' && page !== '') setBlockedPage(page);
        return text;
      },
    },
  );

  return { device, loaded, loadError, mine, idleReleaseAt, take, release, input, resume, blockedPage };
}
