import fs from 'node:fs';
import { freePort } from '../../platform/network';

/**
 * The metrics listeners of `npm start` (docs/operations.md "Metrics"): the admin's `/metrics`
 * on its own port, and a free loopback port each for the admin's Temporal SDK metrics and every
 * device worker's own and SDK metrics. They are printed, and written as a Prometheus file-based
 * service discovery list, so a local Prometheus finds them whatever ports they got this time.
 */
export class MetricsTargets {
  private readonly targets: Array<{ job: string; instance: string; address: string }> = [];

  /** a free loopback port for `job` of `instance`, remembered as a target */
  async port(job: string, instance: string): Promise<number> {
    const port = await freePort();
    this.add(job, instance, `127.0.0.1:${port}`);
    return port;
  }

  add(job: string, instance: string, address: string): void {
    this.targets.push({ job, instance, address });
  }

  lines(): string[] {
    return this.targets.map((t) => `${t.job} ${t.instance}: http://${t.address}/metrics`);
  }

  /** `[{ targets, labels }]`, the file_sd_configs format */
  write(file: string): void {
    const sd = this.targets.map((t) => ({
      targets: [t.address],
      labels: { job: t.job, cmautobuy_process: t.instance },
    }));
    fs.writeFileSync(file, `${JSON.stringify(sd, null, 2)}\n`);
  }
}
