import { describe, expect, it } from 'vitest';
import { assertDeliverableUrl, isNonPublicAddress } from '../../src/webhooks/webhook-url.js';

const publicOnly = {
  allowLocal: false,
  resolve: async (host: string) =>
    host === 'hooks.example.org' ? ['93.184.215.14'] : host === 'rebound.example.org' ? ['10.0.0.5'] : [],
};

describe('webhook URLs', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    // IPv6 forms that carry an IPv4 address: IPv4-compatible, mapped in hex, NAT64, 6to4, Teredo.
    '::127.0.0.1',
    '::a00:1',
    '::ffff:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::808:808',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fe80::1%eth0',
    'not-an-address',
  ])('%s is not a public address', (ip) => {
    expect(isNonPublicAddress(ip)).toBe(true);
  });

  it.each(['93.184.215.14', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8', '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(isNonPublicAddress(ip)).toBe(false);
    },
  );

  it.each([
    'http://hooks.example.org/in',
    'https://127.0.0.1/hook',
    'https://[::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[64:ff9b::a00:1]/hook',
    'https://[2002:a00:1::]/hook',
    'https://localhost/hook',
    'https://printer.local/hook',
    'https://intranet/hook',
    'https://rebound.example.org/hook',
    'https://nowhere.example.org/hook',
    'https://user:pw@hooks.example.org/in',
  ])('%s is refused with the switch off', async (url) => {
    await expect(assertDeliverableUrl(url, publicOnly)).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_PARAMETER',
    });
  });

  it('a public https host is accepted; with the switch on, local http targets are too', async () => {
    await expect(assertDeliverableUrl('https://hooks.example.org/in', publicOnly)).resolves.toBeUndefined();
    await expect(assertDeliverableUrl('http://127.0.0.1:9999/hook', { allowLocal: true })).resolves.toBeUndefined();
  });
});
