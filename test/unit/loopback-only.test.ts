import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { OutsideLoopbackError } from '../support/loopback-only.js';

describe('the test network guard', () => {
  it('refuses a connection past loopback, by address and by name', () => {
    expect(() => net.connect({ host: '192.0.2.1', port: 80 })).toThrow(OutsideLoopbackError);
    expect(() => net.connect(443, 'example.com')).toThrow(/127\.0\.0\.1 only; this one tried example\.com/);
  });

  it('lets loopback through', async () => {
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise((resolve, reject) => socket.on('connect', resolve).on('error', reject));
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});
