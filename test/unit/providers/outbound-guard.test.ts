import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/errors.js';
import {
  assertPublicUrl,
  checkOutboundUrl,
  isBlockedAddress,
  isOutboundUrlAllowed,
  type HostLookup,
} from '../../../src/providers/outbound-guard.js';

/** No test here may reach a real resolver: IP literals must not be looked up at all. */
const noLookup: HostLookup = async (host) => {
  throw new Error(`unexpected lookup of ${host}`);
};
const resolvesTo =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses;

async function refusal(url: string, lookup: HostLookup = noLookup): Promise<AppError> {
  const error = await assertPublicUrl(url, { allowPrivate: false, lookup }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, `${url} should be refused`).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('outbound guard at settings time', () => {
  const internal = [
    'http://127.0.0.1/',
    'http://127.8.9.10:8080/api',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://10.0.0.5/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'https://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fd12:3456::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/', // 169.254.169.254, IPv4-mapped
    'http://2130706433/', // 127.0.0.1 written as one number
    'http://0x7f.1/', // 127.0.0.1 in hex shorthand
    'http://[::7f00:1]/', // IPv4-compatible 127.0.0.1
    'http://[64:ff9b::7f00:1]/', // NAT64 of 127.0.0.1
    'http://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
    'http://198.18.0.1/', // benchmarking
    'http://192.0.0.1/', // IETF protocol assignments
    'http://192.0.2.1/', // documentation
  ];

  it.each(internal)('refuses %s with a validation error on base_url', async (url) => {
    const error = await refusal(url);
    expect(error.kind).toBe('validation');
    expect(error.errors).toEqual([{ path: 'base_url', message: expect.stringContaining('address') }]);
  });

  it.each(internal)('allows %s with allowPrivate, without resolving anything', async (url) => {
    await expect(assertPublicUrl(url, { allowPrivate: true, lookup: noLookup })).resolves.toBeInstanceOf(URL);
  });

  it.each(['ftp://x', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'not a url', '/documents'])(
    'refuses %s, which is not an http(s) URL, even with allowPrivate',
    async (url) => {
      for (const allowPrivate of [false, true]) {
        const error = await assertPublicUrl(url, { allowPrivate, lookup: noLookup }).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).errors?.[0]?.path).toBe('base_url');
        expect((error as AppError).message).toMatch(/http/);
      }
    },
  );

  it('refuses credentials in the URL', async () => {
    const error = await refusal('https://user:secret@cms.example/', resolvesTo('93.184.216.34'));
    expect(error.message).toMatch(/credentials/);
  });

  it('refuses a host name that resolves to a private address, without naming the address', async () => {
    const error = await refusal('https://cms.internal.example/', resolvesTo('10.1.2.3'));
    expect(error.errors?.[0]?.path).toBe('base_url');
    expect(error.message).not.toContain('10.1.2.3');
  });

  it('refuses a host name when any of its addresses is internal', async () => {
    await refusal('https://cms.example/', resolvesTo('93.184.216.34', '127.0.0.1'));
    await refusal('https://cms.example/', resolvesTo('2606:2800:220:1::1', '::ffff:10.0.0.1'));
    await refusal('https://cms.example/', resolvesTo('0:0:0:0:0:0:0:1'));
  });

  it('refuses a host name that does not resolve', async () => {
    const error = await refusal('https://nowhere.example/', async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    });
    expect(error.message).toMatch(/could not be resolved/);
    await refusal('https://empty.example/', resolvesTo());
  });

  it('allows a host name that resolves to public addresses only (decision only, nothing is sent)', async () => {
    const lookups: string[] = [];
    const lookup: HostLookup = async (host) => {
      lookups.push(host);
      return ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'];
    };
    const url = await assertPublicUrl('https://cms.example/api', { allowPrivate: false, lookup });
    expect(url.href).toBe('https://cms.example/api');
    expect(lookups).toEqual(['cms.example']);
    await expect(checkOutboundUrl('https://cms.example/api', { allowPrivate: false, lookup })).resolves.toMatchObject({
      allowed: true,
      addresses: ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    });
  });

  it('allows a public IP literal', async () => {
    await expect(
      assertPublicUrl('http://93.184.216.34/', { allowPrivate: false, lookup: noLookup }),
    ).resolves.toBeInstanceOf(URL);
  });
});

describe('outbound guard right before a call (boolean form)', () => {
  it('answers false for internal targets and true for public ones', async () => {
    expect(await isOutboundUrlAllowed('http://127.0.0.1:4010/', { allowPrivate: false, lookup: noLookup })).toBe(false);
    expect(await isOutboundUrlAllowed('http://127.0.0.1:4010/', { allowPrivate: true, lookup: noLookup })).toBe(true);
    expect(
      await isOutboundUrlAllowed('https://cms.example/', { allowPrivate: false, lookup: resolvesTo('192.168.0.10') }),
    ).toBe(false);
    expect(
      await isOutboundUrlAllowed('https://cms.example/', { allowPrivate: false, lookup: resolvesTo('93.184.216.34') }),
    ).toBe(true);
    expect(await isOutboundUrlAllowed('ftp://x', { allowPrivate: true, lookup: noLookup })).toBe(false);
  });

  it('follows a change of DNS between two checks', async () => {
    let answer = '93.184.216.34';
    const lookup: HostLookup = async () => [answer];
    expect(await isOutboundUrlAllowed('https://rebind.example/', { allowPrivate: false, lookup })).toBe(true);
    answer = '169.254.169.254';
    expect(await isOutboundUrlAllowed('https://rebind.example/', { allowPrivate: false, lookup })).toBe(false);
  });
});

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['126.255.255.255', false],
    ['128.0.0.0', false],
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    ['172.15.255.255', false],
    ['172.16.0.0', true],
    ['172.31.255.255', true],
    ['172.32.0.0', false],
    ['192.167.255.255', false],
    ['192.168.0.0', true],
    ['169.253.255.255', false],
    ['169.254.169.254', true],
    ['100.63.255.255', false],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['100.128.0.0', false],
    ['0.0.0.0', true],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fdff:ffff::1', true],
    ['fe00::1', false],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf::1', true],
    ['2606:2800:220:1:248:1893:25c8:1946', false],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:ffff:a9fe:a9fe', true],
    ['::ffff:100.64.0.1', true],
    ['::ffff:93.184.216.34', false],
    ['::7f00:1', true],
    ['::a9fe:a9fe', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b:1::a00:1', true],
    ['2002:7f00:1::', true],
    ['2001:0:4136:e378::1', true], // Teredo
    ['2001:db8::1', true],
    ['100::1', true],
    ['198.18.0.0', true],
    ['198.19.255.255', true],
    ['198.20.0.0', false],
    ['192.0.0.8', true],
    ['192.0.2.1', true],
    ['198.51.100.1', true],
    ['203.0.113.1', true],
    ['255.255.255.255', true],
    ['not-an-address', true],
  ])('%s → %s', (address, expected) => {
    expect(isBlockedAddress(address)).toBe(expected);
  });
});
