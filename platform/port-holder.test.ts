import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startChild, SupervisedChild, type RestartEvent } from './children';
import { portHolder } from './port-holder';

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'supervise-'));

describe('npm start children', () => {
  it('a child that cannot bind names the port and the process holding it', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      expect(portHolder(port)).toMatchObject({ pid: process.pid });
      await expect(
        startChild({
          name: 'sim',
          command: process.execPath,
          args: ['-e', `require('net').createServer().listen(${port}, '127.0.0.1')`],
          readyLine: /^READY$/,
          logFile: path.join(logDir, 'sim.out'),
        }),
      ).rejects.toThrow(new RegExp(`sim cannot bind port ${port}: held by pid ${process.pid} \\(`));
    } finally {
      server.close();
    }
  });

  it('a child that exits on the terminal’s Ctrl-C is not reported as a crash; one that dies on its own is', async () => {
    const events: RestartEvent[] = [];
    const spec = {
      name: 'worker',
      command: process.execPath,
      args: ['-e', "console.log('READY'); setInterval(() => {}, 1000)"],
      readyLine: /^READY$/,
      logFile: path.join(logDir, 'worker.out'),
    };
    const policy = { initialDelayMs: 10, maxDelayMs: 10, stableAfterMs: 60_000 };
    const a = await SupervisedChild.start(spec, { policy, onRestart: (e) => events.push(e) });
    // Ctrl-C: the child gets SIGINT at the same time as the supervisor, which then stands down
    process.kill(a.pid!, 'SIGINT');
    a.standDown();
    await a.stop();
    expect(events).toEqual([]);

    const b = await SupervisedChild.start(spec, { policy, onRestart: (e) => events.push(e) });
    const first = b.pid!;
    process.kill(first, 'SIGKILL');
    for (let i = 0; i < 100 && (events.length === 0 || b.pid === first); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(events).toMatchObject([{ child: 'worker', exit: 'SIGKILL', restart: 1 }]);
    await b.stop();
  });
});
