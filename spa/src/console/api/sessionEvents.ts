import { createAction } from "@reduxjs/toolkit";

/** A call was refused for want of a console session (401 SIGNED_OUT or SESSION_EXPIRED). */
export const sessionEnded = createAction<string | null>("consoleSession/ended");
