import { useState } from "react";

import type { Skin, Upstream } from "../../api/types";
import { PurgeDialog } from "../../features/actions/PurgeDialog";
import { RevokeDialog } from "../../features/actions/RevokeDialog";
import { SkinCanaries } from "../../features/canary/CanariesScreen";
import { StartCanary } from "../../features/canary/StartCanary";
import { ChangeRealityDialog } from "../../features/changes/ChangeRealityDialog";
import { ChangeUpstreamDialog } from "../../features/changes/ChangeUpstreamDialog";
import { OverviewScreen } from "../../features/overview/OverviewScreen";

type Open =
  | { kind: "change"; skin: Skin; upstream: Upstream; baseVersion: string }
  | { kind: "reality"; skin: Skin; baseVersion: string }
  | { kind: "purge"; skin: Skin }
  | { kind: "revoke"; skin: Skin };

/** The overview with what operators start from it: a change of upstream (applied, or as a canary) or of the reality check, a cache
 * purge, a revocation; each skin's card names its live canaries. */
export function OverviewRoute() {
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <OverviewScreen
        actions={{
          changeUpstream: (skin, upstream, baseVersion) => setOpen({ kind: "change", skin, upstream, baseVersion }),
          changeReality: (skin, baseVersion) => setOpen({ kind: "reality", skin, baseVersion }),
          purge: (skin) => setOpen({ kind: "purge", skin }),
          revoke: (skin) => setOpen({ kind: "revoke", skin }),
        }}
        skinNotes={(skin) => <SkinCanaries skin={skin.id} />}
      />
      {open?.kind === "change" && (
        <ChangeUpstreamDialog skin={open.skin} upstream={open.upstream} baseVersion={open.baseVersion} onClose={close}
                              canary={(choice) => <StartCanary {...choice} />} />
      )}
      {open?.kind === "reality" && <ChangeRealityDialog skin={open.skin} baseVersion={open.baseVersion} onClose={close} />}
      {open?.kind === "purge" && <PurgeDialog skin={open.skin} onClose={close} />}
      {open?.kind === "revoke" && <RevokeDialog skin={open.skin} onClose={close} />}
    </>
  );
}
