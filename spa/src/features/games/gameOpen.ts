import type { RootState } from "../../lib/store/rootReducer";

/** Whether a game's frame is open, without loading the frame's code: the layout mounts the frame
 * (and its texts) only then. The `game` slice joins the store with the frame's module, so until a
 * game is launched it is not there at all. */
export const selectGameOpen = (state: RootState): boolean => Boolean(state.game?.url);
