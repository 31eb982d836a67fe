import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChaosPoint, ChaosProcess } from '../../platform/chaos';
import type { ChaosPair } from './matrix';

/** One report of a process at a point (platform/chaos.ts `chaosPoint`). */
export interface PointReport {
  process: ChaosProcess;
  pid: number;
  deviceId?: string;
  serial?: string;
  point: ChaosPoint;
}

/**
 * What the runner does at an armed point: kill, and say what it killed. `step` is the workflow's
 * step as its `state` query answers it, asked only for an activity of a purchase.
 */
export interface Killer {
  stepOf(workflowId: string): Promise<{ step: string; deviceId: string | null } | null>;
  kill(pair: ChaosPair, report: PointReport, deviceId: string | null): Promise<void>;
}

/**
 * The runner's end of the hook: every process reports the points it passes here and waits for the
 * answer. The armed pair fires once, at the first report that matches it; the answer goes back
 * only after the kill, so a process that killed itself never runs past its point.
 */
export class ChaosController {
  private server: http.Server | null = null;
  private armed: { pair: ChaosPair; firedAt: number | null } | null = null;
  /** purchases of earlier pairs: their late activities (the phone's release) are not this pair's points */
  private readonly earlier = new Set<string>();
  /** every point reported while armed, in order: the report's trail of a pair */
  readonly seen: string[] = [];

  constructor(private readonly killer: Killer) {}

  async listen(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void this.onReport(req.url ?? '', Buffer.concat(chunks).toString('utf8')).finally(() => {
          res.writeHead(204);
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  arm(pair: ChaosPair): void {
    this.armed = { pair, firedAt: null };
    this.seen.length = 0;
  }

  /** when the armed pair fired (ms since the epoch), or null */
  firedAt(): number | null {
    return this.armed?.firedAt ?? null;
  }

  /** Disarms; `taskId`'s purchase is an earlier one from now on. */
  disarm(taskId?: string): void {
    this.armed = null;
    if (taskId) this.earlier.add(taskId);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async onReport(url: string, body: string): Promise<void> {
    if (url !== '/point' || !this.armed || this.armed.firedAt !== null) return;
    let report: PointReport;
    try {
      report = JSON.parse(body) as PointReport;
    } catch {
      return;
    }
    const { pair } = this.armed;
    const { point } = report;
    let deviceId: string | null = report.deviceId ?? null;
    if (point.kind === 'act') {
      const name = `${point.act}:${point.phase}`;
      this.seen.push(name);
      if (name !== pair.step) return;
    } else {
      const [type, taskId] = point.workflowId.split('/');
      if (type !== 'purchase' || this.earlier.has(taskId ?? '')) return;
      // a local activity runs inside the workflow's task, which cannot answer a query until it ends:
      // it belongs to the step the activity before it opened
      if (point.local) {
        this.seen.push(`local/${point.activity}`);
        return;
      }
      const at = await this.killer.stepOf(point.workflowId).catch((err: unknown) => {
        if (process.env.CHAOS_DEBUG) console.error('stepOf', err);
        return null;
      });
      this.seen.push(`${at?.step ?? '?'}/${point.activity}`);
      if (!at || at.step !== pair.step || this.armed.firedAt !== null) return;
      deviceId = at.deviceId ?? deviceId;
    }
    this.armed.firedAt = Date.now();
    await this.killer.kill(pair, report, deviceId);
  }
}
