// The address a server reports is the socket's: a wildcard bind says so and gives a URL that can
// be opened on this machine; a specific address is its own URL (IPv6 in brackets).
import { describe, expect, it } from 'vitest';
import { listenAddress } from '../../src/http/listen-address.js';

describe('listenAddress', () => {
  it('names a wildcard bind as such, with a localhost URL to open', () => {
    expect(listenAddress({ address: '0.0.0.0', family: 'IPv4', port: 3000 })).toEqual({
      bound: 'http://0.0.0.0:3000',
      url: 'http://localhost:3000',
      allInterfaces: true,
      port: 3000,
    });
    expect(listenAddress({ address: '::', family: 'IPv6', port: 8080 })).toMatchObject({
      bound: 'http://[::]:8080',
      url: 'http://localhost:8080',
      allInterfaces: true,
    });
  });

  it('gives a specific address as its own URL', () => {
    expect(listenAddress({ address: '127.0.0.1', family: 'IPv4', port: 41234 })).toMatchObject({
      bound: 'http://127.0.0.1:41234',
      url: 'http://127.0.0.1:41234',
      allInterfaces: false,
    });
    expect(listenAddress({ address: '::1', family: 'IPv6', port: 9 }).url).toBe('http://[::1]:9');
  });
});
