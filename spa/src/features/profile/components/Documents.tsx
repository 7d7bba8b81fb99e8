import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { SESSION_EXPIRED } from "../../../api/errors";
import { useAppDispatch } from "../../../lib/store/hooks";
import { sessionExpired } from "../../../lib/session/sessionExpiry";
import { useGetDocumentsQuery } from "../profileApi";
import {
  ACCEPTED_TYPES,
  DOCUMENT_CODES,
  DOCUMENT_NAMES,
  MAX_UPLOAD_BYTES,
  UploadError,
  uploadDocument,
  type DocumentKind,
} from "../upload";

/** ID proof, address proof and PAN card: pick a file, optionally its number, upload with progress. */
export function Documents() {
  const { t } = useTranslation("profile");
  const documents = useGetDocumentsQuery();
  return (
    <section className="documents" aria-labelledby="documents-title">
      <h2 id="documents-title">{t("documents.title")}</h2>
      <div className="tiles">
        {(Object.keys(DOCUMENT_CODES) as DocumentKind[]).map((kind) => (
          <DocumentUpload key={kind} kind={kind} uploaded={(documents.data?.documents ?? []).filter((d) => d.docType === DOCUMENT_NAMES[kind])} onUploaded={() => void documents.refetch()} />
        ))}
      </div>
    </section>
  );
}

function DocumentUpload({ kind, uploaded, onUploaded }: { kind: DocumentKind; uploaded: { fileName?: string | null; status?: string | null }[]; onUploaded: () => void }) {
  const { t } = useTranslation("profile");
  const dispatch = useAppDispatch();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [number, setNumber] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function choose(file: File | undefined) {
    if (!file || progress !== null) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setMessage({ ok: false, text: t("documents.tooLarge") });
      return;
    }
    setMessage(null);
    setProgress(0);
    try {
      await uploadDocument(file, kind, number, setProgress);
      setMessage({ ok: true, text: t("documents.uploaded") });
      setNumber("");
      onUploaded();
    } catch (error) {
      const failure = error instanceof UploadError ? error : new UploadError(String(error), null);
      // The shell's one SESSION_EXPIRED path: logged out here too, one popup.
      if (failure.code === SESSION_EXPIRED) dispatch(sessionExpired());
      else setMessage({ ok: false, text: failure.message });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="tile document" data-testid={`document-${kind}`}>
      <span className="tile__title">{t(`documents.${kind}`)}</span>
      <label htmlFor={`${id}-number`}>{t("documents.number")}</label>
      <input id={`${id}-number`} className="input" value={number} maxLength={20} onChange={(e) => setNumber(e.target.value)} />
      <input ref={input} id={`${id}-file`} className="visually-hidden" type="file" accept={ACCEPTED_TYPES} onChange={(e) => void choose(e.target.files?.[0])} data-testid={`document-file-${kind}`} />
      <label htmlFor={`${id}-file`} className="button button--primary document__pick" aria-disabled={progress !== null}>
        {t("documents.upload")}
      </label>
      {progress !== null && <progress max={1} value={progress} aria-label={t("documents.progress")} />}
      {message && (
        <p className={message.ok ? "page__notice page__notice--ok" : "field__error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
      {uploaded.length > 0 && (
        <ul className="document__list">
          {uploaded.map((doc, n) => (
            <li key={`${doc.fileName ?? ""}-${n}`}>
              {doc.fileName} · {doc.status}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
