import { useEffect } from "react";

import { applyBranding } from "./applyBranding";
import { useGetConfigQuery } from "./configApi";

/** Applies the skin's colours and name to the document once /bff/config has answered. */
export function useSkinBranding(): void {
  const { data } = useGetConfigQuery();
  useEffect(() => {
    if (!data) return;
    applyBranding(data.skin.branding);
    document.title = data.skin.name;
  }, [data]);
}
