import type http from 'node:http';
import { shipmentsBodySchema } from './data';
import { readJson } from './reply';
import { faultsSchema, RAW_BODY_MAX, rawBodySchema, type SybState } from './state';

/**
 * The control API under `/control/` (docs/syb-protocol.md): tests and the demo replace the data
 * set, feed hostile raw shipments, switch faults on and read the request log. Loopback only and
 * JSON from its own origin only (./server.ts checks both before this runs).
 */
export async function control(state: SybState, req: http.IncomingMessage, path: string): Promise<[number, unknown]> {
  const route = `${req.method} ${path}`;
  switch (route) {
    case 'PUT /control/shipments':
    case 'POST /control/shipments': {
      const body = shipmentsBodySchema.safeParse(await readJson(req));
      if (!body.success) return [400, { error: issues(body.error.issues) }];
      if (req.method === 'PUT') state.shipments = new Map();
      for (const s of body.data.shipments) state.shipments.set(s.id, s);
      return [200, { shipments: state.shipments.size }];
    }
    case 'PUT /control/raw-shipments': {
      const body = rawBodySchema.safeParse(await readJson(req, RAW_BODY_MAX));
      if (!body.success) return [400, { error: issues(body.error.issues) }];
      for (const s of body.data.shipments) state.raw.set(s.id, s);
      return [200, { raw_shipments: state.raw.size }];
    }
    case 'DELETE /control/raw-shipments':
      state.raw = new Map();
      return [200, { raw_shipments: 0 }];
    case 'PUT /control/faults': {
      const body = faultsSchema.safeParse(await readJson(req));
      if (!body.success) return [400, { error: issues(body.error.issues) }];
      state.faults = { ...state.faults, ...body.data };
      return [200, state.faults];
    }
    case 'DELETE /control/faults':
      state.faults = {};
      return [200, state.faults];
    case 'GET /control/requests':
      return [200, state.requests];
    case 'DELETE /control/requests':
      state.requests = [];
      return [200, []];
    case 'GET /control/credentials':
      return [200, state.credentials];
    default:
      return [404, { error: `no control route ${route}` }];
  }
}

/** A refused body's problems, one `path: message` each. */
function issues(list: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return list.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}
