import type { Env } from '../../admin/config/env';

/**
 * The admin's SYB account under `npm start`: the simulator's, unless an account was given in
 * the environment (then the real service is used and the simulator only runs beside it).
 */
export async function sybAccountEnv(env: Env, simUrl: string): Promise<NodeJS.ProcessEnv> {
  if (env.CMAUTOBUY_SYB_URL) {
    return {
      CMAUTOBUY_SYB_URL: env.CMAUTOBUY_SYB_URL,
      CMAUTOBUY_SYB_USERNAME: env.CMAUTOBUY_SYB_USERNAME,
      CMAUTOBUY_SYB_PASSWORD: env.CMAUTOBUY_SYB_PASSWORD,
    };
  }
  const res = await fetch(`${simUrl}/control/credentials`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the SYB simulator at ${simUrl} did not give its credentials (HTTP ${res.status})`);
  const creds = (await res.json()) as { username: string; password: string };
  return { CMAUTOBUY_SYB_URL: simUrl, CMAUTOBUY_SYB_USERNAME: creds.username, CMAUTOBUY_SYB_PASSWORD: creds.password };
}
