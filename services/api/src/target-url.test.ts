import { isPrivateAddress, targetUrlProblem } from './target-url.js';

const strict = { allowPrivateTargets: false };
const lax = { allowPrivateTargets: true };

describe('targetUrlProblem', () => {
  it.each([
    ['ftp://example.com/hook', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['not a url', 'invalid'],
    ['http://127.0.0.1/hook', 'private_target'],
    ['http://127.1.2.3:8080/hook', 'private_target'],
    ['http://[::1]/hook', 'private_target'],
    ['http://[::]/hook', 'private_target'],
    ['http://10.1.2.3/hook', 'private_target'],
    ['http://172.16.0.1/hook', 'private_target'],
    ['http://172.31.255.255/hook', 'private_target'],
    ['http://192.168.1.1/hook', 'private_target'],
    ['http://100.64.0.1/hook', 'private_target'],
    ['http://169.254.169.254/latest/meta-data', 'private_target'],
    ['http://0.0.0.0/hook', 'private_target'],
    ['http://[fd00::1]/hook', 'private_target'],
    ['http://[fc00::1]/hook', 'private_target'],
    ['http://[fe80::1]/hook', 'private_target'],
    ['http://[::ffff:127.0.0.1]/hook', 'private_target'],
    ['http://[::ffff:10.0.0.1]/hook', 'private_target'],
    ['http://localhost:3000/hook', 'private_target'],
    ['http://LOCALHOST./hook', 'private_target'],
    ['http://api.localhost/hook', 'private_target'],
    // Odd IPv4 spellings the URL parser normalises to 127.0.0.1.
    ['http://2130706433/hook', 'private_target'],
    ['http://0x7f.1/hook', 'private_target'],
    ['http://017700000001/hook', 'private_target'],
    // IPv6 outside global unicast (2000::/3), including the deprecated
    // IPv4-compatible block, which the URL parser writes as ::7f00:1.
    ['http://[::127.0.0.1]/hook', 'private_target'],
    ['http://[::169.254.169.254]/latest/meta-data', 'private_target'],
    ['http://[::10.0.0.1]/hook', 'private_target'],
    ['http://[::8.8.8.8]/hook', 'private_target'],
    ['http://[64:ff9b::7f00:1]/hook', 'private_target'], // NAT64
    ['http://[fec0::1]/hook', 'private_target'], // site-local, deprecated
    ['http://[100::1]/hook', 'private_target'], // discard-only
    ['http://[4000::1]/hook', 'private_target'], // unassigned
    ['http://[2001::1]/hook', 'private_target'], // Teredo
    ['http://[2001:db8::1]/hook', 'private_target'], // documentation
    ['http://[2001:10::1]/hook', 'private_target'], // ORCHID
    ['http://[2002:7f00:1::]/hook', 'private_target'], // 6to4 of 127.0.0.1
    ['http://[3ffe::1]/hook', 'private_target'], // 6bone
    // Hosts that are not what a reader sees.
    ['http:///hook.example.com/x', 'invalid'],
    ['http:/hook.example.com/x', 'invalid'],
    ['http:hook.example.com/x', 'invalid'],
    ['http://hook.example.com\\@evil.example/x', 'invalid'],
    ['http://hook.exa\tmple.com/x', 'invalid'],
    ['http://hook.example.com\n/x', 'invalid'],
    ['http://ho%6fk.example.com/x', 'invalid'],
    ['http://0x5db8d822/hook', 'invalid'], // 93.184.216.34 in one hex number
    ['http://1572395042/hook', 'invalid'],
    ['http://93.184.216.042/hook', 'invalid'],
  ])('refuses %s (%s) when private targets are disallowed', (url, problem) => {
    expect(targetUrlProblem(url, strict)).toBe(problem);
  });

  it.each([
    'https://crm.example.com/hooks/leadhook',
    'HTTPS://crm.example.com/x',
    'http://93.184.216.34/hook',
    'http://[2606:4700:4700::1111]/hook',
    'http://172.32.0.1/hook', // just outside 172.16/12
    'http://192.169.0.1/hook', // just outside 192.168/16
    'http://100.128.0.1/hook', // just outside 100.64/10
    'http://localhost.example.com/hook', // a name that merely starts with localhost
    'https://CRM.Example.com./hooks',
    'https://user:p%40ss@crm.example.com:8443/hooks?x=1#y',
    'https://bücher.example/hooks',
    'http://[2a00:1450:4001:80b::200e]:8080/hook',
    'http://[::ffff:93.184.216.34]/hook', // IPv4-mapped public address
  ])('accepts %s', (url) => {
    expect(targetUrlProblem(url, strict)).toBeNull();
  });

  it('accepts private and loopback hosts when the operator allows them, never another scheme', () => {
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/',
      'http://localhost/hook',
      'http://[::127.0.0.1]/hook',
    ]) {
      expect([url, targetUrlProblem(url, lax)]).toEqual([url, null]);
    }
    expect(targetUrlProblem('ftp://127.0.0.1/', lax)).toBe('scheme');
    expect(targetUrlProblem('http:///127.0.0.1/', lax)).toBe('invalid');
  });
});

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.255.255.255', true],
    ['169.254.169.254', true],
    ['::ffff:7f00:1', true],
    ['::7f00:1', true],
    ['64:ff9b::a00:1', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
    ['example.com', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
