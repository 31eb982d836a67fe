import type { Socket } from 'node:net';

/**
 * The phone's abstract unix sockets (`localabstract:<name>`): a program that listens on one
 * takes every connection made to the name, by `adb forward` or by adb's own transport service.
 */
export class AbstractSockets {
  private readonly listeners = new Map<string, (sock: Socket) => void>();

  /** false when the name is taken (the bind fails, as a second minicap's does) */
  listen(name: string, accept: (sock: Socket) => void): boolean {
    if (this.listeners.has(name)) return false;
    this.listeners.set(name, accept);
    return true;
  }

  close(name: string, accept: (sock: Socket) => void): void {
    if (this.listeners.get(name) === accept) this.listeners.delete(name);
  }

  has(name: string): boolean {
    return this.listeners.has(name);
  }

  /** A connection to `name`: false when nothing listens there (refused; the caller closes it). */
  connect(name: string, sock: Socket): boolean {
    const accept = this.listeners.get(name);
    if (!accept) return false;
    accept(sock);
    return true;
  }
}
