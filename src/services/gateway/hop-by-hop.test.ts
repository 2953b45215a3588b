import { describe, expect, it } from 'vitest';
import { withoutHopByHopHeaders } from './hop-by-hop.js';

describe('withoutHopByHopHeaders', () => {
  it('drops connection-scoped headers, Proxy-* and Expect, and keeps end-to-end ones', () => {
    const kept = withoutHopByHopHeaders(
      {
        'content-type': 'application/json',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        trailer: 'x-sum',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        expect: '100-continue',
        'proxy-authorization': 'Basic x',
        'proxy-connection': 'keep-alive',
        'x-request-id': 'r1',
      },
      undefined,
    );
    expect(kept).toEqual({ 'content-type': 'application/json', 'x-request-id': 'r1' });
  });

  it('drops every header the Connection header names, whatever its case or spacing', () => {
    const kept = withoutHopByHopHeaders(
      { 'x-one': '1', 'x-two': '2', 'x-three': '3', accept: '*/*' },
      ['keep-alive , X-One', 'x-TWO'],
    );
    expect(kept).toEqual({ 'x-three': '3', accept: '*/*' });
  });
});
