/**
 * `npm run licence -- keygen --out DIR` creates an Ed25519 key pair (DIR/licence-key.pem private,
 * DIR/licence-key.pub.pem public). `npm run licence -- sign --key FILE --licensee NAME
 * --components tags,events --expires 2027-12-31 [--id ID] [--out FILE]` writes a signed licence.
 * Servers trust a public key placed in DATA_DIR/licence/trusted/ or named in LICENCE_PUBLIC_KEYS.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { generateLicenceKeyPair, signLicence } from '@werkbank/kernel/node';

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(args: string[]): number {
  const [cmd] = args;
  if (cmd === 'keygen') {
    const out = arg(args, 'out') ?? '.';
    mkdirSync(out, { recursive: true });
    const keys = generateLicenceKeyPair();
    writeFileSync(join(out, 'licence-key.pem'), keys.privateKeyPem, { mode: 0o600 });
    writeFileSync(join(out, 'licence-key.pub.pem'), keys.publicKeyPem);
    console.log(`Key ${keys.keyId} written to ${out}/licence-key.pem (private, keep secret) and licence-key.pub.pem (public)`);
    return 0;
  }
  if (cmd === 'sign') {
    const keyFile = arg(args, 'key');
    const licensee = arg(args, 'licensee');
    const components = arg(args, 'components');
    const expires = arg(args, 'expires');
    if (!keyFile || !licensee || !components || !expires || Number.isNaN(new Date(expires).getTime())) {
      console.error(
        'Usage: npm run licence -- sign --key FILE --licensee NAME --components a,b --expires YYYY-MM-DD [--id ID] [--out FILE]',
      );
      return 2;
    }
    const doc = signLicence(
      {
        id: arg(args, 'id') ?? randomUUID(),
        licensee,
        components: components
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        issued: new Date().toISOString(),
        expires: new Date(expires).toISOString(),
      },
      readFileSync(keyFile, 'utf8'),
    );
    const text = JSON.stringify(doc, null, 2);
    const out = arg(args, 'out');
    if (out) {
      writeFileSync(out, text);
      console.log(`Licence ${doc.payload.id} written to ${out}`);
    } else console.log(text);
    return 0;
  }
  console.error('Usage: npm run licence -- keygen --out DIR | sign --key FILE --licensee NAME --components a,b --expires DATE');
  return 2;
}

process.exitCode = main(process.argv.slice(2));
