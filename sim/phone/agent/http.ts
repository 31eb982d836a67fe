import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Phone } from '../phone';
import { renderAgentXml } from '../app/render-xml';
import { SCREEN_H, SCREEN_W } from '../app/screens/common';
import { neverIdle } from '../idle';
import { sleep } from '../latency';
import type { AgentRun } from './state';

/** UiAutomator2's default `waitForIdleTimeout` (ms) until a session's settings change it. */
const DEFAULT_WAIT_FOR_IDLE_MS = 10_000;

interface Session {
  capabilities: Record<string, unknown>;
  settings: Record<string, unknown>;
}

class W3cError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

function send(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify({ value });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        const v: unknown = JSON.parse(text);
        if (v && typeof v === 'object' && !Array.isArray(v)) return resolve(v as Record<string, unknown>);
      } catch {
        // answered below as the server does for a body it cannot read
      }
      reject(new W3cError(400, 'invalid argument', 'The request body is not a JSON object'));
    });
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** W3C `{alwaysMatch, firstMatch}` merged as the server takes it; a plain object as is. */
function mergeCapabilities(caps: unknown): Record<string, unknown> {
  if (!isObject(caps)) throw new W3cError(400, 'invalid argument', "'capabilities' must be a JSON object");
  if (!('alwaysMatch' in caps) && !('firstMatch' in caps)) return { ...caps };
  const first = Array.isArray(caps.firstMatch) && isObject(caps.firstMatch[0]) ? caps.firstMatch[0] : {};
  return { ...(isObject(caps.alwaysMatch) ? caps.alwaysMatch : {}), ...first };
}

const DISPLAY = { width: SCREEN_W, height: SCREEN_H };

/**
 * The screen's tree, the nodes `uiautomator dump` would give, in the server's own page-source
 * format. Like the real server, the wait for idle is bounded by the session's
 * `waitForIdleTimeout` and the tree is read once it runs out, never refused: a screen that never
 * goes idle costs that wait, with 0 it answers at once.
 */
async function source(phone: Phone, session: Session): Promise<string> {
  await phone.delay('agent_source');
  const system = phone.systemTree();
  if (system) return renderAgentXml(system, DISPLAY);
  const setting = Number(session.settings.waitForIdleTimeout ?? DEFAULT_WAIT_FOR_IDLE_MS);
  const waitMs = Number.isFinite(setting) && setting > 0 ? setting : 0;
  if (neverIdle(phone)) await sleep(waitMs);
  else if (phone.latencyProfile === 'realistic') await sleep(Math.min(waitMs, phone.app.msUntilSettled()));
  return renderAgentXml(phone.app.dumpTree(), DISPLAY);
}

async function route(
  phone: Phone,
  sessions: Map<string, Session>,
  req: http.IncomingMessage,
): Promise<[number, unknown]> {
  const method = req.method ?? 'GET';
  const path =
    (req.url ?? '/')
      .split('?')[0]
      ?.replace(/^\/wd\/hub/, '')
      .replace(/\/+$/, '') || '/';
  if (method === 'GET' && path === '/status')
    return [200, { ready: true, message: 'UiAutomator2 Server is ready to accept commands' }];
  if (method === 'POST' && path === '/session') {
    const body = await readJson(req);
    const capabilities = mergeCapabilities(body.capabilities ?? body.desiredCapabilities);
    // The server holds one session: a new one replaces whatever was open.
    sessions.clear();
    const sessionId = randomUUID();
    sessions.set(sessionId, { capabilities, settings: {} });
    return [200, { sessionId, capabilities }];
  }
  const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) throw new W3cError(404, 'unknown command', `The requested resource could not be found: ${method} ${path}`);
  const id = m[1] as string;
  const rest = m[2] ?? '';
  const session = sessions.get(id);
  if (!session)
    throw new W3cError(404, 'invalid session id', `A session is either terminated or not started (id ${id})`);
  if (method === 'DELETE' && rest === '') {
    sessions.delete(id);
    return [200, null];
  }
  if (method === 'POST' && rest === '/appium/settings') {
    const body = await readJson(req);
    if (!isObject(body.settings)) throw new W3cError(400, 'invalid argument', "'settings' must be a JSON object");
    Object.assign(session.settings, body.settings);
    return [200, null];
  }
  if (method === 'GET' && rest === '/appium/settings')
    return [200, { waitForIdleTimeout: DEFAULT_WAIT_FOR_IDLE_MS, ...session.settings }];
  if (method === 'GET' && rest === '/source') return [200, await source(phone, session)];
  throw new W3cError(404, 'unknown command', `The requested resource could not be found: ${method} ${path}`);
}

/** One live agent process: its HTTP server takes the connections the phone's port 6790 receives. */
export function startAgentRun(phone: Phone, onStop: () => void): AgentRun {
  const sessions = new Map<string, Session>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    route(phone, sessions, req).then(
      ([status, value]) => send(res, status, value),
      (e: unknown) => {
        if (e instanceof W3cError) return send(res, e.status, { error: e.error, message: e.message, stacktrace: '' });
        const message = e instanceof Error ? e.message : String(e);
        send(res, 500, { error: 'unknown error', message, stacktrace: '' });
      },
    );
  });
  let stopped = false;
  return {
    serve(sock) {
      if (stopped) return void sock.destroy();
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      server.emit('connection', sock);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      for (const s of sockets) s.destroy();
      server.close();
      onStop();
    },
  };
}
