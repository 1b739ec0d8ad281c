import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The HS256 secret test apps are configured with. */
export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghij';

export interface TokenClaims {
  sub: string;
  workGrpCd: string;
  entrNo?: string;
}

/** A bearer header value for a test user, valid for an hour unless told otherwise. */
export function bearer(claims: TokenClaims, options: { secret?: string; expiresIn?: number } = {}): string {
  const token = jwt.sign(claims, options.secret ?? TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: options.expiresIn ?? 3600 });
  return `Bearer ${token}`;
}

export const ADMIN = { sub: 'admin01', workGrpCd: 'BO_ADMIN' } as const;

const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT assembled by hand, so a test can build what no well-behaved library would sign. */
export function handMadeJwt(header: object, payload: object, sign: (signingInput: string) => string = () => ''): string {
  const signingInput = `${part(header)}.${part(payload)}`;
  return `${signingInput}.${sign(signingInput)}`;
}

/** Signers for handMadeJwt. */
export const hs256 = (secret: string | Buffer) => (input: string) => createHmac('sha256', secret).update(input).digest('base64url');
export const rs256 = (privateKeyPem: string) => (input: string) =>
  createSign('RSA-SHA256').update(input).sign(privateKeyPem).toString('base64url');

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A fresh RS256 key pair in PEM (public: SPKI, private: PKCS#8). */
export function rsaKeyPair(): { publicKey: string; privateKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}
