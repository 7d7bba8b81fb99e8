import { Fragment } from "react";
import { useTranslation } from "react-i18next";

import type { Check } from "../api/types";

/** The preview's check of each new base URL: does it speak the platform (its documented calls
 * that need no player, each answer held to the contract the product reads), and if not, which
 * call failed and why, in the gateway's words. */
export function ContractReport({ checks }: { checks: Check[] }) {
  const { t } = useTranslation();
  if (checks.length === 0) return null;
  return (
    <ul className="probes" data-testid="contract-report">
      {checks.map((check) => (
        <li key={`${check.skin}/${check.upstream}/${check.url}`} className={check.ok ? "probe probe--ok" : "probe probe--failed"}
            data-ok={check.ok}>
          <p className="probe__head">
            <span className={check.ok ? "dot dot--up" : "dot dot--down"} aria-hidden="true" />
            <strong data-testid="contract-summary">
              {t(check.ok ? "contract.ok" : "contract.failed", { valid: check.valid, total: check.total })}
            </strong>{" "}
            <code className="url">{check.upstream}: {check.url}</code>
          </p>
          {!check.ok && (
            <dl className="facts" data-testid="contract-failures">
              {check.calls.filter((call) => !call.ok).map((call) => (
                <Fragment key={call.name}>
                  <dt><code>{call.name}</code></dt>
                  <dd>{call.why}</dd>
                </Fragment>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ul>
  );
}
