import { useTranslation } from "react-i18next";

/** The statuses the platform gives deposits and withdrawals (the histories, open withdrawals). */
const STATUSES = ["Approved", "Pending", "Failed", "Paid", "Cancelled", "Locked"] as const;
type Status = (typeof STATUSES)[number];

function isStatus(status: string): status is Status {
  return (STATUSES as readonly string[]).includes(status);
}

/** A payment status as the player's language says it; one the platform has not used before is
 * shown as it sent it. */
export function useStatusText(): (status: string) => string {
  const { t } = useTranslation("common");
  return (status) => (isStatus(status) ? t(`statuses.${status}`) : status);
}
