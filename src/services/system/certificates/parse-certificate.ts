import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { certificateBlocks } from './pem.js';
import type { UploadCertificateInput } from './certificates.schema.js';

export interface ParsedCertificate {
  subject: string;
  issuer: string;
  sans: string[];
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  fingerprint256: string;
  certificatePem: string;
  chainPem: string;
  chainLength: number;
  /** The key as PKCS#8 PEM (decrypted): what is sealed. */
  privateKeyPem: string;
}

/** `CN=a\nO=b` (Node's form) as `CN=a, O=b`. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

function problem(field: string, message: string): AppError {
  return AppError.validation([{ field, rule: 'format', message } satisfies FieldProblem]);
}

function parseKey(input: UploadCertificateInput): KeyObject {
  try {
    return createPrivateKey({
      key: input.private_key,
      format: 'pem',
      ...(input.passphrase !== undefined && { passphrase: input.passphrase }),
    });
  } catch {
    throw problem('private_key', 'not a PEM private key (or the passphrase is wrong)');
  }
}

/**
 * Parses and checks an upload with node:crypto: the leaf and each chain certificate parse, each
 * chain certificate issued the one before it, and the private key matches the leaf. Anything
 * else is 40001 naming the field; nothing of the key reaches an error message.
 */
export function parseCertificateUpload(input: UploadCertificateInput): ParsedCertificate {
  const blocks = certificateBlocks(input.certificate);
  if (!blocks || blocks.length === 0) {
    throw problem('certificate', 'no PEM certificate (-----BEGIN CERTIFICATE-----)');
  }
  let certs: X509Certificate[];
  try {
    certs = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw problem('certificate', 'a PEM block is not a valid X.509 certificate');
  }
  for (let i = 0; i + 1 < certs.length; i++) {
    if (!certs[i]!.checkIssued(certs[i + 1]!)) {
      throw problem('certificate', `chain certificate ${i + 1} did not issue the one before it`);
    }
  }
  const key = parseKey(input);
  if (key.asymmetricKeyType === undefined || key.type !== 'private') {
    throw problem('private_key', 'not a private key');
  }
  const leaf = certs[0]!;
  if (!leaf.checkPrivateKey(key)) {
    throw problem('private_key', 'the private key does not match the certificate');
  }
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  if (Number.isNaN(notBefore.getTime()) || Number.isNaN(notAfter.getTime())) {
    throw problem('certificate', 'the certificate has an unreadable validity period');
  }
  return {
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    sans: leaf.subjectAltName ? leaf.subjectAltName.split(', ') : [],
    serialNumber: leaf.serialNumber,
    notBefore,
    notAfter,
    fingerprint256: leaf.fingerprint256,
    certificatePem: leaf.toString(),
    chainPem: certs
      .slice(1)
      .map((c) => c.toString())
      .join(''),
    chainLength: certs.length - 1,
    privateKeyPem: key.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}
