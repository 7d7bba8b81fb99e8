import { useState } from "react";

import type { Skin, Upstream } from "../../api/types";
import { PurgeDialog } from "../../features/actions/PurgeDialog";
import { RevokeDialog } from "../../features/actions/RevokeDialog";
import { SkinCanaries } from "../../features/canary/CanariesScreen";
import { StartCanary } from "../../features/canary/StartCanary";
import { ChangeUpstreamDialog } from "../../features/changes/ChangeUpstreamDialog";
import { OverviewScreen } from "../../features/overview/OverviewScreen";

type Open =
  | { kind: "change"; skin: Skin; upstream: Upstream; baseVersion: string }
  | { kind: "purge"; skin: Skin }
  | { kind: "revoke"; skin: Skin };

/** The overview with what operators start from it: a change of upstream (applied, or as a canary), a cache
 * purge, a revocation; each skin's card names its live canaries. */
export function OverviewRoute() {
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <OverviewScreen
        actions={{
          changeUpstream: (skin, upstream, baseVersion) => setOpen({ kind: "change", skin, upstream, baseVersion }),
          purge: (skin) => setOpen({ kind: "purge", skin }),
          revoke: (skin) => setOpen({ kind: "revoke", skin }),
        }}
        skinNotes={(skin) => <SkinCanaries skin={skin.id} />}
      />
      {open?.kind === "change" && (
        <ChangeUpstreamDialog skin={open.skin} upstream={open.upstream} baseVersion={open.baseVersion} onClose={close}
                              canary={(choice) => <StartCanary {...choice} />} />
      )}
      {open?.kind === "purge" && <PurgeDialog skin={open.skin} onClose={close} />}
      {open?.kind === "revoke" && <RevokeDialog skin={open.skin} onClose={close} />}
    </>
  );
}
