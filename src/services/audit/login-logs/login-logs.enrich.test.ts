import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../../platform/cache/cache.js';
import {
  GeoLocator,
  isPrivateAddress,
  parseUserAgent,
  userAgentParser,
} from './login-logs.enrich.js';

describe('parseUserAgent', () => {
  it('reads browser, OS and a desktop device from a desktop browser', () => {
    expect(
      parseUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toEqual({ device: 'Desktop', os: 'Windows 10', browser: 'Chrome 120' });
  });

  it('names the vendor and model of a phone', () => {
    expect(
      parseUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ device: 'Apple iPhone', os: 'iOS 17.0', browser: 'Mobile Safari 17' });
  });

  it('leaves everything null when nothing is recognised or there is no header', () => {
    expect(parseUserAgent('curl/8.0')).toEqual({ device: null, os: null, browser: null });
    expect(parseUserAgent(null)).toEqual({ device: null, os: null, browser: null });
  });
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '::1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ])('treats %s as intranet', (ip) => expect(isPrivateAddress(ip)).toBe(true));
  it.each(['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', 'not-an-ip'])(
    'treats %s as public',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );
});

describe('GeoLocator', () => {
  const offline = async () => ({ country: 'US', region: 'CA', city: 'Mountain View' });

  it('answers "intranet" for private addresses without any lookup', async () => {
    const geo = new GeoLocator({
      cache: new MemoryCache(),
      offline: () => Promise.reject(new Error('must not be called')),
    });
    expect(await geo.locate('192.168.0.7')).toBe('intranet');
  });

  it('uses the offline database for public IPv4 addresses', async () => {
    const geo = new GeoLocator({ cache: new MemoryCache(), offline });
    expect(await geo.locate('8.8.8.8')).toBe('US CA Mountain View');
    expect(await geo.locate(null)).toBeNull();
  });

  it('finds a public address in the shipped offline database', async () => {
    const geo = new GeoLocator({ cache: new MemoryCache() });
    expect(await geo.locate('8.8.8.8')).toMatch(/^US/);
  });

  it('asks the online service once per address and hour, falling back offline on failure', async () => {
    let calls = 0;
    const server = createServer((request, response) => {
      calls++;
      if (request.url!.includes('1.1.1.1')) {
        response.statusCode = 500;
        return response.end();
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ country: 'Germany', regionName: 'Hesse', city: 'Frankfurt' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    let now = 0;
    const cache = new MemoryCache(() => now);
    const geo = new GeoLocator({ cache, offline, onlineUrl: `http://127.0.0.1:${port}/{ip}` });
    try {
      expect(await geo.locate('9.9.9.9')).toBe('Germany Hesse Frankfurt');
      expect(await geo.locate('9.9.9.9')).toBe('Germany Hesse Frankfurt');
      expect(calls).toBe(1);
      now += 3_600_001;
      await geo.locate('9.9.9.9');
      expect(calls).toBe(2);
      expect(await geo.locate('1.1.1.1')).toBe('US CA Mountain View');
    } finally {
      server.close();
    }
  });
});

describe('userAgentParser', () => {
  it('answers like parseUserAgent, and forgets the oldest user agent beyond its size', () => {
    const parse = userAgentParser(2);
    const agents = [
      'curl/8.0',
      'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
    ];
    for (const agent of [...agents, ...agents, null]) {
      expect(parse(agent)).toEqual(parseUserAgent(agent));
    }
    const first = parse(agents[0]);
    expect(parse(agents[0])).toBe(first); // memoised
    parse('okhttp/4.12.0');
    parse('Wget/1.21');
    expect(parse(agents[0])).not.toBe(first); // evicted, parsed again
  });
});

describe('GeoLocator offline memo', () => {
  it('looks each public address up once, concurrent lookups included', async () => {
    const asked: string[] = [];
    const geo = new GeoLocator({
      cache: new MemoryCache(),
      offline: async (ip) => {
        asked.push(ip);
        return { country: 'US', region: 'CA', city: ip };
      },
      offlineCacheSize: 2,
    });
    const [a, b] = await Promise.all([geo.locate('8.8.8.8'), geo.locate('8.8.8.8')]);
    expect([a, b]).toEqual(['US CA 8.8.8.8', 'US CA 8.8.8.8']);
    await geo.locate('::ffff:8.8.8.8');
    expect(asked).toEqual(['8.8.8.8']);
    await geo.locate('1.1.1.1');
    await geo.locate('8.8.4.4'); // third address: the least recently used one (8.8.8.8) goes
    await geo.locate('8.8.8.8');
    expect(asked).toEqual(['8.8.8.8', '1.1.1.1', '8.8.4.4', '8.8.8.8']);
  });
});
