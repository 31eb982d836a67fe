import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError, invalidInput, unsupported } from '../../domain/api-error';
import { EVIDENCE_LIMITS } from './limits';
import { removeQuietly, screenshotTooLarge, writeTemp, type ReceivedFile } from './upload-file';

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | undefined;
}

const incomplete = (message: string) => invalidInput('EVIDENCE_UPLOAD_INCOMPLETE', message);

/**
 * Reads (and drops) what the client is still sending, up to a cap, so it gets to see our
 * answer; past the cap the connection is cut instead.
 */
function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > EVIDENCE_LIMITS.maxDiscardBytes) req.destroy();
  });
  req.resume();
}

/**
 * Streams one multipart upload: text fields into memory (small, bounded), the `file` part
 * through a sniffer into a temp file in the evidence directory. Stops reading as soon as any
 * limit is crossed. On failure nothing is left on disk and no descriptor stays open: a file
 * part that arrives after a failure is drained, not written, and a temp file whose writing
 * finishes after a failure is removed when it does.
 */
export function receiveEvidenceUpload(req: IncomingMessage, dir: string): Promise<ReceivedUpload> {
  return new Promise<ReceivedUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: 1,
          fileSize: EVIDENCE_LIMITS.maxBytes + 1,
          fields: 16,
          fieldSize: 1024,
          fieldNameSize: 64,
          parts: 20,
        },
      });
    } catch {
      reject(unsupported('UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with a boundary'));
      return;
    }
    const upload = new Upload(req, parser, dir, resolve, reject);
    parser.on('field', upload.onField);
    parser.on('file', upload.onFile);
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => upload.fail(invalidInput('EVIDENCE_TOO_MANY_PARTS', 'too many parts in the upload')));
    }
    parser.on('error', () =>
      upload.fail(invalidInput('EVIDENCE_MALFORMED_MULTIPART', 'the multipart body is malformed or incomplete')),
    );
    parser.on('close', upload.onClose);
    req.on('error', () => upload.fail(incomplete('the client went away mid-upload')));
    req.on('close', () => {
      if (!req.complete) upload.fail(incomplete('the client went away mid-upload'));
    });
    req.pipe(parser);
  });
}

/**
 * One upload in flight. Its parser's listeners share one refusal: the first failure answers,
 * stops reading the request and cleans up; whatever arrives after it is drained or removed.
 */
class Upload {
  private readonly fields: Record<string, string> = {};
  private fileStream: Readable | undefined;
  private written: Promise<ReceivedFile> | undefined;
  private failed = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly parser: busboy.Busboy,
    private readonly dir: string,
    private readonly resolve: (upload: ReceivedUpload) => void,
    private readonly reject: (err: ApiError) => void,
  ) {}

  readonly fail = (err: ApiError): void => {
    if (this.failed) return;
    this.failed = true;
    this.req.unpipe(this.parser);
    discardRest(this.req);
    this.fileStream?.destroy(err);
    void (this.written ?? Promise.resolve(undefined))
      .then(
        (file) => removeQuietly(file?.tmpPath),
        () => undefined, // writeTemp cleaned up after itself
      )
      .then(() => this.reject(err));
  };

  readonly onField = (name: string, value: string, info: busboy.FieldInfo): void => {
    if (info.nameTruncated || info.valueTruncated)
      return this.fail(invalidInput('EVIDENCE_FIELD_TOO_LONG', `field ${name.slice(0, 64)} is too long`));
    if (Object.prototype.hasOwnProperty.call(this.fields, name))
      return this.fail(invalidInput('EVIDENCE_DUPLICATE_FIELD', `field ${name} is sent twice`));
    this.fields[name] = value;
  };

  readonly onFile = (name: string, stream: Readable, info: busboy.FileInfo): void => {
    // busboy may still hand over a part it had buffered before a failure: it is drained,
    // and its errors (a cut body) are answered here rather than crashing the process.
    stream.on('error', () => this.fail(incomplete('the upload ended before the file was complete')));
    if (this.failed) {
      stream.resume();
      return;
    }
    if (name !== 'file' || this.written) {
      stream.resume();
      return this.fail(invalidInput('EVIDENCE_UNEXPECTED_FILE', 'send exactly one file, in the field "file"'));
    }
    if (info.mimeType !== 'image/png') {
      stream.resume();
      return this.fail(
        unsupported('EVIDENCE_NOT_PNG', `the file is declared as ${info.mimeType}; only image/png is accepted`),
      );
    }
    this.fileStream = stream;
    stream.on('limit', () => this.fail(screenshotTooLarge()));
    const writing = writeTemp(stream, this.dir);
    this.written = writing;
    writing.then(
      (file) => (this.failed ? removeQuietly(file.tmpPath) : undefined),
      (err: unknown) => this.fail(err instanceof ApiError ? err : incomplete('the upload failed')),
    );
  };

  readonly onClose = (): void => {
    if (this.failed) return;
    (this.written ?? Promise.resolve(undefined)).then(
      (file) => (this.failed ? removeQuietly(file?.tmpPath) : this.resolve({ fields: this.fields, file })),
      () => undefined, // fail() already answered
    );
  };
}
