// The certificate a TLS server presents, as PEM, read from a handshake: what an operator would save
// to trust a self-signed server (the SDK's `ca`, the CLI's --ca).
import { connect } from 'node:tls';

/** The certificate the server at this https:// URL presents, as PEM. */
export function peerCertificatePem(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      const b64 = raw.toString('base64').replace(/(.{64})/g, '$1\n');
      resolve(`-----BEGIN CERTIFICATE-----\n${b64.trimEnd()}\n-----END CERTIFICATE-----\n`);
    });
    socket.on('error', reject);
  });
}
