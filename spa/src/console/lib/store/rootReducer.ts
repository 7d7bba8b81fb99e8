import { combineSlices } from "@reduxjs/toolkit";

import { consoleApi } from "../../api/consoleApi";
import { sessionSlice } from "../session/sessionSlice";

/** The console's state: the API cache and who is signed in. Views keep their forms in React state. */
export const rootReducer = combineSlices(consoleApi, sessionSlice);

export type RootState = ReturnType<typeof rootReducer>;
