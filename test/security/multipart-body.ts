export const BOUNDARY = 'x-boundary-7';

export interface Part {
  name: string;
  value?: string;
  filename?: string;
  type?: string;
  data?: Buffer;
}

/** A multipart/form-data body byte by byte; `close: false` leaves off the closing boundary (a cut body). */
export function multipartBody(parts: Part[], opts: { close?: boolean } = {}): Buffer {
  const out: Buffer[] = [];
  parts.forEach((p, i) => {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const head = `${i === 0 ? '' : '\r\n'}--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`;
    out.push(Buffer.from(head, 'utf8'), p.data ?? Buffer.from(p.value ?? '', 'utf8'));
  });
  if (opts.close !== false) out.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'latin1'));
  return Buffer.concat(out);
}

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
