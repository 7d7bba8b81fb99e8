import { useTranslation } from "react-i18next";

import { toConsoleError } from "../../api/errors";
import type { Skin } from "../../api/types";
import { usePurgeCacheMutation } from "./actionsApi";
import { ConfirmedAction } from "./ConfirmedAction";

/** Drop a skin's cached content on every instance and in the shared store. */
export function PurgeDialog({ skin, onClose }: { skin: Skin; onClose: () => void }) {
  const { t } = useTranslation("actions");
  const [purge] = usePurgeCacheMutation();
  return (
    <ConfirmedAction
      kind="purge"
      skin={skin}
      onClose={onClose}
      run={async (reason) => {
        const answer = await purge({ skin: skin.id, reason });
        if (answer.error) return { error: toConsoleError(answer.error) };
        const { local, shared } = answer.data.purged;
        return { done: t("purge.done", { local, shared }) };
      }}
    />
  );
}
