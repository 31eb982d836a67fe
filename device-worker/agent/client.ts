import http from 'node:http';
import { AgentError } from './package';

export interface AgentClientTimeouts {
  /** status, session and settings */
  requestMs: number;
  /** one page source: the agent reads at once (waitForIdleTimeout 0), but a big tree takes a while */
  sourceMs: number;
}

const DEFAULT_TIMEOUTS: AgentClientTimeouts = { requestMs: 5_000, sourceMs: 10_000 };

/**
 * How long the agent waits for the app to go idle before it reads the tree. Zero: a screen that
 * never settles (a countdown, a ticker) is read as it is now. A tree read mid-animation is still
 * only a picture of one moment, so every decision on it goes through the same stale and loading
 * checks as a dump, and every tap re-reads first.
 */
const WAIT_FOR_IDLE_MS = 0;

/** Far above the page source of any real screen (a few hundred KB); a bigger answer is refused, not buffered. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The few W3C WebDriver routes of the UiAutomator2 server the worker uses, over the port `adb
 * forward` opened: `GET /status`, `POST /session`, `POST /session/:id/appium/settings`, `GET
 * /session/:id/source`. Each request has its own connection (a pooled socket would outlive an agent
 * that died) and its own timeout.
 */
export class AgentClient {
  private sessionId: string | null = null;
  private readonly timeouts: AgentClientTimeouts;

  constructor(
    private readonly port: number,
    timeouts: Partial<AgentClientTimeouts> = {},
  ) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...timeouts };
  }

  /** The agent answers and says it is ready. */
  async status(): Promise<boolean> {
    try {
      const value = await this.call('GET', '/status', undefined, this.timeouts.requestMs);
      return isObject(value) && value.ready === true;
    } catch {
      return false;
    }
  }

  /** A new session (the server holds one: it replaces any other) that reads without waiting for idle. */
  async openSession(): Promise<void> {
    const value = await this.call('POST', '/session', { capabilities: { alwaysMatch: {} } }, this.timeouts.requestMs);
    const id = isObject(value) ? value.sessionId : undefined;
    if (typeof id !== 'string' || id === '') throw new AgentError('the agent opened no session');
    await this.call(
      'POST',
      `/session/${id}/appium/settings`,
      { settings: { waitForIdleTimeout: WAIT_FOR_IDLE_MS } },
      this.timeouts.requestMs,
    );
    this.sessionId = id;
  }

  /** The screen's tree as XML; a session the agent forgot (it restarted) is opened again once. */
  async source(): Promise<string> {
    if (this.sessionId === null) await this.openSession();
    try {
      return await this.sourceOnce();
    } catch (err) {
      if (!(err instanceof SessionGone)) throw err;
      await this.openSession();
      return this.sourceOnce();
    }
  }

  private async sourceOnce(): Promise<string> {
    const value = await this.call('GET', `/session/${this.sessionId}/source`, undefined, this.timeouts.sourceMs);
    if (typeof value !== 'string') throw new AgentError('the agent answered the source with no XML');
    return value;
  }

  private call(method: string, path: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const what = `${method} ${path}`;
    return new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const fail = (err: AgentError): void => {
        reject(err);
        req.destroy();
      };
      // the whole exchange, not an idle socket: an answer that drips in byte by byte is cut off too
      const timer = setTimeout(() => fail(new AgentError(`${what} took longer than ${timeoutMs} ms`)), timeoutMs);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: false,
          headers: data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size <= MAX_ANSWER_BYTES) chunks.push(c);
            else fail(new AgentError(`${what}: the answer is over ${MAX_ANSWER_BYTES} bytes`));
          });
          res.on('error', (err) => fail(new AgentError(`${what}: ${err.message}`)));
          res.on('end', () => {
            try {
              resolve(answer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), what));
            } catch (err) {
              reject(err);
            }
          });
        },
      );
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => reject(err instanceof AgentError ? err : new AgentError(`${what}: ${err.message}`)));
      req.end(data);
    });
  }
}

/** The agent no longer knows the session (it restarted, or another client replaced it). */
class SessionGone extends AgentError {}

/** A W3C answer `{"value": …}`: the value, or the error it carries. */
function answer(status: number, text: string, what: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AgentError(`${what}: HTTP ${status}, not JSON`);
  }
  const value = isObject(parsed) ? parsed.value : undefined;
  if (status >= 200 && status < 300) return value;
  const error = isObject(value) && typeof value.error === 'string' ? value.error : `HTTP ${status}`;
  const message = isObject(value) && typeof value.message === 'string' ? value.message.slice(0, 200) : '';
  if (error === 'invalid session id') throw new SessionGone(`${what}: ${message}`);
  throw new AgentError(`${what}: ${error}${message ? ` (${message})` : ''}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
