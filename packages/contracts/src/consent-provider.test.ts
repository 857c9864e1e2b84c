import { consentProvider } from './consent-provider.js';

const HEX40 = 'eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';

describe('consentProvider', () => {
  it.each([
    [HEX40, 'trustedform'],
    [HEX40.toUpperCase(), 'trustedform'],
    [`https://cert.trustedform.com/${HEX40}`, 'trustedform'],
    [`http://cert.trustedform.com/${HEX40}`, 'trustedform'],
    [`HTTPS://Cert.TrustedForm.com/${HEX40}`, 'trustedform'],
    [`  https://cert.trustedform.com/${HEX40}  `, 'trustedform'],
    ['a1b2c3d4-e5f6-4789-abcd-ef0123456789', 'jornaya'],
    ['A1B2C3D4-E5F6-4789-ABCD-EF0123456789', 'jornaya'],
    ['00000000-0000-0000-0000-000000000000', 'jornaya'],
  ])('recognises %s as %s', (token, provider) => {
    expect(consentProvider(token)).toBe(provider);
  });

  it.each([
    [''],
    ['   '],
    ['consent-123'],
    [HEX40.slice(1)],
    [`${HEX40}0`],
    [`${HEX40.slice(1)}g`],
    [`https://cert.trustedform.com/${HEX40.slice(1)}`],
    [`https://cert.trustedform.com/${HEX40}/extra`],
    [`https://cert.trustedform.com/${HEX40}?x=1`],
    [`https://evil.example/${HEX40}`],
    [`https://cert.trustedform.com.evil.example/${HEX40}`],
    [`ftp://cert.trustedform.com/${HEX40}`],
    ['a1b2c3d4e5f64789abcdef0123456789'],
    ['a1b2c3d4-e5f6-4789-abcd-ef012345678'],
    ['a1b2c3d4-e5f6-4789-abcd-ef01234567890'],
    ['{a1b2c3d4-e5f6-4789-abcd-ef0123456789}'],
    ['g1b2c3d4-e5f6-4789-abcd-ef0123456789'],
    ['a1b2c3d4-e5f6-4789-abcd-ef0123456789\nx'],
  ])('does not recognise %j', (token) => {
    expect(consentProvider(token)).toBeNull();
  });
});
