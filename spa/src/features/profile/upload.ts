import type { UploadFileResponse } from "../../api/contracts.gen";
import { gatewayMessage, replyFailure, SESSION_EXPIRED } from "../../api/errors";
import { pathOf } from "../../api/routes";
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from "../../api/xsrf";

/** The document kinds and their upload codes: ID 1, address 2, PAN 3. */
export const DOCUMENT_CODES = { idProof: 1, addressProof: 2, panCard: 3 } as const;
export type DocumentKind = keyof typeof DOCUMENT_CODES;
/** The platform's docType names of what it lists (getDocuments). */
export const DOCUMENT_NAMES: Record<DocumentKind, string> = { idProof: "Id Proof", addressProof: "Address Proof", panCard: "Pan Card" };
/** Larger files are refused before they are sent (the gateway's limit is 32 MB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_TYPES = "image/jpeg,image/png,application/pdf";

export class UploadError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/**
 * A real multipart upload through the BFF, with progress. XMLHttpRequest rather than fetch:
 * fetch reports no upload progress. The session stays in its HttpOnly cookie; the XSRF token
 * is echoed as on every unsafe call.
 */
export function uploadDocument(
  file: File,
  kind: DocumentKind,
  docNumber: string,
  onProgress: (fraction: number) => void,
): Promise<UploadFileResponse> {
  const form = new FormData();
  form.append("file", file);
  form.append("docType", String(DOCUMENT_CODES[kind]));
  if (docNumber.trim()) form.append("docNumber", docNumber.trim());
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", pathOf("uploadFile"));
    xhr.withCredentials = true;
    const token = readCookie(XSRF_COOKIE);
    if (token) xhr.setRequestHeader(XSRF_HEADER, token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new UploadError("Network error", null));
    xhr.onload = () => {
      let body: UploadFileResponse & { code?: string | null; errors?: { code?: string }[] } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the status says it all
      }
      if (body.code === SESSION_EXPIRED) return reject(new UploadError(SESSION_EXPIRED, SESSION_EXPIRED));
      if (xhr.status >= 400 || body.success === false) {
        // The gateway's own check of the file names it in `errors` (a 422): its code says why.
        const refused = body.errors?.[0]?.code;
        const named = refused ? gatewayMessage({ ...body, code: refused }) : null;
        return reject(new UploadError(named ?? gatewayMessage(body) ?? replyFailure(body), refused ?? body.code ?? null));
      }
      onProgress(1);
      resolve(body);
    };
    xhr.send(form);
  });
}
