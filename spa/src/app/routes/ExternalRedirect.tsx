import { useEffect } from "react";

import { PageLoader } from "../../components/PageLoader";

/** lobby/lobbyflash and lobby/tableflash: full-page loads of the static lobby pages. */
export function ExternalRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return <PageLoader />;
}
