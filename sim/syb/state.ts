import crypto from 'node:crypto';
import { z } from 'zod';
import { defaultShipments, type Shipment } from './data';

/** The faults a test may switch on (docs/syb-protocol.md, the control API). */
export const faultsSchema = z
  .object({
    page_size: z.number().int().min(1).max(1000).optional(),
    fail_page: z.number().int().min(1).nullable().optional(),
    fail_status: z.number().int().min(400).max(599).optional(),
    session_ttl_s: z.number().int().min(0).nullable().optional(),
    latency_ms: z.number().int().min(0).max(60_000).optional(),
    /** hostile: the list never ends — every page lists `page_size` new shipments of this many lines each */
    flood_lines: z.number().int().min(1).max(1000).nullable().optional(),
    /** hostile: this shipment's detail is 31 MB of empty objects (`details: [{},{},…]`), under the 32 MB cap */
    costly_shipment: z.string().min(1).max(100).nullable().optional(),
    /** hostile: every list page is 31 MB of empty objects (`list: [{},{},…]`) */
    costly_list: z.boolean().optional(),
  })
  .strict();
type Faults = z.infer<typeof faultsSchema>;

/** Raw shipments: anything in their fields, but an `id` and a `created` text so the list can page them. */
const rawShipmentSchema = z.looseObject({ id: z.string().min(1), created: z.string() });
export type RawShipment = z.infer<typeof rawShipmentSchema> & { details?: unknown; receiver?: unknown };
export const rawBodySchema = z.object({ shipments: z.array(rawShipmentSchema) }).strict();
export const RAW_BODY_MAX = 64 * 1024 * 1024;

/** One service request as the control API reports it: its shape, never a body. */
interface RequestRecord {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  cookie: boolean;
  authorization: boolean;
  status: number;
}

export interface Session {
  username: string;
  createdMs: number;
}

/**
 * Everything the simulator holds, in memory only: the account, the checked data set and the
 * hostile raw one kept apart, the faults, the sessions and the request log. The service
 * (./service.ts) reads it, the control API (./control.ts) replaces its parts.
 */
export interface SybState {
  readonly credentials: { username: string; password: string };
  /** signs the JWTs login hands out */
  readonly jwtKey: Buffer;
  shipments: Map<string, Shipment>;
  /** Hostile upstream: served exactly as given (SYB-style raw data), kept apart from the checked set. */
  raw: Map<string, RawShipment>;
  faults: Faults;
  requests: RequestRecord[];
  readonly sessions: Map<string, Session>;
}

export function newState(opts: { username?: string; password?: string; shipments?: Shipment[] }): SybState {
  return {
    credentials: { username: opts.username ?? 'syb-demo', password: opts.password ?? 'syb-demo-password' },
    jwtKey: crypto.randomBytes(32),
    shipments: new Map<string, Shipment>((opts.shipments ?? defaultShipments()).map((s) => [s.id, s])),
    raw: new Map(),
    faults: {},
    requests: [],
    sessions: new Map(),
  };
}
