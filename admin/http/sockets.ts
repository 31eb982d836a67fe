import type { IncomingMessage, Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_FRAME_BYTES } from '../../domain/contracts/host-channel';
import { ApiError } from '../../domain/api-error';
import { checkHost } from '../../platform/http-guard';
import { describeError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { HostAuthenticator } from '../auth/host-credentials';
import { SESSION_COOKIE, type ActiveSession, type SessionStore } from '../auth/sessions';
import type { AdminDb } from '../db/database';
import { holderOf, releaseDevice } from '../devices/holds';
import type { HostChannels } from '../hosts/channel';
import type { PhoneScreens } from '../hosts/phone-screen';

const STREAM_PATH = /^\/api\/devices\/([0-9a-f-]{36})\/screen\/stream$/;
/** Streams and host channels are checked against their session or token this often. */
const RECHECK_MS = 15_000;
/** A holder's page reloading is not the page closing: its hold ends only if no page of it is back by then. */
const PAGE_CLOSED_GRACE_MS = 10_000;

interface OpenStream {
  socket: WebSocket;
  deviceId: string;
  session: ActiveSession;
  cookie: string;
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * The admin's two WebSockets (docs/api.md §12.3): a phone host's outward channel
 * (`/api/host/channel`, its host token) and a browser's live screen
 * (`/api/devices/:deviceId/screen/stream`, an operator session, same-origin only). Both are
 * checked again every few seconds, so a revoked host or an ended session loses its socket.
 */
export class AdminSockets {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES + 4 });
  private readonly streams = new Set<OpenStream>();
  private readonly hosts = new Map<WebSocket, { hostId: string; authorization: string }>();
  private readonly hostAuth: HostAuthenticator;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: {
      db: AdminDb;
      sessions: SessionStore;
      allowedHosts: ReadonlySet<string>;
      channels: HostChannels;
      screens: PhoneScreens;
      log: Logger;
      pageClosedGraceMs?: number;
    },
  ) {
    this.hostAuth = new HostAuthenticator(deps.db);
    this.timer = setInterval(() => void this.recheck(), RECHECK_MS);
    this.timer.unref();
  }

  listen(server: Server | HttpsServer): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.upgrade(req, socket, head).catch((err: unknown) => {
        this.deps.log.warn({ err: describeError(err), url: req.url }, 'websocket refused');
        refuse(socket, 500, 'Internal Server Error');
      });
    });
  }

  /** The streams of a session that just logged out close now, not at the next check. */
  closeSession(idSha256: Buffer): void {
    for (const s of this.streams) if (s.session.idSha256.equals(idSha256)) s.socket.close(4401, 'logged out');
  }

  close(): void {
    clearInterval(this.timer);
    for (const s of this.streams) s.socket.terminate();
    this.deps.channels.closeAll();
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (checkHost(req.headers, this.deps.allowedHosts)) return refuse(socket, 421, 'Misdirected Request');
    if (path === '/api/host/channel') return this.openHostChannel(req, socket, head);
    const m = STREAM_PATH.exec(path);
    if (m) return this.openStream(req, socket, head, m[1] as string);
    refuse(socket, 404, 'Not Found');
  }

  private async openHostChannel(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // a host's channel is never opened by a browser: no cookie, a host token
    if (cookieOf(req, SESSION_COOKIE) !== undefined) return refuse(socket, 401, 'Unauthorized');
    const authorization = req.headers.authorization ?? '';
    const result = await this.hostAuth.authenticate(authorization);
    if (!result.ok) return refuse(socket, 401, 'Unauthorized');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.hosts.set(ws, { hostId: result.hostId, authorization });
      ws.on('close', () => this.hosts.delete(ws));
      this.deps.channels.attach(result.hostId, ws);
    });
  }

  private async openStream(req: IncomingMessage, socket: Duplex, head: Buffer, deviceId: string): Promise<void> {
    if (req.headers.authorization) return refuse(socket, 401, 'Unauthorized');
    // a page of another site may open a WebSocket with our cookie: only our own origin may
    const origin = req.headers.origin;
    if (origin !== undefined && new URL(origin).host !== req.headers.host) return refuse(socket, 403, 'Forbidden');
    const cookie = cookieOf(req, SESSION_COOKIE) ?? '';
    const session = await this.deps.sessions.authenticate(cookie);
    if (!session) return refuse(socket, 401, 'Unauthorized');
    this.wss.handleUpgrade(
      req,
      socket,
      head,
      (ws) => void this.serveStream(ws, { socket: ws, deviceId, session, cookie }),
    );
  }

  private async serveStream(ws: WebSocket, open: OpenStream): Promise<void> {
    this.streams.add(open);
    let stop: (() => void) | null = null;
    ws.on('close', () => {
      this.streams.delete(open);
      stop?.();
      this.maybeReleaseAfterClose(open);
    });
    try {
      stop = await this.deps.screens.watch(open.deviceId, {
        sendText: (text) => ws.send(text),
        sendFrame: (body) => ws.send(body, { binary: true }),
        get backlog() {
          return ws.bufferedAmount;
        },
        close: (code, reason) => ws.close(code, reason),
      });
      if (ws.readyState !== ws.OPEN) stop();
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'SCREEN_UNAVAILABLE';
      ws.send(JSON.stringify({ error: { code, message: describeError(err) } }));
      ws.close(4404, code);
    }
  }

  /**
   * The holder closed its last page of this phone: the hold ends once the grace has passed without
   * a new one. Only the hold that stood when the page closed: one taken after it (with 占用 on
   * another page, or through the API) is not this page's to end.
   */
  private maybeReleaseAfterClose(open: OpenStream): void {
    const atClose = holderOf(this.deps.db, open.deviceId).catch(() => null);
    setTimeout(() => {
      void (async () => {
        const still = [...this.streams].some(
          (s) => s.deviceId === open.deviceId && s.session.idSha256.equals(open.session.idSha256),
        );
        if (still) return;
        const before = await atClose;
        const holder = await holderOf(this.deps.db, open.deviceId);
        if (holder?.held_by !== open.session.username || holder.since !== before?.since) return;
        await releaseDevice(
          this.deps.db,
          { kind: 'operator', name: open.session.username },
          open.session.username,
          open.deviceId,
          'page_closed',
        );
      })().catch((err: unknown) => this.deps.log.warn({ err: describeError(err) }, 'could not release a closed page'));
    }, this.deps.pageClosedGraceMs ?? PAGE_CLOSED_GRACE_MS).unref();
  }

  private async recheck(): Promise<void> {
    for (const s of [...this.streams]) {
      const live = await this.deps.sessions.authenticate(s.cookie).catch(() => null);
      if (!live) s.socket.close(4401, 'session ended');
    }
    for (const [ws, h] of [...this.hosts]) {
      const result = await this.hostAuth.authenticate(h.authorization).catch(() => ({ ok: true as const }));
      if (!result.ok) ws.close(4001, 'host token refused');
    }
  }
}
