import { EvidenceCamera } from '../../device-worker/pdd/purchase/camera';
import type { EvidenceUploader } from '../../device-worker/pdd/purchase/evidence';
import type { EvidenceKind } from '../../device-worker/pdd/purchase/prepare';
import type { PurchaseSession } from '../../device-worker/pdd/purchase/purchase-session';
import type { PurchaseTarget } from '../../domain/contracts/device-activities';
import { nowUtc } from '../../domain/time';
import type { DeviceContext } from './context';

/**
 * Evidence screenshots of one activity: each kept only with a dump of the same screen on both
 * sides (device-worker/pdd/purchase/camera.ts), uploaded to the admin, its id kept in `ids`;
 * `settle` before the activity returns. Evidence never stops a purchase before the fence, nor
 * makes anything after it repeat: a failure is logged and the purchase goes on. Without an
 * uploader (a worker without an admin) nothing is taken.
 */
export class ActivityEvidence {
  readonly ids: string[] = [];
  private readonly camera: EvidenceCamera | null;

  constructor(
    private readonly ctx: DeviceContext,
    uploader: EvidenceUploader | null,
    private readonly target: PurchaseTarget,
    session: PurchaseSession,
  ) {
    this.camera = uploader ? this.cameraOn(session, uploader) : null;
  }

  /** Evidence `kind` of the screen the session's last dump proved. */
  take(kind: EvidenceKind): Promise<void> {
    return this.safely(() => this.camera?.take(kind));
  }

  /** A picture now, named by the next `take` (../../device-worker/pdd/purchase/prepare.ts `PrepareHooks`). */
  preview(): Promise<void> {
    return this.safely(() => this.camera?.preview());
  }

  settle(): Promise<void> {
    return this.safely(() => this.camera?.settle());
  }

  private cameraOn(session: PurchaseSession, uploader: EvidenceUploader): EvidenceCamera {
    const { ctx, target, ids } = this;
    return new EvidenceCamera(session, {
      screencap: () => ctx.adb.screencap(),
      now: nowUtc,
      async keep(png, kind, capturedAt) {
        const id = await uploader.upload(png, { taskId: target.taskId, attemptId: target.attemptId, kind, capturedAt });
        if (id) ids.push(id);
      },
      skip: (kind, why) => ctx.log.info({ kind, taskId: target.taskId, why }, 'no evidence screenshot'),
    });
  }

  private async safely(what: () => Promise<void> | undefined): Promise<void> {
    try {
      await what();
    } catch (err) {
      this.ctx.log.warn(
        { err: (err as Error).message, taskId: this.target.taskId },
        'evidence screenshot failed; the purchase goes on',
      );
    }
  }
}
