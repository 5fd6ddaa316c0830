/** A `content-type` header taken apart: `text/html; charset=ISO-8859-1` → `text/html`, `iso-8859-1`. */
export interface ContentType {
  /** Lower-case type/subtype; empty when the server sent none. */
  mimeType: string;
  /** Lower-case charset parameter, when given. */
  charset?: string;
}

export function parseContentType(header: string | undefined): ContentType {
  const [type = '', ...params] = (header ?? '').split(';');
  const mimeType = type.trim().toLowerCase();
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== '') return { mimeType, charset };
  }
  return { mimeType };
}

/** How much of an HTML page is searched for a `<meta charset>`, as browsers do. */
const META_SNIFF_BYTES = 1024;

/** The charset a `<meta charset=…>` or `<meta http-equiv content="…charset=…">` near the top names. */
export function sniffHtmlCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, META_SNIFF_BYTES)).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
}

/**
 * Decodes body bytes as text in `charset` (UTF-8 when absent or unknown).
 * Labels follow the Encoding Standard, so `latin1` reads as windows-1252.
 */
export function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  // A byte-order mark is dropped by the decoder.
  return decoderFor(charset).decode(bytes);
}

function decoderFor(charset: string | undefined): InstanceType<typeof TextDecoder> {
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset);
    } catch {
      // An unknown label: fall back to UTF-8 rather than fail the fetch.
    }
  }
  return new TextDecoder('utf-8');
}
