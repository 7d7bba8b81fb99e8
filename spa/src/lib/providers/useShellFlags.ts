import { useOutletContext } from "react-router";

import { providerFlags, type ProviderFlags } from "./flags";

/** Before any provider list: only areas hidden "when absent" stay hidden. */
const NO_LIST = providerFlags(new Map(), false);

/** The provider flags the layout loaded, for the screens it renders (one list, one refresh timer). */
export function useShellFlags(): ProviderFlags {
  return useOutletContext<ProviderFlags | undefined>() ?? NO_LIST;
}
